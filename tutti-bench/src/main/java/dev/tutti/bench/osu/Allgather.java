package dev.tutti.bench.osu;

import dev.tutti.Buf;
import dev.tutti.Communicator;

/**
 * {@code allgather} and {@code allgatherv}, as OSU's {@code osu_allgather(v)}: every rank contributes a block of
 * {@code bytes} bytes and receives all of them; the v variant passes equal counts and contiguous displacements.
 * Block {@code r} carries pattern {@code r}; after timing every rank checks every block.
 */
public final class Allgather extends CollectiveBenchmark {
    /** The operation name of MPI_Allgather. */
    public static final String OP = "allgather";
    /** The operation name of MPI_Allgatherv. */
    public static final String OP_V = "allgatherv";

    private final boolean vector;
    private byte[] send;
    private byte[] recv;
    private Buf sendBuf;
    private Buf recvBuf;
    private int[] counts;
    private int[] displs;

    /**
     * Creates the benchmark.
     *
     * @param vector true for allgatherv, false for allgather
     */
    Allgather(final boolean vector) {
        this.vector = vector;
    }

    @Override
    public String op() {
        return vector ? OP_V : OP;
    }

    @Override
    public String title() {
        return "collective latency, bytes per rank";
    }

    @Override
    public void allocate(final Communicator world, final int maxBytes) {
        final int p = world.size();
        send = new byte[maxBytes];
        recv = new byte[Math.multiplyExact(maxBytes, p)];
        counts = new int[p];
        displs = new int[p];
    }

    @Override
    public void prepare(final Communicator world, final int bytes) {
        final int p = world.size();
        Patterns.fill(send, bytes, world.rank());
        for (int r = 0; r < p; r++) {
            Patterns.poison(recv, r * bytes, bytes, r);
            counts[r] = bytes;
            displs[r] = r * bytes;
        }
        sendBuf = Buf.of(send, 0, bytes);
        recvBuf = Buf.of(recv, 0, p * bytes);
    }

    @Override
    protected void invoke(final Communicator world, final int bytes) {
        if (vector) {
            world.allgatherv(sendBuf, recvBuf, counts, displs);
        } else {
            world.allgather(sendBuf, recvBuf);
        }
    }

    @Override
    public void verify(final Communicator world, final int bytes) {
        for (int r = 0; r < world.size(); r++) {
            Patterns.check(op(), world.rank(), recv, r * bytes, bytes, r, "rank " + r);
        }
    }
}
