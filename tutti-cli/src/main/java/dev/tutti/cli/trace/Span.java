package dev.tutti.cli.trace;

import java.util.Map;

/**
 * One of Tutti's events of one rank, on the job's clock (rank 0's wall clock, ns since the epoch).
 *
 * @param rank       the world rank whose recording holds it
 * @param thread     the Java thread id
 * @param threadName the thread's name
 * @param category   {@code p2p}, {@code collective}, {@code channel} or {@code wait}
 * @param name       what it did: the operation ({@code allreduce}, {@code send}), {@code wait send} for a wait
 * @param startNs    its start on the job's clock
 * @param durationNs how long it lasted
 * @param bytes      the bytes it moved, 0 for none
 * @param site       its call site, the first frame outside Tutti ({@code Class.method:line}), or empty
 * @param stacked    whether its call site was taken from a stack: its event's, or for a wait, the event's of the
 *                   call that returned its request ({@code false}: the call took no stack, and its site is empty)
 * @param args       its other fields, by name, for the trace
 * @param depth      how many of its thread's spans enclose it (0: a call of the program)
 */
public record Span(int rank, long thread, String threadName, String category, String name, long startNs,
    long durationNs, long bytes, String site, boolean stacked, Map<String, Object> args, int depth) {

    /** @return when it ended on the job's clock */
    public long endNs() {
        return startNs + durationNs;
    }

    /** @return this span with another call site, taken from a stack or not */
    Span withSite(final String s, final boolean fromStack) {
        return new Span(rank, thread, threadName, category, name, startNs, durationNs, bytes, s, fromStack, args,
            depth);
    }

    /** @return this span at another depth */
    Span atDepth(final int d) {
        return new Span(rank, thread, threadName, category, name, startNs, durationNs, bytes, site, stacked, args,
            d);
    }
}
