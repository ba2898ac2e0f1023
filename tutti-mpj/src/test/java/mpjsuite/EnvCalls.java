package mpjsuite;

import mpi.Errhandler;
import mpi.MPI;
import mpi.MPIException;
import mpi.Status;

/**
 * The environment: Initialized, Wtime and Wtick, Get_processor_name, error handlers (ERRORS_RETURN makes a failed
 * call throw MPIException, an unchecked exception), Status fields, thread levels.
 */
public class EnvCalls {
    public static void main(final String[] args) throws Exception {
        new EnvCalls(args);
    }

    public EnvCalls(final String[] args) throws Exception {
        Check.that(!MPI.Initialized(), "Initialized before Init");
        final String[] own = MPI.Init(args);
        Check.that(MPI.Initialized(), "Initialized after Init");
        Check.equal(args.length, own.length, "Init returns the program's arguments");
        final int me = MPI.COMM_WORLD.Rank();
        final double t0 = MPI.Wtime();
        final double tick = MPI.Wtick();
        Check.that(tick > 0 && tick <= 1, "Wtick: " + tick);
        double t1 = MPI.Wtime();
        while (t1 == t0) {
            t1 = MPI.Wtime();
        }
        Check.that(t1 > t0, "Wtime advances");
        Check.that(t0 > 1.0e9, "Wtime counts from the epoch: " + t0);
        final String host = MPI.Get_processor_name();
        Check.that(null != host && !host.isEmpty(), "Get_processor_name");
        Check.equal(MPI.THREAD_MULTIPLE, MPI.queryThread(), "queryThread");
        Check.that(MPI.isMainThread(), "isMainThread");
        MPI.Errorhandler_set(MPI.ERRORS_RETURN);
        Check.that(MPI.ERRORS_RETURN == MPI.Errorhandler_get(), "Errorhandler_get");
        boolean thrown = false;
        try {
            MPI.COMM_WORLD.Send(new int[1], 0, 1, MPI.INT, MPI.COMM_WORLD.Size() + 3, 0);
        } catch (final MPIException e) {
            thrown = true;
            Check.that(null != e.getMessage(), "the exception says why");
        }
        Check.that(thrown, "a send to a rank outside the communicator throws MPIException");
        thrown = false;
        try {
            MPI.COMM_WORLD.Send(new double[1], 0, 1, MPI.INT, me, 0);
        } catch (final MPIException e) {
            thrown = true;
        }
        Check.that(thrown, "a double[] sent as MPI.INT throws MPIException");
        thrown = false;
        try {
            MPI.Init(args);
        } catch (final MPIException e) {
            thrown = true;
        }
        Check.that(thrown, "Init twice throws MPIException");
        final Errhandler fatal = MPI.ERRORS_ARE_FATAL;
        Check.that(null != fatal, "ERRORS_ARE_FATAL");
        final Status empty = new Status();
        Check.that(null != empty, "new Status()");
        Check.equal(MPI.ANY_SOURCE, MPI.EMPTY_STATUS.source, "EMPTY_STATUS.source");
        Check.complete("EnvCalls");
        MPI.Finalize();
        Check.that(!MPI.Initialized(), "Initialized after Finalize");
    }
}
