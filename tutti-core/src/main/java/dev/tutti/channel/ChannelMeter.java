package dev.tutti.channel;

/**
 * What a channel counts on one rank: the exchanges it completed, their latency, the deadline misses of a time-driven
 * channel and the exchanges abandoned at close; and which exchanges it times.
 *
 * <p>Implementation notes. Guarded as the rest of the channel's state is ({@link ChannelGuard}: the channel's lock,
 * or its owner thread when confined). A time-driven channel times every exchange, from its tick (its deadline is
 * counted from there); a best-effort one every exchange while they take {@link #TIME_ALL_FROM_NS} or more, else one
 * in {@link #TIME_EVERY}: on a virtual machine's clock two readings cost more than a short exchange's
 * bookkeeping. Cost per exchange: a counter, and for a timed one a clock reading and a histogram update.
 */
final class ChannelMeter {
    /** Best effort: exchanges shorter than this (10 us) are timed one in {@link #TIME_EVERY}. */
    private static final long TIME_ALL_FROM_NS = 10_000L;
    /**
     * Best effort: one fast exchange in this many (a power of two) is timed. One in 16 made a small exchange on one
     * rank measurably slower than timing none, more than its clock readings account for; hence one in 64.
     */
    private static final long TIME_EVERY = 64;

    private final boolean timeDriven;
    private final long deadlineNs;
    private final LatencyHistogram latency = new LatencyHistogram();
    private long exchanges;
    private long misses;
    private long abandoned;
    /** Best effort: whether the last timed exchange took less than {@link #TIME_ALL_FROM_NS}. */
    private boolean fast;

    /** @param qos the channel's quality of service: time-driven ones have a deadline and time every exchange */
    ChannelMeter(final ChannelQos qos) {
        this.timeDriven = ChannelQos.Kind.TIME_DRIVEN == qos.kind();
        this.deadlineNs = qos.deadlineNanos();
    }

    /** @return whether exchange {@code number} is timed (its start read from the clock, for {@link #completed}) */
    boolean timed(final long number) {
        return timeDriven || !fast || 0 == (number & (TIME_EVERY - 1));
    }

    /**
     * Counts a completed exchange.
     *
     * @param timed     what {@link #timed} said of it
     * @param startNs   when it started on this rank (if timed)
     * @param releaseNs when its period began (its tick; time-driven channels)
     */
    void completed(final boolean timed, final long startNs, final long releaseNs) {
        exchanges++;
        if (timed) {
            final long now = System.nanoTime();
            latency.record(now - startNs);
            fast = !timeDriven && now - startNs < TIME_ALL_FROM_NS;
            if (timeDriven && now - (releaseNs + deadlineNs) > 0) {
                misses++;
            }
        }
    }

    /** Records how many exchanges the channel's close abandoned in flight. */
    void abandoned(final long count) {
        abandoned = count;
    }

    /** @return a snapshot, bytes counted from the exchanges and the bytes one sends and receives */
    ChannelStats snapshot(final String name, final long sendBytes, final long recvBytes) {
        return new ChannelStats(name, exchanges, exchanges * sendBytes, exchanges * recvBytes, misses, abandoned,
            latency.copy());
    }
}
