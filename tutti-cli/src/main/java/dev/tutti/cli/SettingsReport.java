package dev.tutti.cli;

import dev.tutti.internal.Setting;
import dev.tutti.internal.Settings;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The settings of {@link Settings} as {@code tutti info} shows them: each with the value in force and where it comes
 * from, the members of a family that are set ({@code tutti.coll.allreduce}), and the {@code tutti.*} properties and
 * {@code TUTTI_*} variables that are set but are no setting (a misspelt name would otherwise be ignored silently).
 * Also the user guide's settings table ({@code docs/configuration.md}, {@link #markdown()}), which a test keeps
 * equal to the registry.
 */
final class SettingsReport {
    /** Header of the user guide's settings table. */
    static final String MARKDOWN_HEADER = "| setting | environment variable | default | read at | meaning |\n"
        + "|---|---|---|---|---|\n";

    /** Widest line of a meaning in {@link #print}, after its indent of 6. */
    private static final int WIDTH = 108;

    private SettingsReport() {
    }

    /**
     * One setting's value in force.
     *
     * @param name    the system property (a launch variable: the variable)
     * @param envName the environment variable
     * @param value   the value in force (the default if unset; empty if there is none)
     * @param source  where it comes from: {@code default}, {@code system property} or {@code environment}
     */
    record Value(String name, String envName, String value, String source) {
    }

    /**
     * The value of every setting (a family's own line shows its default), then each family member that is set.
     *
     * @return the values, in the registry's order
     */
    static List<Value> values() {
        final List<Value> values = new ArrayList<>();
        for (final Setting s : Settings.all()) {
            values.add(valueOf(s));
            if (Setting.Kind.FAMILY == s.kind()) {
                for (final String name : setNames(s.prefix())) {
                    values.add(valueOf(Settings.find(name)));
                }
            }
        }
        return values;
    }

    /**
     * The {@code tutti.*} system properties and {@code TUTTI_*} environment variables that are set but declare no
     * setting (see {@link Settings#isDeclared}).
     *
     * @return name to where it is set, sorted by name
     */
    static Map<String, String> unknown() {
        final Map<String, String> unknown = new TreeMap<>();
        for (final String p : System.getProperties().stringPropertyNames()) {
            if (p.startsWith("tutti.") && !Settings.isDeclared(p)) {
                unknown.put(p, "system property");
            }
        }
        for (final String v : System.getenv().keySet()) {
            if (v.startsWith("TUTTI_") && !Settings.isDeclared(v)) {
                unknown.put(v, "environment");
            }
        }
        return unknown;
    }

    /**
     * Prints every setting: name and value in force, then its environment variable, default and reading time, then
     * its meaning; then the unknown names.
     *
     * @param out where to print
     */
    static void print(final PrintWriter out) {
        out.println("settings (system property -Dname=value, else the environment variable; "
            + "launch variables are set by tutti run):");
        for (final Setting s : Settings.all()) {
            printValue(out, valueOf(s));
            out.println("      " + (s.isProperty() ? "environment " + s.envName() + "; " : "")
                + "default " + (s.defaultValue().isEmpty() ? "(none)" : s.defaultValue()) + "; read at "
                + s.readAt().label());
            for (final String line : wrap(s.meaning().replace("`", ""), WIDTH)) {
                out.println("      " + line);
            }
            if (Setting.Kind.FAMILY == s.kind()) {
                for (final String name : setNames(s.prefix())) {
                    printValue(out, valueOf(Settings.find(name)));
                }
            }
        }
        final Map<String, String> unknown = unknown();
        if (!unknown.isEmpty()) {
            out.println();
            out.println("set but not Tutti settings (misspelt? they have no effect):");
            unknown.forEach((name, where) -> out.println("  " + name + " (" + where + ")"));
        }
    }

    /**
     * The user guide's settings table ({@code docs/configuration.md}): one row per setting of the registry, with its
     * name, environment variable, default, reading time and meaning.
     *
     * @return the Markdown table, lines ending in a newline
     */
    static String markdown() {
        final StringBuilder b = new StringBuilder(MARKDOWN_HEADER);
        for (final Setting s : Settings.all()) {
            b.append("| `").append(s.name()).append("` | ")
                .append(s.isProperty() ? "`" + s.envName() + "`" : "(set by the launcher)").append(" | ")
                .append(s.defaultValue().isEmpty() ? "" : "`" + s.defaultValue() + "`").append(" | ")
                .append(s.readAt().label()).append(" | ")
                .append(s.meaning()).append(" |\n");
        }
        return b.toString();
    }

    /**
     * Splits text into lines of at most {@code width} characters at spaces (a longer word gets a line of its own).
     *
     * @param text  the text
     * @param width the widest line
     * @return the lines
     */
    static List<String> wrap(final String text, final int width) {
        final List<String> lines = new ArrayList<>();
        final StringBuilder line = new StringBuilder();
        for (final String word : text.split(" ")) {
            if (!line.isEmpty() && line.length() + 1 + word.length() > width) {
                lines.add(line.toString());
                line.setLength(0);
            }
            line.append(line.isEmpty() ? "" : " ").append(word);
        }
        if (!line.isEmpty()) {
            lines.add(line.toString());
        }
        return lines;
    }

    private static void printValue(final PrintWriter out, final Value v) {
        out.println("  " + v.name() + " = " + (v.value().isEmpty() ? "(none)" : v.value()) + " (" + v.source()
            + ")");
    }

    private static Value valueOf(final Setting s) {
        final String text = s.text();
        // The job secret is never printed (tutti info may run as a rank of a job).
        final boolean hide = Settings.JOB_SECRET.equals(s) && !text.isEmpty();
        return new Value(s.name(), s.envName(), hide ? "(set, not shown)" : text, s.source().label());
    }

    /** A setting of {@link Settings#all()} by exact name, or null. */
    private static Setting findDeclared(final String name) {
        for (final Setting s : Settings.all()) {
            if (s.name().equals(name)) {
                return s;
            }
        }
        return null;
    }

    /**
     * The members of a family that are set, as system properties or environment variables, by property name: those
     * that {@link Settings#find} resolves to a member (not a declared setting with the same prefix).
     */
    private static Set<String> setNames(final String prefix) {
        final Set<String> names = new TreeSet<>();
        final String envPrefix = Setting.envNameOf(prefix);
        final List<String> candidates = new ArrayList<>(System.getProperties().stringPropertyNames());
        candidates.addAll(System.getenv().keySet());
        for (final String name : candidates) {
            final Setting s = name.startsWith(prefix) || name.startsWith(envPrefix) ? Settings.find(name) : null;
            if (null != s && null == findDeclared(s.name())) {
                names.add(s.name());
            }
        }
        return names;
    }
}
