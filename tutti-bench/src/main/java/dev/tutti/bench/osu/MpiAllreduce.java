package dev.tutti.bench.osu;

import dev.tutti.Communicator;
import mpi.MPI;
import mpi.MPIException;

/**
 * {@code mpi-allreduce}: {@link Reduction}'s allreduce (float vectors summed, same data and check) with each timed
 * call made through the mpi layer, {@code MPI.COMM_WORLD.allReduce(in, out, count, MPI.FLOAT, MPI.SUM)}; the
 * untimed barrier between calls stays Tutti's, as in allreduce. See {@link MpiApi}.
 */
final class MpiAllreduce extends Reduction {
    /** The benchmark name. */
    static final String NAME = MpiApi.PREFIX + Kind.ALLREDUCE.op();

    MpiAllreduce() {
        super(Kind.ALLREDUCE);
    }

    @Override
    public boolean acceptsAlgorithm() {
        return false;
    }

    @Override
    public void allocate(final Communicator world, final int maxBytes) {
        super.allocate(world, maxBytes);
        MpiApi.init(op());
    }

    @Override
    protected void invoke(final Communicator world, final int bytes) {
        try {
            MPI.COMM_WORLD.allReduce(in, out, bytes / Float.BYTES, MPI.FLOAT, MPI.SUM);
        } catch (final MPIException e) {
            throw MpiApi.failed(op(), "allReduce", e);
        }
    }
}
