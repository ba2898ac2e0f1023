package dev.tutti.channel;

import java.time.Duration;

/**
 * A snapshot of a channel's statistics on this rank ({@link AlltoallChannel#stats()}): exchanges completed, bytes
 * moved, the latency of an exchange (from its start on this rank, by submit or by the QoS clock, to when this rank
 * saw it complete) as percentiles of a log-bucket histogram (within 6.25 %), and, for a time-driven channel, the
 * exchanges that completed after their deadline. Latency is measured on every exchange of a time-driven channel, and
 * on every exchange of a best-effort one while they take 10 us or more; faster best-effort exchanges are sampled,
 * one in 64 timed (two clock readings would cost them a noticeable part of their time), so the percentiles and the
 * maximum then describe the sample.
 */
public final class ChannelStats {
    private final String name;
    private final long exchanges;
    private final long bytesSent;
    private final long bytesReceived;
    private final long deadlineMisses;
    private final long abandoned;
    private final LatencyHistogram latency;

    ChannelStats(final String name, final long exchanges, final long bytesSent, final long bytesReceived,
        final long deadlineMisses, final long abandoned, final LatencyHistogram latency) {
        this.name = name;
        this.exchanges = exchanges;
        this.bytesSent = bytesSent;
        this.bytesReceived = bytesReceived;
        this.deadlineMisses = deadlineMisses;
        this.abandoned = abandoned;
        this.latency = latency;
    }

    /** @return the channel's name */
    public String name() {
        return name;
    }

    /** @return exchanges completed on this rank */
    public long exchanges() {
        return exchanges;
    }

    /** @return bytes this rank sent in completed exchanges (to other ranks and itself) */
    public long bytesSent() {
        return bytesSent;
    }

    /** @return bytes this rank received in completed exchanges */
    public long bytesReceived() {
        return bytesReceived;
    }

    /** @return exchanges that completed after their deadline (always 0 for best effort) */
    public long deadlineMisses() {
        return deadlineMisses;
    }

    /** @return exchanges still in flight when the channel was closed and its drain time ran out */
    public long abandoned() {
        return abandoned;
    }

    /**
     * Returns a latency percentile.
     *
     * @param percentile in {@code [0, 100]}, e.g. 50, 99, 99.9
     * @return the latency, or {@link Duration#ZERO} before the first exchange
     */
    public Duration latency(final double percentile) {
        return Duration.ofNanos(latency.percentile(Math.min(100, Math.max(0, percentile))));
    }

    /** @return the mean latency */
    public Duration meanLatency() {
        return Duration.ofNanos((long) latency.mean());
    }

    /** @return the largest latency */
    public Duration maxLatency() {
        return Duration.ofNanos(latency.max());
    }

    @Override
    public String toString() {
        return "channel " + name + ": exchanges=" + exchanges + " sent=" + bytesSent + "B received=" + bytesReceived
            + "B latency p50=" + latency(50).toNanos() / 1000 + "us p99=" + latency(99).toNanos() / 1000 + "us max="
            + latency.max() / 1000 + "us deadlineMisses=" + deadlineMisses
            + (0 == abandoned ? "" : " abandoned=" + abandoned);
    }
}
