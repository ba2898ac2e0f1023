package dev.tutti.coll.host;

/**
 * This rank's vote, at each blocking reduce or allreduce past the region's limit, between the region's chunk area
 * ({@link HostChunks}) and the message layer, from what each road has cost on this communicator. The call goes
 * through the chunks only if every rank votes for them ({@link HostRegion}): every rank reads every vote, so all
 * decide alike.
 *
 * <p>Why measure: on a host whose cores share no cache the chunks' writes into lines a peer has just read cost a
 * cross-core invalidation each, and the same host moves two virtual CPUs between such cores and cores that share a
 * cache for minutes at a time; the chunks then take 0.4-0.9 or 1.3-1.9 of the message layer's time at the same size
 * (bench/RESULTS.md, on-host section). Neither road wins everywhere, and a rank cannot see where its CPUs are.
 *
 * <p>How: calls are grouped by size, a power of two per group. Within a group, calls are numbered from 0 on every
 * rank alike (the size is the same on every rank of a correct call), and the number sets the probes: call 0 takes
 * the chunks (it agrees the chunk area), call 1 the message layer, and then every {@value #PROBE}th call one road,
 * the call half-way between the other, whatever the costs say, so that a road that has turned faster is seen within
 * {@value #PROBE} calls. Every other call votes for the road of the lower cost. A cost is nanoseconds per byte of the
 * call, smoothed ({@value #SMOOTHING} of each new figure), as this rank measured the road's whole run: the chunk
 * pipeline here, the message layer's run in the door ({@link #messagesTook}).
 *
 * <p>Implementation notes. Owned by the threads that make the communicator's collective calls, one at a time (MPI's
 * rule): plain fields. Cost per call: a shift, two array reads and a comparison; no allocation.
 */
final class ChunkChoice {
    /** Calls of a group between two probes of the same road (a power of 2). */
    static final int PROBE = 32;
    /** Weight of a new figure in a road's cost. */
    static final double SMOOTHING = 0.25;
    private static final int GROUPS = Long.SIZE;

    /** Per group: calls so far, and each road's cost (ns per byte; 0: not measured yet). */
    private final long[] calls = new long[GROUPS];
    private final double[] chunkCost = new double[GROUPS];
    private final double[] messageCost = new double[GROUPS];

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
        if (i < 2) {
            return 0 == i;
        }
        final long phase = i & (PROBE - 1);
        if (0 == phase) {
            return false;
        }
        if (PROBE / 2 == phase) {
            return true;
        }
        final double chunks = chunkCost[g];
        final double messages = messageCost[g];
        return 0 == messages || 0 != chunks && chunks <= messages;
    }

    /**
     * Records a run through the chunks.
     *
     * @param bytes the call's bytes per rank
     * @param nanos how long its pipeline took here
     */
    void chunksTook(final long bytes, final long nanos) {
        final int g = group(bytes);
        chunkCost[g] = smooth(chunkCost[g], (double) nanos / bytes);
    }

    /**
     * Records a run on the message layer that the ranks voted for.
     *
     * @param bytes the call's bytes per rank
     * @param nanos how long its run took here, from the vote to its completion
     */
    void messagesTook(final long bytes, final long nanos) {
        final int g = group(bytes);
        messageCost[g] = smooth(messageCost[g], (double) nanos / bytes);
    }

    private static double smooth(final double cost, final double now) {
        return 0 == cost ? now : cost + SMOOTHING * (now - cost);
    }

    @Override
    public String toString() {
        final StringBuilder b = new StringBuilder("ChunkChoice(");
        for (int g = 0; g < GROUPS; g++) {
            if (0 != calls[g]) {
                b.append(1L << g).append(" B: ").append(calls[g]).append(" calls, chunks ")
                    .append(String.format(java.util.Locale.ROOT, "%.3f", chunkCost[g])).append(" ns/B, messages ")
                    .append(String.format(java.util.Locale.ROOT, "%.3f", messageCost[g])).append(" ns/B; ");
            }
        }
        return b.append(')').toString();
    }
}
