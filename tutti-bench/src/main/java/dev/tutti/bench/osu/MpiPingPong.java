package dev.tutti.bench.osu;

import dev.tutti.Communicator;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import org.HdrHistogram.Histogram;

/**
 * {@code mpi-pingpong}: {@link PingPong} with each send and receive made through the mpi layer
 * ({@code MPI.COMM_WORLD.send/recv} of {@code byte[]} with {@code MPI.BYTE}); see {@link MpiApi}. The timed loop
 * is PingPong's with only the two calls changed.
 */
final class MpiPingPong extends PingPong {
    /** The benchmark name. */
    static final String NAME = MpiApi.PREFIX + OP;

    @Override
    public void allocate(final Communicator world, final int maxBytes) {
        super.allocate(world, maxBytes);
        MpiApi.init(OP);
    }

    @Override
    public double measure(final Communicator world, final int bytes, final int iterations, final int warmup,
        final Histogram histogram) {
        if (peer < 0) {
            return Double.NaN;
        }
        final Intracomm w = MPI.COMM_WORLD;
        final byte[] out = sendBytes;
        final byte[] in = recvBytes;
        final int p = peer;
        final boolean first = initiator;
        final int total = warmup + iterations;
        long start = 0;
        long last = 0;
        try {
            for (int i = 0; i < total; i++) {
                if (i == warmup) {
                    start = System.nanoTime();
                    last = start;
                }
                if (first) {
                    w.send(out, bytes, MPI.BYTE, p, DATA_TAG);
                    w.recv(in, bytes, MPI.BYTE, p, DATA_TAG);
                } else {
                    w.recv(in, bytes, MPI.BYTE, p, DATA_TAG);
                    w.send(out, bytes, MPI.BYTE, p, DATA_TAG);
                }
                if (null != histogram && i >= warmup) {
                    final long now = System.nanoTime();
                    histogram.recordValue((now - last) / 2);
                    last = now;
                }
            }
        } catch (final MPIException e) {
            throw MpiApi.failed(OP, "send/recv", e);
        }
        final long elapsed = System.nanoTime() - start;
        return elapsed / 1e3 / (2.0 * iterations);
    }
}
