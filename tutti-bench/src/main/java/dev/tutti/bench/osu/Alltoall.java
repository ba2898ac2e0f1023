package dev.tutti.bench.osu;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.PersistentRequest;

/**
 * {@code alltoall}, {@code alltoallv} and {@code alltoallw}, as OSU's {@code osu_alltoall(v)}: every rank sends a
 * block of {@code bytes} bytes to every rank (itself included). The v variant passes equal counts and contiguous
 * displacements; the w variant one {@code Buf} per peer, slices of the same arrays; {@code alltoall_init} MPI-4's
 * persistent alltoall, built once per size and started per iteration.
 *
 * <p>Data: the block rank {@code s} sends to rank {@code d} carries pattern {@code s * p + d}, so a block from the
 * wrong sender or meant for another rank does not pass; after timing every rank checks every block.
 */
public final class Alltoall extends CollectiveBenchmark {
    /** The operations. */
    enum Kind {
        /** MPI_Alltoall. */
        ALLTOALL("alltoall"),
        /** MPI_Alltoallv. */
        ALLTOALLV("alltoallv"),
        /** MPI_Alltoallw. */
        ALLTOALLW("alltoallw"),
        /** MPI-4's MPI_Alltoall_init, started and waited for per iteration (the request is built per size). */
        ALLTOALL_INIT("alltoall_init");

        private final String op;

        Kind(final String op) {
            this.op = op;
        }

        /** @return the operation name */
        String op() {
            return op;
        }
    }

    private final Kind kind;
    private byte[] send;
    private byte[] recv;
    private Buf sendBuf;
    private Buf recvBuf;
    private Buf[] sendBlocks;
    private Buf[] recvBlocks;
    private int[] counts;
    private int[] displs;
    /** The persistent request of alltoall_init, built for the current size. */
    private PersistentRequest persistent;

    /**
     * Creates the benchmark of one of the operations.
     *
     * @param kind the operation
     */
    Alltoall(final Kind kind) {
        this.kind = kind;
    }

    @Override
    public String op() {
        return kind.op;
    }

    @Override
    public String algorithmOp() {
        return Kind.ALLTOALL_INIT == kind ? Kind.ALLTOALL.op : kind.op;
    }

    @Override
    public String title() {
        return "collective latency, bytes per pair";
    }

    @Override
    public void allocate(final Communicator world, final int maxBytes) {
        final int p = world.size();
        send = new byte[Math.multiplyExact(maxBytes, p)];
        recv = new byte[send.length];
        counts = new int[p];
        displs = new int[p];
        sendBlocks = new Buf[p];
        recvBlocks = new Buf[p];
    }

    @Override
    public void prepare(final Communicator world, final int bytes) {
        final int p = world.size();
        final int rank = world.rank();
        for (int r = 0; r < p; r++) {
            Patterns.fill(send, r * bytes, bytes, rank * p + r);
            Patterns.poison(recv, r * bytes, bytes, r * p + rank);
            counts[r] = bytes;
            displs[r] = r * bytes;
            sendBlocks[r] = Buf.of(send, r * bytes, bytes);
            recvBlocks[r] = Buf.of(recv, r * bytes, bytes);
        }
        sendBuf = Buf.of(send, 0, p * bytes);
        recvBuf = Buf.of(recv, 0, p * bytes);
        if (Kind.ALLTOALL_INIT == kind) {
            if (null != persistent) {
                persistent.free();
            }
            persistent = world.alltoallInit(sendBuf, recvBuf);
        }
    }

    @Override
    protected void invoke(final Communicator world, final int bytes) {
        switch (kind) {
            case ALLTOALL -> world.alltoall(sendBuf, recvBuf);
            case ALLTOALLV -> world.alltoallv(sendBuf, counts, displs, recvBuf, counts, displs);
            case ALLTOALLW -> world.alltoallw(sendBlocks, recvBlocks);
            case ALLTOALL_INIT -> {
                persistent.start();
                persistent.waitFor();
            }
            default -> throw new IllegalStateException("unreachable: " + kind);
        }
    }

    @Override
    public void verify(final Communicator world, final int bytes) {
        final int p = world.size();
        final int rank = world.rank();
        for (int s = 0; s < p; s++) {
            Patterns.check(kind.op, rank, recv, s * bytes, bytes, s * p + rank, "rank " + s);
        }
    }
}
