package dev.tutti.coll.host;

/**
 * This rank's vote, at each blocking call of one operation past the region's limit, between the region's chunk area
 * ({@link HostChunks}) and the message layer, from what each road has cost on this communicator
 * ({@link HostChunkRoad} keeps one per operation). The call goes
 * through the chunks only if every rank votes for them ({@link HostRegion}): every rank reads every vote, so all
 * decide alike.
 *
 * <p>Why measure: the chunks write into lines a peer has just read, and on this project's host such writes run at
 * one of two speeds, 4-11 times apart, for minutes at a time; the chunks then take 0.4-0.9 or 1.3-1.9 of the
 * message layer's time at the same size (bench/RESULTS.md, on-host section). Neither road wins everywhere, and a
 * rank cannot tell in advance which speed it will get.
 *
 * <p>How: calls are grouped by size, a power of two per group. Within a group, calls are numbered from 0 on every
 * rank alike (the size is the same on every rank of a correct call), and the number sets the probes: calls 0 and 2
 * take the chunks (call 0 agrees the chunk area), calls 1 and 3 the message layer, and then every {@value #PROBE}th
 * call one road, the call half-way between the other, whatever the costs say, so that a road that has turned faster
 * is seen within {@value #PROBE} calls. Every other call votes for the road of the lower cost. A road's cost is the
 * lower of its last two figures, in nanoseconds per byte of the call, as this rank measured the road's whole run
 * (the chunk pipeline here, the message layer's run in the door, {@link #messagesTook}); a road's first run at a
 * size is not counted (it builds schedules and touches its memory for the first time). The lower of two: a figure
 * is only ever too high (a rank that lost its core, a collection), and one such figure must not turn the road for
 * {@value #PROBE} calls; a road that turned slow shows it from its second run on. With first runs counted and a
 * smoothed cost instead, 2-rank allreduces of 1-2 MiB took 1.8-2.0 times the message layer's time.
 *
 * <p>Implementation notes. Owned by the threads that make the communicator's collective calls, one at a time (MPI's
 * rule): plain fields. Cost per call: a shift, four array reads and two comparisons; no allocation.
 */
final class ChunkChoice {
    /** Calls of a group between two probes of the same road (a power of 2). */
    static final int PROBE = 32;
    private static final int GROUPS = Long.SIZE;

    /** Per group: calls so far. */
    private final long[] calls = new long[GROUPS];
    /** Per group, each road's last two figures (ns per byte, newest first; 0: none yet) and how many it has had. */
    private final double[] chunks = new double[2 * GROUPS];
    private final double[] messages = new double[2 * GROUPS];
    private final int[] chunkRuns = new int[GROUPS];
    private final int[] messageRuns = new int[GROUPS];

    /** @return the group of a call of {@code bytes} bytes (above 0) */
    static int group(final long bytes) {
        return Long.SIZE - 1 - Long.numberOfLeadingZeros(bytes);
    }

    /**
     * Numbers the next call of a group and returns this rank's vote for it.
     *
     * @param bytes the call's bytes per rank
     * @return true to vote for the chunks
     */
    boolean vote(final long bytes) {
        final int g = group(bytes);
        final long i = calls[g]++;
        if (i < 4) {
            return 0 == (i & 1);
        }
        final long phase = i & (PROBE - 1);
        if (0 == phase) {
            return false;
        }
        if (PROBE / 2 == phase) {
            return true;
        }
        final double c = cost(chunks, g);
        final double m = cost(messages, g);
        return 0 == m || 0 != c && c <= m;
    }

    /**
     * Records a run through the chunks.
     *
     * @param bytes the call's bytes per rank
     * @param nanos how long its pipeline took here
     */
    void chunksTook(final long bytes, final long nanos) {
        final int g = group(bytes);
        if (0 != chunkRuns[g]++) {
            record(chunks, g, (double) nanos / bytes);
        }
    }

    /**
     * Records a run on the message layer that the ranks voted for.
     *
     * @param bytes the call's bytes per rank
     * @param nanos how long its run took here, from the vote to its completion
     */
    void messagesTook(final long bytes, final long nanos) {
        final int g = group(bytes);
        if (0 != messageRuns[g]++) {
            record(messages, g, (double) nanos / bytes);
        }
    }

    private static void record(final double[] figures, final int g, final double now) {
        figures[2 * g + 1] = figures[2 * g];
        figures[2 * g] = now;
    }

    /** @return the lower of a road's last two figures in a group, or 0 if it has none */
    private static double cost(final double[] figures, final int g) {
        final double last = figures[2 * g];
        final double before = figures[2 * g + 1];
        return 0 == before ? last : Math.min(last, before);
    }

    @Override
    public String toString() {
        final StringBuilder b = new StringBuilder("ChunkChoice(");
        for (int g = 0; g < GROUPS; g++) {
            if (0 != calls[g]) {
                b.append(1L << g).append(" B: ").append(calls[g]).append(" calls, chunks ")
                    .append(String.format(java.util.Locale.ROOT, "%.3f", cost(chunks, g))).append(" ns/B, messages ")
                    .append(String.format(java.util.Locale.ROOT, "%.3f", cost(messages, g))).append(" ns/B; ");
            }
        }
        return b.append(')').toString();
    }
}
