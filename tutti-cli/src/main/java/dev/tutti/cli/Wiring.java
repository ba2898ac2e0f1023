package dev.tutti.cli;

import dev.tutti.launcher.Placement;
import dev.tutti.internal.Setting;
import dev.tutti.internal.Settings;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * What {@code tutti run -v} prints before a job starts: its ranks and hosts, the transport each pair of ranks uses,
 * the eager limits, and the collective algorithms forced, as the ranks will see their settings.
 *
 * <p>Implementation note: a rank reads a setting from its system property, else its environment variable, else the
 * default ({@link Setting}). The launcher knows both sources of every rank: the {@code -J-D} options it passes, and
 * the environment it gives (the {@code -x} variables over the launcher's own environment), so it computes the values
 * here rather than asking the ranks. The transport of a pair follows {@code tutti.transport}: {@code auto} is shared
 * memory between ranks of one host and TCP between hosts, {@code shm} and {@code tcp} force one.
 */
final class Wiring {
    private final Placement placement;
    private final Function<String, String> lookup;

    /**
     * @param placement  the ranks' hosts
     * @param jvmOptions the ranks' JVM options (their {@code -Dname=value} set system properties)
     * @param env        the ranks' environment
     */
    Wiring(final Placement placement, final List<String> jvmOptions, final Map<String, String> env) {
        this.placement = placement;
        final Map<String, String> properties = new LinkedHashMap<>();
        for (final String o : jvmOptions) {
            final int eq = o.indexOf('=');
            if (o.startsWith("-D") && eq > 2) {
                properties.put(o.substring(2, eq), o.substring(eq + 1));
            }
        }
        this.lookup = name -> {
            final Setting s = Settings.find(name);
            if (properties.containsKey(s.name())) {
                return properties.get(s.name());
            }
            return env.getOrDefault(s.envName(), s.defaultValue());
        };
    }

    /**
     * The value a rank sees.
     *
     * @param s a setting (or family member)
     * @return its value, the default if neither its property nor its variable is set
     */
    String value(final Setting s) {
        return lookup.apply(s.name());
    }

    /**
     * The transport between two ranks.
     *
     * @param a a rank
     * @param b another rank
     * @return {@code shm} or {@code tcp}
     */
    String transport(final int a, final int b) {
        final String forced = value(Settings.TRANSPORT).strip().toLowerCase(Locale.ROOT);
        if (!"auto".equals(forced)) {
            return forced;
        }
        return placement.host(a).equals(placement.host(b)) ? "shm" : "tcp";
    }

    /**
     * The description, one line each.
     *
     * @return the lines
     */
    List<String> describe() {
        final int n = placement.size();
        final List<String> lines = new ArrayList<>();
        lines.add("tutti run: " + n + " rank" + (1 == n ? "" : "s") + ", transport " + value(Settings.TRANSPORT));
        final Map<String, List<Integer>> byHost = new LinkedHashMap<>();
        for (int r = 0; r < n; r++) {
            byHost.computeIfAbsent(placement.host(r), h -> new ArrayList<>()).add(r);
        }
        for (final Map.Entry<String, List<Integer>> e : byHost.entrySet()) {
            final int first = e.getValue().getFirst();
            lines.add("  host " + e.getKey() + (placement.isLocal(first) ? " (this machine)" : "") + ": ranks "
                + ranks(e.getValue()));
        }
        final Map<String, List<String>> pairs = new LinkedHashMap<>();
        for (int a = 0; a < n; a++) {
            for (int b = a + 1; b < n; b++) {
                pairs.computeIfAbsent(transport(a, b), t -> new ArrayList<>()).add(a + "-" + b);
            }
        }
        for (final Map.Entry<String, List<String>> e : pairs.entrySet()) {
            final List<String> p = e.getValue();
            lines.add("  " + e.getKey() + " between " + (p.size() <= 12 ? String.join(" ", p)
                : String.join(" ", p.subList(0, 12)) + " ... (" + p.size() + " pairs)"));
        }
        if (1 == n) {
            lines.add("  no pairs (a job of one rank)");
        }
        lines.add("  eager limits: tcp " + value(Settings.EAGER_LIMIT) + " B, shm " + value(Settings.SHM_EAGER_LIMIT)
            + " B (ring " + value(Settings.SHM_RING_BYTES) + " B, chunk " + value(Settings.SHM_CHUNK_BYTES)
            + " B, push limit " + value(Settings.SHM_PUSH_LIMIT) + " B)");
        final List<String> forced = new ArrayList<>();
        for (final String op : Settings.COLL_OPERATIONS) {
            final Setting member = Settings.find(Settings.COLL_ALGORITHM.prefix() + op);
            final String algorithm = value(member);
            if (!algorithm.isEmpty() && !Settings.COLL_ALGORITHM.defaultValue().equals(algorithm)) {
                forced.add(op + "=" + algorithm);
            }
        }
        lines.add("  algorithms forced: " + (forced.isEmpty() ? "none (chosen by group and message size)"
            : String.join(", ", forced)));
        return lines;
    }

    /** Ranks as ranges: {@code 0-3 6 8-9}. */
    private static String ranks(final List<Integer> ranks) {
        final StringBuilder sb = new StringBuilder();
        int i = 0;
        while (i < ranks.size()) {
            int j = i;
            while (j + 1 < ranks.size() && ranks.get(j + 1) == ranks.get(j) + 1) {
                j++;
            }
            sb.append(sb.isEmpty() ? "" : " ").append(ranks.get(i)).append(i == j ? "" : "-" + ranks.get(j));
            i = j + 1;
        }
        return sb.toString();
    }
}
