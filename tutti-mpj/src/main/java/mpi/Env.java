package mpi;

import dev.tutti.Communicator;
import dev.tutti.Tutti;
import dev.tutti.mpj.JoinedRank;

/**
 * The MPI state of one rank: its phase, its Tutti handle, world and self communicators, error handler and
 * buffered-mode buffer.
 *
 * <p>Implementation note: {@code MPI.COMM_WORLD} is one static object, so each call finds the calling rank's state
 * here. A process is one rank ({@link #process}); in an embedded job (ranks as threads of one JVM, as the tests
 * run them) each rank thread holds its own state in an inheritable thread-local, so threads a rank starts share it.
 * While the class serves one rank (a process, or a rank with a class loader of its own, as {@code tutti mpjrun}'s
 * multicore device gives it) a lookup is one volatile read of {@link #process}; once a second rank's state is made in
 * it ({@link #shared}), a lookup tries the thread-local first. {@link #bindTestRank()} gives a test rank thread a
 * fresh state, so that an abort fails the embedded job instead of exiting the JVM.
 *
 * <p>Init after Finalize works everywhere, as MPJ Express's test suite expects (its driver runs Init/Finalize once
 * per test program, in one JVM a rank): Finalize waits for every rank but keeps the rank joined, and the next Init
 * takes up the same world. A process rank that joined the job itself leaves it when its JVM exits, through a
 * shutdown hook ({@link #leaveAtExit}) that closes the handle; a rank process cannot join a job twice, so closing
 * in Finalize would forbid the next Init. A failure of that close (a collective mismatch found on leaving, a
 * checker finding) halts the JVM with status 1, so that the rank still ends non-zero.
 */
final class Env {
    private static final InheritableThreadLocal<Env> LOCAL = new InheritableThreadLocal<>();
    private static volatile Env process;
    /**
     * Whether this class serves more than one rank (test ranks, or ranks as threads sharing one class loader): then
     * a call finds its rank's state through {@link #LOCAL}; until then {@link #process} is every caller's, and a
     * call reads it without the thread-local lookup.
     */
    private static volatile boolean shared;

    private static final int NEW = 0;
    private static final int INITIALIZED = 1;
    private static final int FINALIZED = 2;

    private final boolean testHarness;
    private volatile int phase = NEW;
    private volatile Tutti tutti;
    private volatile Communicator world;
    private volatile Communicator self;
    private volatile Errhandler handler;
    /** Whether the shutdown hook that leaves the job at exit is registered. */
    private boolean hooked;
    /** Whether Init joined the job itself (else it uses the handle of {@link JoinedRank}, which it leaves open). */
    private volatile boolean ownsTutti;
    private final Buffered buffered = new Buffered();
    /** The views of the thread that called Init first (see {@link Views}); made there. */
    private volatile Views views;

    private Env(final boolean testHarness) {
        this.testHarness = testHarness;
    }

    /** @return the calling rank's state, or null if there is none yet */
    static Env current() {
        if (!shared) {
            final Env p = process;
            if (null != p) {
                return p;
            }
        }
        final Env e = LOCAL.get();
        return null != e ? e : process;
    }

    /** Gives the calling thread (a rank of an embedded test job) a fresh state. */
    static void bindTestRank() {
        shared = true;
        LOCAL.set(new Env(true));
    }

    /** Removes the calling thread's state (the end of a test rank). */
    static void unbindTestRank() {
        LOCAL.remove();
    }

    /**
     * Returns the calling rank's state if it is initialized and not finalized.
     *
     * @param call the MPJ call, for the message
     * @return the state
     * @throws MPIException if MPI.Init has not been called, or MPI.Finalize has
     */
    static Env check(final String call) {
        final Env e = current();
        if (null == e || NEW == e.phase) {
            throw new MPIException(call + ": MPI is not initialized (call MPI.Init first)");
        }
        if (FINALIZED == e.phase) {
            throw new MPIException(call + ": MPI is finalized (MPI.Finalize was called; call MPI.Init again)");
        }
        return e;
    }

    /**
     * Initializes the calling rank: joins the Tutti job (or, after a Finalize, takes up the same world again).
     *
     * @return the state
     * @throws MPIException if already initialized, or if the job cannot be joined
     */
    static Env init() {
        Env e = LOCAL.get();
        if (null == e) {
            e = new Env(false);
            LOCAL.set(e);
            synchronized (Env.class) {
                if (null == process) {
                    process = e;
                } else {
                    shared = true; // a second rank in this class: from now on each call looks its own up
                }
            }
        }
        synchronized (e) {
            if (INITIALIZED == e.phase) {
                throw new MPIException("MPI.Init: called after MPJ has already been successfully initialized "
                    + "(call MPI.Finalize first)");
            }
            if (null == e.tutti) {
                final Tutti adopted = e.testHarness ? null : JoinedRank.handle();
                final Tutti t = null == adopted ? Tutti.init() : adopted;
                e.ownsTutti = null == adopted;
                e.tutti = t;
                e.world = t.world();
                e.self = e.world.split(e.world.rank(), 0);
                e.self.setName("MPI.COMM_SELF");
            }
            if (null == e.views) {
                e.views = new Views(Thread.currentThread());
            }
            e.handler = MPI.ERRORS_RETURN;
            e.phase = INITIALIZED;
        }
        return e;
    }

    /**
     * Finalize: drains buffered sends and waits for every rank. The rank stays joined, so that Init may follow; a
     * rank that joined the job itself leaves it when the JVM exits.
     */
    void finish() {
        synchronized (this) {
            buffered.detach("MPI.Finalize");
            world.barrier();
            phase = FINALIZED;
            if (!testHarness && ownsTutti && !hooked) {
                hooked = true;
                leaveAtExit(tutti);
            }
        }
    }

    /**
     * Closes {@code t} when the JVM exits (in an embedded job's rank close does nothing). A failed close prints its
     * reason and halts with status 1, as an exception escaping the rank's main would have ended it.
     */
    private static void leaveAtExit(final Tutti t) {
        Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().name("mpj-leave-job").unstarted(() -> {
            try {
                t.close();
            } catch (final RuntimeException x) {
                System.err.println("MPI: leaving the job at exit failed: " + x);
                System.err.flush();
                System.out.flush();
                Runtime.getRuntime().halt(1);
            }
        }));
    }

    boolean isInitialized() {
        return INITIALIZED == phase;
    }

    boolean isTestHarness() {
        return testHarness;
    }

    Tutti tutti() {
        return tutti;
    }

    Communicator world() {
        return world;
    }

    Communicator self() {
        return self;
    }

    Errhandler handler() {
        final Errhandler h = handler;
        return null == h ? MPI.ERRORS_RETURN : h;
    }

    void handler(final Errhandler h) {
        handler = h;
    }

    Buffered buffered() {
        return buffered;
    }

    /** @return the cache of buffer views of the thread that called Init (any thread may ask; see {@link Views}) */
    Views views() {
        final Views v = views;
        return null != v ? v : NO_VIEWS;
    }

    /** Before Init: a cache no thread owns, which builds every view afresh. */
    private static final Views NO_VIEWS = new Views(null);

    /**
     * Ends the job: the rank leaves Tutti at once (its peers' operations with it fail), and a process exits with
     * {@code status}. In an embedded test job the job fails with the returned exception instead.
     *
     * @param status the exit status
     * @param cause  why
     * @return the exception to throw in an embedded job (a process never returns)
     */
    MPIException abort(final int status, final Throwable cause) {
        final MPIException e = new MPIException("MPI job aborted by rank "
            + (null != world ? world.rank() : -1) + " with status " + status + ": " + cause.getMessage(), cause);
        if (null != tutti) {
            tutti.abort(e);
        }
        if (!testHarness) {
            System.err.println(e.getMessage());
            System.err.flush();
            System.out.flush();
            Runtime.getRuntime().exit(status);
        }
        return e;
    }
}
