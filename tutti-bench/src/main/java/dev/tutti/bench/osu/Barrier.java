package dev.tutti.bench.osu;

import dev.tutti.Communicator;

/**
 * {@code barrier}, as OSU's {@code osu_barrier}: barrier after barrier, each timed on its own and not separated
 * by another barrier; one row, size 0. There is no data to check.
 */
public final class Barrier extends CollectiveBenchmark {
    /** The operation name. */
    public static final String OP = "barrier";
    private static final int[] ONLY_SIZE = {0};

    @Override
    public String op() {
        return OP;
    }

    @Override
    public int[] sizes(final int[] requested, final int ranks) {
        return ONLY_SIZE.clone();
    }

    @Override
    public void allocate(final Communicator world, final int maxBytes) {
        // A barrier moves no data.
    }

    @Override
    public void prepare(final Communicator world, final int bytes) {
        // A barrier moves no data.
    }

    @Override
    protected void invoke(final Communicator world, final int bytes) {
        world.barrier();
    }

    @Override
    protected void separate(final Communicator world) {
        // Barriers follow each other directly, as in osu_barrier and coll.c.
    }

    @Override
    public void verify(final Communicator world, final int bytes) {
        // Nothing was received.
    }
}
