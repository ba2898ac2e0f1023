package dev.tutti.bench.osu;

import org.HdrHistogram.Histogram;

import java.io.PrintWriter;

/**
 * Rank 0's output: the OSU table (title, {@code # Size   Latency (us)} header, one row per size, flushed as it
 * comes) and the CSV rows. With percentiles, the row also shows P50, P90, P99, P99.9 and the maximum of the
 * per-operation times of all ranks, in microseconds.
 */
final class Report implements AutoCloseable {
    private static final double[] PERCENTILES = {50.0, 90.0, 99.0, 99.9};
    private static final String[] PERCENTILE_HEADERS = {"P50 (us)", "P90 (us)", "P99 (us)", "P99.9 (us)",
        "Max (us)"};
    private static final int SIZE_WIDTH = 10;
    private static final int FIELD_WIDTH = 18;
    private static final int PERCENTILE_WIDTH = 13;

    private final PrintWriter out;
    private final CsvWriter csv;
    private final BenchSpec spec;
    private final OsuBenchmark bench;
    private final Progress progress;

    Report(final PrintWriter out, final CsvWriter csv, final BenchSpec spec, final OsuBenchmark bench,
        final Progress progress) {
        this.out = out;
        this.csv = csv;
        this.spec = spec;
        this.bench = bench;
        this.progress = progress;
    }

    /**
     * Opens the report of a run: the table goes to {@code out}, the CSV to the spec's file if any.
     *
     * @param out   the table's destination
     * @param spec  the run
     * @param bench the benchmark (for its name, title and metric)
     * @param progress the progress indicator, erased before each row
     * @return the report
     */
    static Report open(final PrintWriter out, final BenchSpec spec, final OsuBenchmark bench,
        final Progress progress) {
        return new Report(out, null == spec.csv() ? null : CsvWriter.create(spec.csv()), spec, bench, progress);
    }

    /**
     * Shows that a size is being measured (on a terminal).
     *
     * @param bytes the size
     * @param index its position, from 0
     * @param count the number of sizes
     */
    void measuring(final int bytes, final int index, final int count) {
        progress.size(bench.op(), bytes, index, count);
    }

    void begin() {
        out.printf("# Tutti %s (%s): impl=%s ranks=%d%s%n", bench.op(), bench.title(), spec.impl(), spec.ranks(),
            (null == spec.algorithm() ? "" : " algorithm=" + spec.algorithm())
                + (spec.backToBack() ? " back-to-back" : ""));
        out.printf("%-" + SIZE_WIDTH + "s%" + FIELD_WIDTH + "s", "# Size", bench.metric().header());
        if (spec.percentiles()) {
            for (final String h : PERCENTILE_HEADERS) {
                out.printf("%" + PERCENTILE_WIDTH + "s", h);
            }
        }
        out.println();
        out.flush();
    }

    /**
     * Writes a comment line about a size into the table, before its row (not into the CSV).
     *
     * @param bytes the size
     * @param text  the note
     */
    void note(final int bytes, final String text) {
        progress.clear();
        out.printf("# %d: %s%n", bytes, text);
        out.flush();
    }

    void row(final int bytes, final double avgUs, final Histogram histogram) {
        progress.clear();
        out.printf("%-" + SIZE_WIDTH + "d%" + FIELD_WIDTH + ".2f", bytes, bench.metric().value(bytes, avgUs));
        if (null != histogram) {
            for (final double p : PERCENTILES) {
                out.printf("%" + PERCENTILE_WIDTH + ".2f", histogram.getValueAtPercentile(p) / 1e3);
            }
            out.printf("%" + PERCENTILE_WIDTH + ".2f", histogram.getMaxValue() / 1e3);
        }
        out.println();
        out.flush();
        if (null != csv) {
            csv.row(spec.impl(), bench.op(), spec.ranks(), bytes, avgUs);
            csv.flush();
        }
    }

    @Override
    public void close() {
        progress.clear();
        out.flush();
        if (null != csv) {
            csv.close();
        }
    }
}
