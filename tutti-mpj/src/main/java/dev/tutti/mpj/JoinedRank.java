package dev.tutti.mpj;

import dev.tutti.Tutti;

/**
 * For a Tutti program that also uses the {@code mpi} package (MPJ Express's API on Tutti) in the same process: a
 * process that has joined its job with {@link Tutti#init()} hands its handle here before {@code MPI.Init}, and
 * {@code MPI.Init} then uses that handle instead of joining the job a second time (which a rank process cannot
 * do). {@code MPI.Finalize} then leaves the handle open: its owner closes it. Not part of MPJ Express's API.
 *
 * <pre>{@code
 * try (Tutti tutti = Tutti.init()) {
 *     JoinedRank.use(tutti);
 *     MPI.Init(args);                 // the same rank, through MPI.COMM_WORLD
 *     ...
 *     MPI.Finalize();
 * }
 * }</pre>
 *
 * <p>For a process that is one rank (started by {@code tutti run} or {@code tutti mpjrun -dev niodev}). Ranks that
 * are threads of one JVM ({@code Tutti.runLocal}, {@code tutti mpjrun -dev multicore}) need nothing, and must not
 * give one: their {@code MPI.Init} joins the calling thread's rank already, and a handle here is the process's, which
 * every rank thread's {@code MPI.Init} would take.
 */
public final class JoinedRank {
    private static volatile Tutti handle;

    private JoinedRank() {
    }

    /**
     * Makes later {@code MPI.Init} calls of this process use {@code tutti}.
     *
     * @param tutti this process's handle, or null to make {@code MPI.Init} join the job itself again
     */
    public static void use(final Tutti tutti) {
        handle = tutti;
    }

    /** @return the handle {@code MPI.Init} shall use, or null if it joins the job itself */
    public static Tutti handle() {
        return handle;
    }
}
