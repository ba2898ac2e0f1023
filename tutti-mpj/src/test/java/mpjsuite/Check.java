package mpjsuite;

import mpi.MPI;

import java.util.Arrays;

/**
 * The checks of the suite's programs: a failed one throws, naming the rank, so that the program fails its job (the
 * mpiJava suites print "ERROR" and go on, which a job's exit status does not show).
 */
final class Check {
    private Check() {
    }

    static void that(final boolean ok, final String what) {
        if (!ok) {
            throw new IllegalStateException("rank " + MPI.COMM_WORLD.Rank() + ": " + what);
        }
    }

    static void equal(final long expected, final long actual, final String what) {
        that(expected == actual, what + ": expected " + expected + ", got " + actual);
    }

    static void equal(final Object expected, final Object actual, final String what) {
        final boolean same = expected instanceof Object[] e && actual instanceof Object[] a ? Arrays.deepEquals(e, a)
            : Arrays.deepEquals(new Object[] {expected}, new Object[] {actual});
        that(same, what + ": expected " + Arrays.deepToString(new Object[] {expected}) + ", got "
            + Arrays.deepToString(new Object[] {actual}));
    }

    /** Prints the line the mpiJava suites print on rank 0 when a program has passed. */
    static void complete(final String name) {
        MPI.COMM_WORLD.Barrier();
        if (0 == MPI.COMM_WORLD.Rank()) {
            System.out.println(name + " TEST COMPLETE");
        }
    }
}
