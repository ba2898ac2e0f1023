package dev.tutti.cli.trace;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A job's profile in the manner of mpiP, from its spans: per operation and per call site (the first frame outside
 * Tutti) the count, total and mean time and bytes over all ranks, and how unevenly the ranks spent that time
 * (the largest rank's total over the mean of all ranks: 1 is even); and per rank its share of wall time in
 * communication. Only the program's own calls count (spans of {@link Span#depth()} 0): the waits and sends inside a
 * blocking call are part of it, not calls of their own.
 *
 * <p>The rows per operation are exact: every call is an event. The rows per call site are exact when every call took
 * its stack ({@code tutti.jfr.stacks=on}); when only a sample did ({@code sampled}, one call in
 * {@link #stackSample()} of each thread on average), they are estimates: a site gets the share of the operation's
 * count that its share of the operation's sampled calls is, and likewise of its time (per rank) and bytes by its
 * share of the sampled calls' time and bytes, so that a site of long or large calls is not counted as one of short
 * ones. An operation none of whose calls took its stack has one site row, {@code -}, with all of it.
 *
 * <p>Implementation note. A rank's time in communication is the sum of its threads' calls (a thread's calls do not
 * overlap), without its channels' exchanges, which run while the program computes; its wall time is from its job
 * start to the end of its last span ({@link Recordings#wallNs()}). An estimated site's time is the sum of its
 * per-rank estimates, each the rank's time in the operation times the site's share of that rank's sampled time (of
 * all ranks' sampled time for a rank with no sample of the operation), so the sites of an operation add up to its
 * row but for rounding, per rank and in all.
 *
 * @param size        the number of ranks
 * @param stackSample calls per call with a stack ({@link Recordings#stackSample()}): above 1, the site rows are
 *                    estimates
 * @param ops         one row per operation, most time first
 * @param sites       one row per operation and call site, most time first
 * @param commNs      each rank's time in communication
 * @param wallNs      each rank's wall time
 */
public record Profile(int size, int stackSample, List<Row> ops, List<Row> sites, long[] commNs, long[] wallNs) {

    /**
     * One line of the profile.
     *
     * @param op      the operation
     * @param site    the call site, or {@code *} for every site
     * @param count   calls, all ranks
     * @param totalNs their time, all ranks
     * @param bytes   their bytes, all ranks
     * @param rankNs  their time per rank
     */
    public record Row(String op, String site, long count, long totalNs, long bytes, long[] rankNs) {
        /** @return the mean time of a call, ns */
        public double meanNs() {
            return 0 == count ? 0 : (double) totalNs / count;
        }

        /** @return the largest rank's time over the mean of all ranks' (1: even; 0 for no time) */
        public double imbalance() {
            long max = 0;
            for (final long t : rankNs) {
                max = Math.max(max, t);
            }
            final double mean = (double) totalNs / rankNs.length;
            return 0 == mean ? 0 : max / mean;
        }
    }

    /**
     * @param rec the job's spans
     * @return its profile
     */
    public static Profile of(final Recordings rec) {
        final int n = rec.size();
        final boolean sampled = rec.stackSample() > 1;
        final Map<String, long[]> ops = new LinkedHashMap<>();
        final Map<String, long[]> sites = new LinkedHashMap<>();
        final long[] comm = new long[n];
        for (final Span s : rec.spans()) {
            if (0 != s.depth()) {
                continue;
            }
            add(ops.computeIfAbsent(s.name(), k -> new long[3 + n]), s);
            if (!sampled || s.stacked()) {
                add(sites.computeIfAbsent(s.name() + "\u0000" + s.site(), k -> new long[3 + n]), s);
            }
            if (!"channel".equals(s.category())) {
                comm[s.rank()] += s.durationNs();
            }
        }
        return new Profile(n, rec.stackSample(), rows(ops), rows(sampled ? estimated(ops, sites) : sites), comm,
            rec.wallNs().clone());
    }

    /** @return whether the call-site rows are estimated from a sample of the calls */
    public boolean estimated() {
        return stackSample > 1;
    }

    private static void add(final long[] acc, final Span s) {
        acc[0]++;
        acc[1] += s.durationNs();
        acc[2] += s.bytes();
        acc[3 + s.rank()] += s.durationNs();
    }

    /**
     * @param ops     each operation's exact sums ({@link #add})
     * @param samples each operation and site's sums over its sampled calls
     * @return each operation and site's estimated sums: the operation's, in the site's share of the samples
     */
    private static Map<String, long[]> estimated(final Map<String, long[]> ops, final Map<String, long[]> samples) {
        final Map<String, long[]> ofOp = new LinkedHashMap<>();
        for (final Map.Entry<String, long[]> e : samples.entrySet()) {
            final long[] s = e.getValue();
            final long[] acc = ofOp.computeIfAbsent(op(e.getKey()), k -> new long[s.length]);
            for (int i = 0; i < s.length; i++) {
                acc[i] += s[i];
            }
        }
        final Map<String, long[]> out = new LinkedHashMap<>();
        for (final Map.Entry<String, long[]> e : ops.entrySet()) {
            if (!ofOp.containsKey(e.getKey())) {
                out.put(e.getKey() + "\u0000", e.getValue().clone()); // no call of it took its stack
            }
        }
        for (final Map.Entry<String, long[]> e : samples.entrySet()) {
            final long[] op = ops.get(op(e.getKey()));
            final long[] all = ofOp.get(op(e.getKey()));
            final long[] s = e.getValue();
            final long[] est = new long[s.length];
            est[0] = share(op[0], s[0], all[0]);
            est[2] = 0 == all[2] ? share(op[2], s[0], all[0]) : share(op[2], s[2], all[2]);
            for (int i = 3; i < s.length; i++) {
                est[i] = 0 == all[i] ? share(op[i], s[1], all[1]) : share(op[i], s[i], all[i]);
                est[1] += est[i];
            }
            out.put(e.getKey(), est);
        }
        return out;
    }

    /** @return the operation of a key {@code op\0site} */
    private static String op(final String key) {
        return key.substring(0, key.indexOf('\u0000'));
    }

    /** @return {@code whole * part / of}, rounded; 0 when {@code of} is 0 */
    private static long share(final long whole, final long part, final long of) {
        return 0 == of ? 0 : Math.round((double) whole * part / of);
    }

    private static List<Row> rows(final Map<String, long[]> acc) {
        final List<Row> rows = new ArrayList<>();
        for (final Map.Entry<String, long[]> e : acc.entrySet()) {
            final String[] key = e.getKey().split("\u0000", 2);
            final long[] a = e.getValue();
            final long[] perRank = new long[a.length - 3];
            System.arraycopy(a, 3, perRank, 0, perRank.length);
            rows.add(new Row(key[0], key.length > 1 ? key[1] : "*", a[0], a[1], a[2], perRank));
        }
        rows.sort(Comparator.comparingLong(Row::totalNs).reversed().thenComparing(Row::op));
        return rows;
    }

    /** @return the profile as a table for a terminal */
    public String table() {
        final StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "tutti profile: %d ranks%n%n", size));
        b.append(String.format(Locale.ROOT, "%-6s %12s %12s %8s%n", "rank", "wall ms", "comm ms", "comm %"));
        for (int r = 0; r < size; r++) {
            b.append(String.format(Locale.ROOT, "%-6d %12.3f %12.3f %8.1f%n", r, wallNs[r] / 1e6, commNs[r] / 1e6,
                0 == wallNs[r] ? 0.0 : 100.0 * commNs[r] / wallNs[r]));
        }
        b.append(String.format(Locale.ROOT, "%n%-22s %9s %12s %12s %14s %9s%n", "operation", "count", "total ms",
            "mean us", "bytes", "max/mean"));
        for (final Row r : ops) {
            b.append(String.format(Locale.ROOT, "%-22s %9d %12.3f %12.3f %14d %9.2f%n", r.op(), r.count(),
                r.totalNs() / 1e6, r.meanNs() / 1e3, r.bytes(), r.imbalance()));
        }
        if (estimated()) {
            b.append(String.format(Locale.ROOT, "%ncall sites estimated from 1 in %d calls (tutti.jfr.stacks=sampled; "
                + "=on for exact ones)%n", stackSample));
        }
        b.append(String.format(Locale.ROOT, "%n%-22s %-36s %9s %12s %12s %14s %9s%n", "operation",
            estimated() ? "call site (estimated)" : "call site", "count", "total ms", "mean us", "bytes",
            "max/mean"));
        for (final Row r : sites) {
            b.append(String.format(Locale.ROOT, "%-22s %-36s %9d %12.3f %12.3f %14d %9.2f%n", r.op(),
                r.site().isEmpty() ? "-" : r.site(), r.count(), r.totalNs() / 1e6, r.meanNs() / 1e3, r.bytes(),
                r.imbalance()));
        }
        return b.toString();
    }

    /**
     * @return the profile as CSV: a header, then one line per operation ({@code site} is {@code *}) and per
     *         operation and call site; times in ns; {@code estimated_from_1_in} is the calls per sampled call of an
     *         estimated site row ({@link #estimated()}), 0 for an exact row
     */
    public String csv() {
        final StringBuilder b = new StringBuilder(
            "operation,site,count,total_ns,mean_ns,bytes,max_over_mean,estimated_from_1_in\n");
        for (final List<Row> rows : List.of(ops, sites)) {
            final int from = rows == sites && estimated() ? stackSample : 0;
            for (final Row r : rows) {
                b.append(csvField(r.op())).append(',').append(csvField(r.site())).append(',').append(r.count())
                    .append(',').append(r.totalNs()).append(',')
                    .append(String.format(Locale.ROOT, "%.1f,%d,%.3f,%d", r.meanNs(), r.bytes(), r.imbalance(),
                        from))
                    .append('\n');
            }
        }
        return b.toString();
    }

    private static String csvField(final String s) {
        return s.contains(",") || s.contains("\"") ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
    }

    /**
     * @return the profile as one JSON object: {@code ranks}, {@code operations}, {@code sites} and
     *         {@code sites_estimated_from_1_in} (the calls per sampled call when the sites are estimates, 0 when
     *         they are exact); times in ns
     */
    public String json() {
        final StringBuilder b = new StringBuilder("{\"size\":").append(size).append(",\"ranks\":[");
        for (int r = 0; r < size; r++) {
            b.append(0 == r ? "" : ",").append("{\"rank\":").append(r).append(",\"wall_ns\":").append(wallNs[r])
                .append(",\"comm_ns\":").append(commNs[r]).append('}');
        }
        b.append("],\"operations\":");
        rowsJson(b, ops);
        b.append(",\"sites\":");
        rowsJson(b, sites);
        b.append(",\"sites_estimated_from_1_in\":").append(estimated() ? stackSample : 0);
        return b.append("}\n").toString();
    }

    private static void rowsJson(final StringBuilder b, final List<Row> rows) {
        b.append('[');
        for (int i = 0; i < rows.size(); i++) {
            final Row r = rows.get(i);
            b.append(0 == i ? "" : ",").append("{\"operation\":");
            Json.string(b, r.op()).append(",\"site\":");
            Json.string(b, r.site()).append(",\"count\":").append(r.count()).append(",\"total_ns\":")
                .append(r.totalNs()).append(",\"bytes\":").append(r.bytes())
                .append(String.format(Locale.ROOT, ",\"mean_ns\":%.1f,\"max_over_mean\":%.3f", r.meanNs(),
                    r.imbalance()))
                .append(",\"rank_ns\":[");
            for (int k = 0; k < r.rankNs().length; k++) {
                b.append(0 == k ? "" : ",").append(r.rankNs()[k]);
            }
            b.append("]}");
        }
        b.append(']');
    }
}
