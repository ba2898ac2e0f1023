package dev.tutti.bench.osu;

import dev.tutti.Buf;
import dev.tutti.Communicator;

/**
 * {@code bcast}, as OSU's {@code osu_bcast}: rank 0 broadcasts {@code bytes} bytes. The root's buffer holds its
 * pattern, every other rank's the complement; after timing every rank must hold the root's pattern.
 */
public final class Bcast extends CollectiveBenchmark {
    /** The operation name. */
    public static final String OP = "bcast";

    private byte[] data;
    private Buf buf;

    @Override
    public String op() {
        return OP;
    }

    @Override
    public String title() {
        return "collective latency, root 0";
    }

    @Override
    public void allocate(final Communicator world, final int maxBytes) {
        data = new byte[maxBytes];
    }

    @Override
    public void prepare(final Communicator world, final int bytes) {
        if (ROOT == world.rank()) {
            Patterns.fill(data, bytes, ROOT);
        } else {
            Patterns.poison(data, bytes, ROOT);
        }
        buf = Buf.of(data, 0, bytes);
    }

    @Override
    protected void invoke(final Communicator world, final int bytes) {
        world.bcast(buf, ROOT);
    }

    @Override
    public void verify(final Communicator world, final int bytes) {
        Patterns.check(OP, world.rank(), data, bytes, ROOT);
    }
}
