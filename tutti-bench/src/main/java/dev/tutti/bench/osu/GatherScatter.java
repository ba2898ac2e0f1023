package dev.tutti.bench.osu;

import dev.tutti.Buf;
import dev.tutti.Communicator;

/**
 * {@code gather}, {@code gatherv}, {@code scatter} and {@code scatterv}, as OSU's {@code osu_gather(v)} and
 * {@code osu_scatter(v)}: root 0 and blocks of {@code bytes} bytes, one per rank; the v variants pass equal counts
 * and contiguous displacements (as OSU does), so they measure the cost of the general interface on the same data.
 *
 * <p>Data: block {@code r} (what rank {@code r} sends in a gather, what it receives in a scatter) carries
 * pattern {@code r}; receive buffers start as its complement. After timing the root checks every block of a
 * gather, and every rank checks its block of a scatter. Non-root ranks pass no buffer for the root-only side, as
 * MPI allows, so they are also checked with buffers of exactly the minimum size.
 */
public final class GatherScatter extends CollectiveBenchmark {
    /** The four operations. */
    enum Kind {
        /** MPI_Gather. */
        GATHER("gather", true),
        /** MPI_Gatherv. */
        GATHERV("gatherv", true),
        /** MPI_Scatter. */
        SCATTER("scatter", false),
        /** MPI_Scatterv. */
        SCATTERV("scatterv", false);

        private final String op;
        private final boolean gather;

        Kind(final String op, final boolean gather) {
            this.op = op;
            this.gather = gather;
        }

        /** @return the operation name */
        String op() {
            return op;
        }
    }

    private final Kind kind;
    /** Gather: this rank's block; scatter: the root's p blocks (null elsewhere). */
    private byte[] send;
    /** Gather: the root's p blocks (null elsewhere); scatter: this rank's block. */
    private byte[] recv;
    private Buf sendBuf;
    private Buf recvBuf;
    private int[] counts;
    private int[] displs;

    /**
     * Creates the benchmark of one of the operations.
     *
     * @param kind the operation
     */
    GatherScatter(final Kind kind) {
        this.kind = kind;
    }

    @Override
    public String op() {
        return kind.op;
    }

    @Override
    public String title() {
        return "collective latency, root 0, bytes per rank";
    }

    @Override
    public void allocate(final Communicator world, final int maxBytes) {
        final int p = world.size();
        final boolean root = ROOT == world.rank();
        final byte[] block = new byte[maxBytes];
        final byte[] blocks = root ? new byte[Math.multiplyExact(maxBytes, p)] : null;
        send = kind.gather ? block : blocks;
        recv = kind.gather ? blocks : block;
        counts = new int[p];
        displs = new int[p];
    }

    @Override
    public void prepare(final Communicator world, final int bytes) {
        final int p = world.size();
        final int rank = world.rank();
        for (int r = 0; r < p; r++) {
            counts[r] = bytes;
            displs[r] = r * bytes;
        }
        if (kind.gather) {
            Patterns.fill(send, bytes, rank);
            sendBuf = Buf.of(send, 0, bytes);
            recvBuf = null;
            if (null != recv) {
                for (int r = 0; r < p; r++) {
                    Patterns.poison(recv, r * bytes, bytes, r);
                }
                recvBuf = Buf.of(recv, 0, p * bytes);
            }
        } else {
            sendBuf = null;
            if (null != send) {
                for (int r = 0; r < p; r++) {
                    Patterns.fill(send, r * bytes, bytes, r);
                }
                sendBuf = Buf.of(send, 0, p * bytes);
            }
            Patterns.poison(recv, bytes, rank);
            recvBuf = Buf.of(recv, 0, bytes);
        }
    }

    @Override
    protected void invoke(final Communicator world, final int bytes) {
        switch (kind) {
            case GATHER -> world.gather(sendBuf, recvBuf, ROOT);
            case GATHERV -> world.gatherv(sendBuf, recvBuf, counts, displs, ROOT);
            case SCATTER -> world.scatter(sendBuf, recvBuf, ROOT);
            case SCATTERV -> world.scatterv(sendBuf, counts, displs, recvBuf, ROOT);
            default -> throw new IllegalStateException("unreachable: " + kind);
        }
    }

    @Override
    public void verify(final Communicator world, final int bytes) {
        final int rank = world.rank();
        if (!kind.gather) {
            Patterns.check(kind.op, rank, recv, 0, bytes, rank, "block " + rank + " of rank " + ROOT);
        } else if (ROOT == rank) {
            for (int r = 0; r < world.size(); r++) {
                Patterns.check(kind.op, rank, recv, r * bytes, bytes, r, "rank " + r);
            }
        }
    }
}
