package dev.tutti.channel;

import dev.tutti.ErrorClass;
import dev.tutti.internal.Errors;

import java.time.Duration;

/**
 * When a channel's exchanges run (MPI/RT's quality-of-service classes).
 *
 * <ul>
 *   <li>{@link #bestEffort()}: exchange <i>k</i> runs as soon as every rank has submitted its <i>k</i>-th buffer.
 *   <li>{@link #timeDriven(Duration, Duration)}: exchange <i>k</i> is started by the channel's clock at its tick,
 *       {@code t0 + (k + 1) * period} ({@code t0}: the end of creation, so every period gives the ranks time to
 *       submit), with whatever each rank submitted by then: the oldest submitted buffer not yet sent, or, from a
 *       rank that submitted none, a zero-filled block that the receivers see as not fresh
 *       ({@link ChannelBuffer#fresh(int)}). A buffer submitted after the tick goes out at a later one. An
 *       exchange that completes later than {@code deadline} after its tick is counted as a deadline miss in
 *       {@link ChannelStats}. A tick that finds every receive buffer full or held waits for a release (nothing is
 *       overwritten), and the late exchange usually misses. A clock thread per channel starts the exchanges and
 *       progresses those in flight while the application computes. Close the channel on every rank at about the
 *       same time: an exchange that the clock of a rank started after another rank closed is abandoned when the
 *       drain time runs out.
 *   <li>{@link #priority(int)}: exchanges run as best effort, and while several collectives are pending on a rank,
 *       this channel's are progressed first: of the exchanges and collectives whose next round is ready, those of
 *       a higher-priority channel post their messages first ({@link dev.tutti.PersistentRequest#setPriority}),
 *       whichever wait drives the progress. Lower-priority work is ordered after it, never held back until it
 *       completes (a peer may need that work before it joins this channel's exchange). Best effort and time-driven
 *       channels, and other collectives, have priority 0. The level orders this rank's own work; ranks may pass
 *       different levels.
 * </ul>
 *
 * <p>Every rank of a channel must pass the same class, period and deadline (creation refuses ranks that disagree);
 * the priority level may differ from rank to rank, and so may {@link #confined()}, which says which threads of
 * this rank may use the channel.
 */
public final class ChannelQos {
    /** The QoS class. */
    public enum Kind {
        /** Run each exchange once every rank has submitted. */
        BEST_EFFORT,
        /** Start exchanges on a periodic clock and count deadline misses. */
        TIME_DRIVEN,
        /** Best effort, progressed before lower-priority work of the rank. */
        PRIORITY
    }

    /** The highest priority level. */
    public static final int MAX_PRIORITY = 1 << 20;

    private static final ChannelQos BEST_EFFORT = new ChannelQos(Kind.BEST_EFFORT, 0, 0, 0, false);

    private final Kind kind;
    private final long periodNs;
    private final long deadlineNs;
    private final int level;
    private final boolean confined;

    private ChannelQos(final Kind kind, final long periodNs, final long deadlineNs, final int level,
        final boolean confined) {
        this.kind = kind;
        this.periodNs = periodNs;
        this.deadlineNs = deadlineNs;
        this.level = level;
        this.confined = confined;
    }

    /** @return the best-effort QoS */
    public static ChannelQos bestEffort() {
        return BEST_EFFORT;
    }

    /**
     * The time-driven QoS.
     *
     * @param period   time between ticks (exchange starts), {@code > 0}
     * @param deadline how long after its tick an exchange may take to complete, {@code 0 < deadline <= period}
     * @return the QoS
     * @throws dev.tutti.TuttiException of class {@link ErrorClass#ARG} if period or deadline is null or out of range
     */
    public static ChannelQos timeDriven(final Duration period, final Duration deadline) {
        final String op = "ChannelQos.timeDriven";
        if (null == period || period.isNegative() || period.isZero()) {
            throw Errors.argument(ErrorClass.ARG, op, null, "period", period, "a duration > 0");
        }
        if (null == deadline || deadline.isNegative() || deadline.isZero() || deadline.compareTo(period) > 0) {
            throw Errors.argument(ErrorClass.ARG, op, null, "deadline", deadline, "0 < deadline <= period=" + period);
        }
        return new ChannelQos(Kind.TIME_DRIVEN, period.toNanos(), deadline.toNanos(), 0, false);
    }

    /**
     * The priority QoS: best effort, progressed before the rank's lower-priority collectives and channels.
     *
     * @param level the priority, {@code 1..}{@link #MAX_PRIORITY}; higher goes first (everything else has 0)
     * @return the QoS
     * @throws dev.tutti.TuttiException of class {@link ErrorClass#ARG} if the level is out of range
     */
    public static ChannelQos priority(final int level) {
        if (level < 1 || level > MAX_PRIORITY) {
            throw Errors.argument(ErrorClass.ARG, "ChannelQos.priority", null, "level", level, "1.." + MAX_PRIORITY);
        }
        return new ChannelQos(Kind.PRIORITY, 0, 0, level, false);
    }

    /**
     * This QoS for a channel that only the thread that creates it uses, as a confined {@link java.lang.foreign.Arena}
     * is that thread's: its operations then take no lock and make no atomic update, which is a measurable part of an
     * exchange of small blocks.
     *
     * <p>Its takes, submits, releases, {@code stats()} and {@code close()} from any other thread throw, naming the
     * channel and both threads; its description, {@link AlltoallChannel#isClosed()} and its buffers' contents stay
     * readable from any thread (but an array accessor of a send buffer in the shared arena, which moves the buffer,
     * is the owner's). A wait that no exchange of this rank could end (a take with nothing submitted, a submit while
     * every receive buffer is held) throws at once instead of waiting for a thread that cannot come. Ranks may
     * differ in this.
     *
     * @return the same QoS, confined
     * @throws dev.tutti.TuttiException of class {@link ErrorClass#ARG} for a time-driven QoS, whose exchanges the
     *                                  channel's clock thread starts
     */
    public ChannelQos confined() {
        if (Kind.TIME_DRIVEN == kind) {
            throw Errors.expected(ErrorClass.ARG, "ChannelQos.confined", null, "qos=" + this,
                "best effort or priority: a time-driven channel's own clock thread starts its exchanges");
        }
        return new ChannelQos(kind, periodNs, deadlineNs, level, true);
    }

    /** @return whether only the creating thread may use the channel ({@link #confined()}) */
    public boolean isConfined() {
        return confined;
    }

    /** @return the class */
    public Kind kind() {
        return kind;
    }

    /** @return the period in nanoseconds, 0 for best effort */
    public long periodNanos() {
        return periodNs;
    }

    /** @return the deadline in nanoseconds, 0 for best effort */
    public long deadlineNanos() {
        return deadlineNs;
    }

    /** @return the priority level, 0 unless {@link Kind#PRIORITY} */
    public int level() {
        return level;
    }

    @Override
    public boolean equals(final Object o) {
        return o instanceof ChannelQos q && q.kind == kind && q.periodNs == periodNs && q.deadlineNs == deadlineNs
            && q.level == level && q.confined == confined;
    }

    @Override
    public int hashCode() {
        return ((kind.hashCode() * 31 + Long.hashCode(periodNs * 31 + deadlineNs)) * 31 + level) * 2
            + (confined ? 1 : 0);
    }

    @Override
    public String toString() {
        final String s = switch (kind) {
            case BEST_EFFORT -> "BEST_EFFORT";
            case PRIORITY -> "PRIORITY(" + level + ")";
            case TIME_DRIVEN -> "TIME_DRIVEN(period=" + Duration.ofNanos(periodNs) + ", deadline="
                + Duration.ofNanos(deadlineNs) + ")";
        };
        return confined ? s + ", confined" : s;
    }
}
