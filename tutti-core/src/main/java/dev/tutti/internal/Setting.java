package dev.tutti.internal;


import java.util.List;
import java.util.Locale;

/**
 * One setting of Tutti, as declared in {@link Settings}: its name, the environment variable that may give it, its
 * default, when it is read and what it means.
 *
 * <p>A {@link Kind#TUNABLE} setting is a system property ({@code -Dtutti.eager.limit=4096}) or, if that is not set,
 * the environment variable of the same name in upper case with dots as underscores ({@code TUTTI_EAGER_LIMIT}). A
 * {@link Kind#FAMILY} stands for one tunable per key ({@code tutti.coll.<operation>}: {@code tutti.coll.allreduce},
 * ...; see {@link #member}). A {@link Kind#LAUNCH} setting is an environment variable that the launcher sets for
 * each rank (never a system property).
 *
 * <p>Nothing is cached here: each call of {@link #raw()} (and the accessors built on it) looks at the system
 * properties and the environment, so a program or a test that sets a property before it starts a job, or makes a
 * communicator, is obeyed. {@link #readAt()} says when Tutti reads each setting; no setting is read per message.
 *
 * @param name         the system property, e.g. {@code tutti.eager.limit}; for a launch variable, the variable; for
 *                     a family, the name with its key as {@code <key>}, e.g. {@code tutti.coll.<operation>}
 * @param envName      the environment variable, e.g. {@code TUTTI_EAGER_LIMIT}
 * @param kind         tunable, family of tunables, or launch variable
 * @param type         how the value is parsed
 * @param defaultValue the value when unset; empty when there is none (the meaning says what happens then)
 * @param choices      the accepted values of a {@link Type#CHOICE}, lower case; empty for other types
 * @param readAt       when Tutti reads it
 * @param meaning      what it does, one paragraph (the settings table's text)
 */
public record Setting(String name, String envName, Kind kind, Type type, String defaultValue, List<String> choices,
    ReadAt readAt, String meaning) {

    /** Where a setting comes from. */
    public enum Kind {
        /** A system property, else the environment variable. */
        TUNABLE,
        /** One tunable per key, e.g. one per collective operation. */
        FAMILY,
        /** An environment variable that the launcher sets for each rank. */
        LAUNCH
    }

    /** How a value is parsed. */
    public enum Type {
        /** A decimal {@code int}. */
        INT,
        /** Free text, trimmed. */
        TEXT,
        /** One of {@link #choices()}, in any case. */
        CHOICE
    }

    /** When Tutti reads a setting. */
    public enum ReadAt {
        /** When a job starts ({@code Tutti.init}, {@code Tutti.runLocal}). */
        JOB_START("job start"),
        /** When a communicator is made (the world at job start, then each new one). */
        COMMUNICATOR("new communicator"),
        /** At every call that uses it (the meaning names the call). */
        EACH_CALL("each call"),
        /** When a rank closes its job. */
        JOB_END("job end");

        private final String label;

        ReadAt(final String label) {
            this.label = label;
        }

        /** @return the short label of the settings table and {@code tutti info --settings}, e.g. {@code job start} */
        public String label() {
            return label;
        }
    }

    /** Where the value in force comes from ({@link #source()}). */
    public enum Source {
        /** A system property. */
        SYSTEM_PROPERTY("system property"),
        /** An environment variable. */
        ENVIRONMENT("environment"),
        /** Neither: the default. */
        DEFAULT("default");

        private final String label;

        Source(final String label) {
            this.label = label;
        }

        /** @return the label, e.g. {@code system property} */
        public String label() {
            return label;
        }
    }

    /** The key placeholder of a family's name, e.g. {@code <operation>}: from {@code <} to the end. */
    private static final char KEY_OPEN = '<';

    /**
     * The record's checks.
     *
     * @param name         the name
     * @param envName      the environment variable
     * @param kind         the kind
     * @param type         the type
     * @param defaultValue the default
     * @param choices      the choices
     * @param readAt       when it is read
     * @param meaning      the meaning
     */
    public Setting {
        choices = List.copyOf(choices);
        if ((Type.CHOICE == type) == choices.isEmpty()) {
            throw Errors.refused("setting " + name + ": type=" + type + ", choices=" + choices,
                "choices exactly for a CHOICE");
        }
        if ((Kind.FAMILY == kind) != (name.indexOf(KEY_OPEN) > 0)) {
            throw Errors.refused("setting " + name + ": kind=" + kind, "a <key> in the name exactly for a FAMILY");
        }
        if (Type.INT == type && !defaultValue.isEmpty()) {
            Integer.parseInt(defaultValue);
        }
    }

    /**
     * The environment variable of a system property: upper case, dots as underscores.
     *
     * @param property e.g. {@code tutti.inproc.eagerLimit}
     * @return e.g. {@code TUTTI_INPROC_EAGERLIMIT}
     */
    public static String envNameOf(final String property) {
        return property.toUpperCase(Locale.ROOT).replace('.', '_');
    }

    /**
     * Returns a tunable of this family.
     *
     * @param key the key, e.g. {@code allreduce}
     * @return the tunable, e.g. {@code tutti.coll.allreduce}, with this family's default, reading time and meaning
     * @throws IllegalStateException if this is not a family
     */
    public Setting member(final String key) {
        if (Kind.FAMILY != kind) {
            throw Failures.badState("setting " + name + " is a " + kind + ", not a FAMILY with members");
        }
        final String property = prefix() + key;
        return new Setting(property, envNameOf(property), Kind.TUNABLE, type, defaultValue, choices, readAt,
            meaning);
    }

    /** @return a family's name up to its key, e.g. {@code tutti.coll.}; else the whole name */
    public String prefix() {
        final int open = name.indexOf(KEY_OPEN);
        return open < 0 ? name : name.substring(0, open);
    }

    /** @return whether it can be given as a system property (every kind but {@link Kind#LAUNCH}) */
    public boolean isProperty() {
        return Kind.LAUNCH != kind;
    }

    /**
     * Reads the value as given: the system property, else the environment variable (a launch variable: only the
     * environment variable). A family has no value of its own: read its {@link #member members}.
     *
     * @return the value, untrimmed, or null if neither is set
     */
    public String raw() {
        if (Kind.FAMILY == kind) {
            return null;
        }
        final String p = Kind.TUNABLE == kind ? System.getProperty(name) : null;
        return null != p ? p : System.getenv(envName);
    }

    /** @return where the value in force comes from */
    public Source source() {
        if (Kind.TUNABLE == kind && null != System.getProperty(name)) {
            return Source.SYSTEM_PROPERTY;
        }
        return Kind.FAMILY != kind && null != System.getenv(envName) ? Source.ENVIRONMENT : Source.DEFAULT;
    }

    /** @return the value, trimmed, or the default if unset or blank (possibly empty) */
    public String text() {
        final String v = raw();
        return null == v || v.isBlank() ? defaultValue : v.trim();
    }

    /**
     * Reads an integer setting.
     *
     * @return the value, or the default if unset or blank
     * @throws IllegalArgumentException naming the setting and its value if it is not an integer
     */
    public int intValue() {
        final String v = raw();
        if (null == v || v.isBlank()) {
            return intDefault();
        }
        try {
            return Integer.parseInt(v.trim());
        } catch (final NumberFormatException e) {
            throw Errors.refused("setting " + name + "=" + v + " is not an integer", e);
        }
    }

    /** @return the default of an integer setting */
    public int intDefault() {
        if (Type.INT != type) {
            throw Failures.badState("setting " + name + " is " + type + ", not an INT");
        }
        return Integer.parseInt(defaultValue);
    }

    /**
     * Reads a choice.
     *
     * @return the value in lower case, or the default if unset or blank
     * @throws IllegalArgumentException naming the setting, its value and the choices if it is none of them
     */
    public String choice() {
        final String v = raw();
        if (null == v || v.isBlank()) {
            return defaultValue;
        }
        final String c = v.trim().toLowerCase(Locale.ROOT);
        if (!choices.contains(c)) {
            throw Errors.refused("setting " + name + "=" + v,
                String.join(", ", choices.subList(0, choices.size() - 1)) + " or " + choices.getLast());
        }
        return c;
    }
}
