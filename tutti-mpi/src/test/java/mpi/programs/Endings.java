package mpi.programs;

import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * How an mpi job ends, as a process job sees it: {@code args[0]} picks the ending of rank {@code args[1]}, while the
 * other ranks wait in a receive that never matches (so only the ending can finish the job), except for the
 * endings after Finalize.
 * <ul>
 *   <li>{@code abort CODE}: {@code COMM_WORLD.abort(CODE)};</li>
 *   <li>{@code abort-sub CODE}: abort on a communicator of that rank alone ({@code split}): still the whole job;</li>
 *   <li>{@code fatal}: a send to a rank that does not exist under ERRORS_ARE_FATAL (exit status ERR_RANK);</li>
 *   <li>{@code exit CODE}: {@code System.exit(CODE)} after Finalize;</li>
 *   <li>{@code throw}: an uncaught exception after Finalize (the JVM's status 1);</li>
 *   <li>{@code call-all CODE}: every rank calls COMM_WORLD's handler with CODE, first under ERRORS_RETURN (returns),
 *   then under the saved default handler, ERRORS_ARE_FATAL, all at once ({@code args[1]} is ignored).</li>
 * </ul>
 */
public final class Endings {
    private Endings() {
    }

    public static void main(final String[] args) throws MPIException {
        MPI.Init(args);
        final String how = args[0];
        final int who = Integer.parseInt(args[1]);
        final int code = args.length > 2 ? Integer.parseInt(args[2]) : 0;
        final int rank = MPI.COMM_WORLD.getRank();
        final boolean me = who == rank;
        switch (how) {
            case "abort", "abort-sub", "fatal" -> {
                if (me) {
                    if ("abort".equals(how)) {
                        MPI.COMM_WORLD.abort(code);
                    } else if ("abort-sub".equals(how)) {
                        final Intracomm alone = MPI.COMM_WORLD.split(rank, 0);
                        alone.abort(code);
                    } else {
                        MPI.COMM_WORLD.send(new int[1], 1, MPI.INT, MPI.COMM_WORLD.getSize() + 5, 0);
                    }
                    System.out.println("rank " + rank + " survived " + how);
                } else {
                    if ("abort-sub".equals(how)) {
                        MPI.COMM_WORLD.split(rank, 0);
                    }
                    MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, who, 12345); // never sent
                }
                MPI.Finalize();
            }
            case "exit", "throw" -> {
                MPI.COMM_WORLD.barrier();
                MPI.Finalize();
                if (me) {
                    if ("exit".equals(how)) {
                        System.exit(code);
                    }
                    throw new IllegalStateException("an uncaught exception after Finalize");
                }
            }
            case "call-all" -> {
                final mpi.Errhandler saved = MPI.COMM_WORLD.getErrhandler();
                MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
                MPI.COMM_WORLD.callErrhandler(code);
                MPI.COMM_WORLD.barrier();
                MPI.COMM_WORLD.setErrhandler(saved);
                MPI.COMM_WORLD.callErrhandler(code);
                System.out.println("rank " + rank + " survived " + how);
                MPI.COMM_WORLD.barrier();
                MPI.Finalize();
            }
            default -> throw new IllegalArgumentException("ending=" + how + ", expected abort, abort-sub, fatal, "
                + "exit, throw or call-all");
        }
    }
}
