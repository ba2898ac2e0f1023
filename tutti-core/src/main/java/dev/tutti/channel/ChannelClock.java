package dev.tutti.channel;

import dev.tutti.channel.ChannelBuffer.State;

import java.util.concurrent.TimeUnit;

/**
 * The schedule of a time-driven channel ({@link ChannelQos.Kind#TIME_DRIVEN}): exchange <i>k</i> starts at its tick,
 * {@code origin + (k + 1) * period}, with the oldest submitted send buffer or, when none waits, the zero-filled idle
 * buffer; and the clock thread, which starts the exchanges that are due and tests those in flight every
 * {@link #pollNs()} while the application computes, so that they progress and their completion times (which decide
 * a miss) are seen.
 *
 * <p>Implementation notes. Everything here is guarded by the channel's lock ({@link ChannelCore}'s
 * {@link ChannelGuard}): the FIFO of submitted buffers, the origin and the thread. The FIFO holds at most
 * {@code depth} buffers, since a channel hands out at most {@code depth} send buffers; a queued buffer is
 * {@link State#QUEUED} until its exchange starts. The idle buffer is never written and may be in several exchanges at
 * once, so its state never changes. The clock thread's loop is {@link ChannelCore}'s (it starts exchanges and tests
 * requests, which are the core's); this class only says when, and with which buffer. Cost: nothing per exchange but
 * the FIFO step; one platform thread per time-driven channel, asleep between ticks and polls.
 */
final class ChannelClock {
    private final long periodNs;
    private final long pollNs;
    private final ChannelBuffer idle;
    private final ChannelBuffer[] queue;
    private int head;
    private int queued;
    private long origin;
    private Thread thread;

    /**
     * @param qos   the channel's QoS (time-driven: its period and deadline)
     * @param idle  the zero-filled send buffer of ticks that find nothing submitted
     * @param depth send buffers of the channel: the most that can wait for their ticks
     */
    ChannelClock(final ChannelQos qos, final ChannelBuffer idle, final int depth) {
        this.periodNs = qos.periodNanos();
        this.pollNs = Math.max(TimeUnit.MICROSECONDS.toNanos(100), Math.min(TimeUnit.MILLISECONDS.toNanos(1),
            qos.deadlineNanos() / 10));
        this.idle = idle;
        this.queue = new ChannelBuffer[depth];
        this.origin = System.nanoTime();
    }

    /** Sets the origin of the ticks to now; called once creation has synchronized the ranks. */
    void setOrigin() {
        origin = System.nanoTime();
    }

    /** @return the origin of the ticks ({@link System#nanoTime()}) */
    long origin() {
        return origin;
    }

    /** @return when exchange {@code k} starts: one period per exchange, the first at the origin + period */
    long tick(final long k) {
        return origin + (k + 1) * periodNs;
    }

    /** @return whether the tick of exchange {@code k} has come */
    boolean due(final long k) {
        return System.nanoTime() - tick(k) >= 0;
    }

    /** @return how often the clock thread tests the exchanges in flight, in nanoseconds */
    long pollNs() {
        return pollNs;
    }

    /** @return whether {@code b} is the idle buffer, which is in no buffer state of its own */
    boolean isIdle(final ChannelBuffer b) {
        return idle == b;
    }

    /** Queues a submitted send buffer for the next free tick (marks it QUEUED). */
    void submit(final ChannelBuffer b) {
        b.state(State.QUEUED);
        queue[ChannelCore.wrap(head + queued, queue.length)] = b;
        queued++;
    }

    /** @return the send buffer of the exchange about to start: the oldest queued one, or the idle buffer */
    ChannelBuffer nextSend() {
        if (0 == queued) {
            return idle;
        }
        final ChannelBuffer b = queue[head];
        queue[head] = null;
        head = ChannelCore.wrap(head + 1, queue.length);
        queued--;
        return b;
    }

    /** Starts the clock thread, a daemon named after the channel, running {@code loop}. */
    void startThread(final String name, final Runnable loop) {
        thread = Thread.ofPlatform().daemon().name("tutti-channel-clock-" + name).start(loop);
    }

    /** @return the clock thread, or null before it started */
    Thread thread() {
        return thread;
    }

    /** Waits briefly for the clock thread, which leaves at its next wake-up once it sees the channel closed. */
    static void join(final Thread ticker) {
        try {
            ticker.join(TimeUnit.SECONDS.toMillis(1));
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
