package dev.tutti.bench.osu;

import dev.tutti.Communicator;

/**
 * Base of the point-to-point benchmarks: ranks work in pairs, rank {@code r < n/2} with rank {@code r + n/2}
 * (OSU's multi-pair layout; with two ranks, the usual 0 and 1). The lower rank of a pair is the initiator. With
 * an odd number of ranks the last one takes no part.
 *
 * <p>Each rank owns one send and one receive buffer of the largest size. Before a size the send buffer gets the
 * size's pattern and the receive buffer its complement; after timing the receive buffer must hold the peer's
 * pattern.
 */
abstract class PairedBenchmark extends OsuBenchmark {
    /** Tag of the data messages. */
    static final int DATA_TAG = 1;
    /** Tag of the acknowledgements. */
    static final int ACK_TAG = 2;

    /** The send buffer. */
    byte[] sendBytes;
    /** The receive buffer. */
    byte[] recvBytes;
    /** This rank's partner, or -1 if this rank takes no part. */
    int peer = -1;
    /** Whether this rank starts each exchange. */
    boolean initiator;

    /**
     * Returns the partner of {@code rank} in a job of {@code size} ranks.
     *
     * @param rank the rank
     * @param size the number of ranks
     * @return the partner, or -1 for the last rank of an odd-sized job
     */
    static int peerOf(final int rank, final int size) {
        final int half = size / 2;
        if (rank < half) {
            return rank + half;
        }
        return rank < 2 * half ? rank - half : -1;
    }

    @Override
    public void allocate(final Communicator world, final int maxBytes) {
        peer = peerOf(world.rank(), world.size());
        initiator = peer > world.rank();
        sendBytes = new byte[maxBytes];
        recvBytes = new byte[maxBytes];
    }

    @Override
    public void prepare(final Communicator world, final int bytes) {
        if (peer < 0) {
            return;
        }
        Patterns.fill(sendBytes, bytes, world.rank());
        if (receives()) {
            Patterns.poison(recvBytes, bytes, peer);
        }
    }

    @Override
    public void verify(final Communicator world, final int bytes) {
        if (peer >= 0 && receives()) {
            Patterns.check(op(), world.rank(), recvBytes, bytes, peer);
        }
    }

    /** @return whether this rank receives data (both sides in a ping-pong, only the responder in bandwidth) */
    abstract boolean receives();
}
