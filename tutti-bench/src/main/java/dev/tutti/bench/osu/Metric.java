package dev.tutti.bench.osu;

/** What the table's value column shows; the CSV always holds the mean time per operation in microseconds. */
public enum Metric {
    /** The mean time per operation: {@code # Size   Latency (us)}. */
    LATENCY("Latency (us)"),
    /** Bytes per microsecond, i.e. MB/s with MB = 10^6 bytes as in OSU: {@code # Size   Bandwidth (MB/s)}. */
    BANDWIDTH("Bandwidth (MB/s)");

    private final String header;

    Metric(final String header) {
        this.header = header;
    }

    /** @return the column header of the OSU table */
    public String header() {
        return header;
    }

    /**
     * Converts a mean time per operation into the table's value.
     *
     * @param bytes the message size
     * @param avgUs the mean time per operation (per message, for bandwidth) in microseconds
     * @return the value to print
     */
    public double value(final int bytes, final double avgUs) {
        if (LATENCY == this) {
            return avgUs;
        }
        return avgUs > 0 ? bytes / avgUs : 0.0;
    }
}
