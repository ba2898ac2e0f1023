package dev.tutti.runtime.identity;

import dev.tutti.ErrorClass;
import dev.tutti.TuttiException;
import dev.tutti.internal.Errors;

import java.util.Map;

/** Reading a launcher's variables, and the one message for an environment that does not add up. */
final class Vars {
    private Vars() {
    }

    /** @return {@code NAME=value} (or {@code NAME unset}) for each name, joined by {@code ", "} */
    static String show(final Map<String, String> env, final String... names) {
        final StringBuilder b = new StringBuilder();
        for (final String n : names) {
            if (!b.isEmpty()) {
                b.append(", ");
            }
            final String v = env.get(n);
            b.append(n).append(null == v ? " unset" : "=" + v);
        }
        return b.toString();
    }

    /** @return whether any of the names is set */
    static boolean any(final Map<String, String> env, final String... names) {
        for (final String n : names) {
            if (null != env.get(n)) {
                return true;
            }
        }
        return false;
    }

    /** @return the first of the names that is set and not blank, its value trimmed, or null */
    static String first(final Map<String, String> env, final String... names) {
        for (final String n : names) {
            final String v = env.get(n);
            if (null != v && !v.isBlank()) {
                return v.trim();
            }
        }
        return null;
    }

    /**
     * Reads a rank and a size and checks {@code 0 <= rank < size}.
     *
     * @return {rank, size}
     * @throws TuttiException naming both variables and their values if either is unset, not an integer or out of
     *                        range
     */
    static int[] rankAndSize(final String source, final Map<String, String> env, final String rankName,
        final String sizeName) {
        final String shown = show(env, rankName, sizeName);
        final String r = env.get(rankName);
        final String n = env.get(sizeName);
        if (null == r || null == n) {
            throw inconsistent(source, shown, "both set");
        }
        final int rank;
        final int size;
        try {
            rank = Integer.parseInt(r.trim());
            size = Integer.parseInt(n.trim());
        } catch (final NumberFormatException e) {
            throw inconsistent(source, shown, "integers");
        }
        if (size < 1 || rank < 0 || rank >= size) {
            throw inconsistent(source, shown, "0 <= rank < size");
        }
        return new int[] {rank, size};
    }

    /** @return the integer value of an optional variable, or -1 if unset; a set one must be a non-negative int */
    static int optional(final String source, final Map<String, String> env, final String name) {
        final String v = env.get(name);
        if (null == v || v.isBlank()) {
            return -1;
        }
        try {
            final int i = Integer.parseInt(v.trim());
            if (i >= 0) {
                return i;
            }
        } catch (final NumberFormatException e) {
            // refused below
        }
        throw inconsistent(source, show(env, name), "a non-negative integer");
    }

    /**
     * The launch environment does not add up: {@code init (launch environment from source): what, expected ...}.
     *
     * @param source  the launcher
     * @param what    the variables and their values
     * @param allowed what would be consistent
     * @return the exception, of class {@link ErrorClass#ARG}
     */
    static TuttiException inconsistent(final String source, final String what, final String allowed) {
        return Errors.expected(ErrorClass.ARG, "init", "launch environment from " + source, what, allowed);
    }
}
