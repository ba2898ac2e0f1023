package dev.tutti.runtime.identity;

import dev.tutti.internal.Errors;

import java.util.ArrayList;
import java.util.List;

/**
 * Slurm's compressed host lists, as in {@code SLURM_STEP_NODELIST}: names separated by commas, where a name may
 * hold bracketed ranges and single numbers, {@code node[01-04,07]}, {@code a[1-2],b3}, {@code rack[1-2]-n[1-2]}
 * (several groups expand as a product, left to right). A range keeps the zero padding of its lower bound
 * ({@code [08-10]} is {@code 08 09 10}). The order of the list is kept; names are not deduplicated.
 *
 * <p>Implementation note: one pass splits the list at the commas outside brackets; each name then expands
 * recursively, one bracket group at a time.
 */
public final class HostList {
    /** Refuses lists that would expand into more names than any cluster has. */
    static final int MAX_HOSTS = 1 << 20;

    private HostList() {
    }

    /**
     * Expands a compressed host list.
     *
     * @param what the variable it comes from, for messages
     * @param list the list, e.g. {@code node[01-04,07]}
     * @return the host names in order, at least one
     * @throws IllegalArgumentException naming {@code what} and the value if the list is empty or malformed
     */
    public static List<String> expand(final String what, final String list) {
        if (null == list || list.isBlank()) {
            throw Errors.refused(what + "=" + list, "a host list such as node[01-04,07]");
        }
        final List<String> out = new ArrayList<>();
        int depth = 0;
        int start = 0;
        final String s = list.trim();
        for (int i = 0; i <= s.length(); i++) {
            final char c = i < s.length() ? s.charAt(i) : ',';
            if ('[' == c) {
                depth++;
                if (depth > 1) {
                    throw bad(what, list, "a nested '['");
                }
            } else if (']' == c) {
                depth--;
                if (depth < 0) {
                    throw bad(what, list, "']' without '['");
                }
            } else if (',' == c && 0 == depth) {
                final String name = s.substring(start, i).trim();
                if (name.isEmpty()) {
                    throw bad(what, list, "an empty name between commas");
                }
                expandName(what, list, "", name, out);
                start = i + 1;
            }
        }
        if (0 != depth) {
            throw bad(what, list, "'[' without ']'");
        }
        return List.copyOf(out);
    }

    /** Appends {@code prefix + name} expanded (name may hold further bracket groups). */
    private static void expandName(final String what, final String list, final String prefix, final String name,
        final List<String> out) {
        final int open = name.indexOf('[');
        if (open < 0) {
            if (out.size() >= MAX_HOSTS) {
                throw bad(what, list, "more than " + MAX_HOSTS + " hosts");
            }
            out.add(prefix + name);
            return;
        }
        final int close = name.indexOf(']', open);
        final String head = prefix + name.substring(0, open);
        final String rest = name.substring(close + 1);
        final String body = name.substring(open + 1, close);
        if (body.isEmpty()) {
            throw bad(what, list, "empty brackets");
        }
        for (final String part : body.split(",", -1)) {
            final String p = part.trim();
            final int dash = p.indexOf('-');
            final String lo = dash < 0 ? p : p.substring(0, dash);
            final String hi = dash < 0 ? p : p.substring(dash + 1);
            if (!digits(lo) || !digits(hi)) {
                throw bad(what, list, "range '" + p + "' is not N or N-M in decimal digits");
            }
            final long from = Long.parseLong(lo);
            final long to = Long.parseLong(hi);
            if (to < from) {
                throw bad(what, list, "range '" + p + "' runs backwards");
            }
            if (to - from >= MAX_HOSTS) {
                throw bad(what, list, "more than " + MAX_HOSTS + " hosts");
            }
            final int width = lo.length();
            for (long v = from; v <= to; v++) {
                final String n = Long.toString(v);
                expandName(what, list, head + "0".repeat(Math.max(0, width - n.length())) + n, rest, out);
            }
        }
    }

    private static boolean digits(final String s) {
        if (s.isEmpty() || s.length() > 18) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    private static IllegalArgumentException bad(final String what, final String list, final String why) {
        return Errors.refused(what + "=" + list + ": " + why, "a host list such as node[01-04,07] or a[1-2],b3");
    }
}
