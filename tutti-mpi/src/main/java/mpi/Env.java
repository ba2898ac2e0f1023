package mpi;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Tutti;
import dev.tutti.mpi.JoinedRank;

import java.security.SecureRandom;

/**
 * The MPI state of one rank: its phase (new, initialized, finalized), its Tutti handle, world and self
 * communicators, thread level, buffered-mode buffer and the per-rank state of the predefined communicators.
 *
 * <p>Implementation note: how {@code MPI.COMM_WORLD}, one static object, finds the calling rank. A process has one
 * rank, kept in {@link #process}. In an embedded job (ranks as threads of one JVM) each rank thread has its own
 * state in an inheritable thread-local, so threads a rank starts see its state too. {@link MPI#Init} puts the state
 * in the thread-local always, and in {@link #process} if that is still empty; a lookup tries the thread-local
 * first. A test harness ({@link #bindTestRank()}) gives every rank thread a fresh state before the program runs, so
 * that lookups in that thread never fall back to another job's process-wide state, and so that an abort fails the
 * embedded job instead of exiting the JVM.
 *
 * <p>The common case, a process that is one rank, skips the thread-local on every call: while the JVM has created
 * exactly one state (and bound no test rank), every thread's lookup would find that one, so {@link #only} holds it
 * and {@link #current()} returns it after one field read. A second state (an embedded job, a test rank, an Init
 * from a thread that does not inherit the first) clears {@link #only} for good.
 */
final class Env {
    private static final InheritableThreadLocal<Env> LOCAL = new InheritableThreadLocal<>();
    private static volatile Env process;
    /** The JVM's only state while there is exactly one, else null; guarded by {@code Env.class} for writes. */
    private static volatile Env only;
    /** Whether a second state was ever made (then {@link #only} stays null); guarded by {@code Env.class}. */
    private static boolean several;

    private static final int NEW = 0;
    private static final int INITIALIZED = 1;
    private static final int FINALIZED = 2;

    private final boolean testHarness;
    private volatile int phase = NEW;
    private volatile Tutti tutti;
    /** Whether Init joined the job itself (else it uses the handle of {@link JoinedRank}, which it leaves open). */
    private volatile boolean ownsTutti;
    private volatile Communicator world;
    private volatile Communicator self;
    private volatile Communicator ports;
    /** The private duplicate of the world that carries the requests of {@link Names}. */
    private volatile Communicator names;
    /** World rank 0's name service, else null. */
    private Names.Service nameService;
    private volatile long jobKey;
    private volatile int threadLevel;
    private volatile Thread mainThread;
    /** Buffered mode: the attached buffer and the buffered messages on their way. */
    private final Buffered buffered = new Buffered();
    /** The {@link BufCache} of {@link #mainThread}, which alone uses it. */
    private final BufCache mainCache = new BufCache();

    /** State of {@code MPI.COMM_WORLD} in this rank. */
    final CommState worldState = new CommState("MPI_COMM_WORLD");
    /** State of {@code MPI.COMM_SELF} in this rank. */
    final CommState selfState = new CommState("MPI_COMM_SELF");

    private Env(final boolean testHarness) {
        this.testHarness = testHarness;
    }

    /** @return the calling rank's state, or null if this thread has none and no process-wide one exists */
    static Env current() {
        final Env o = only;
        if (null != o) {
            return o;
        }
        final Env e = LOCAL.get();
        return null != e ? e : process;
    }

    /**
     * Gives the calling thread (a rank of an embedded test job) a fresh state, so that {@link MPI#Init} in it
     * starts a new rank and an abort fails the job instead of exiting the JVM.
     */
    static void bindTestRank() {
        synchronized (Env.class) {
            several = true;
            only = null;
        }
        LOCAL.set(new Env(true));
    }

    /** Removes the calling thread's state (the end of a test rank). */
    static void unbindTestRank() {
        LOCAL.remove();
    }

    /**
     * Initializes the calling rank (MPI_Init): joins the Tutti job and builds the self communicator.
     *
     * @param level the thread level to record
     * @throws MPIException if this rank is already initialized
     */
    static void init(final int level) throws MPIException {
        ApiMarker.checkOne(MPI.class.getClassLoader()); // tutti-mpj's mpi package on the same class path
        Env e = LOCAL.get();
        if (null == e) {
            e = new Env(false);
            LOCAL.set(e);
            synchronized (Env.class) {
                if (null == process) {
                    process = e;
                }
                if (several || null != only) {
                    several = true;
                    only = null;
                } else {
                    only = e;
                }
            }
        }
        synchronized (e) {
            if (NEW != e.phase) {
                throw new MPIException("MPI is already initialized.");
            }
            final Tutti adopted = e.testHarness ? null : JoinedRank.handle();
            final Tutti t = null == adopted ? Tutti.init() : adopted;
            e.ownsTutti = null == adopted;
            final Communicator w = t.world();
            e.tutti = t;
            e.world = w;
            e.self = w.split(w.rank(), 0);
            e.self.setName("MPI_COMM_SELF");
            e.ports = w.dup();
            e.names = w.dup();
            if (0 == w.rank()) {
                e.nameService = Names.serve(e.names);
            }
            final long[] key = {new SecureRandom().nextLong()};
            e.ports.bcast(Buf.of(key), 0);
            e.jobKey = key[0];
            e.threadLevel = level;
            e.mainThread = Thread.currentThread();
            e.phase = INITIALIZED;
        }
    }

    /**
     * Returns the calling rank's state if it is initialized and not finalized.
     *
     * @return the state
     * @throws MPIException "MPI is not initialized." or "MPI is finalized."
     */
    static Env check() throws MPIException {
        final Env e = current();
        if (null == e || NEW == e.phase) {
            throw new MPIException("MPI is not initialized.");
        }
        if (FINALIZED == e.phase) {
            throw new MPIException("MPI is finalized.");
        }
        return e;
    }

    /**
     * Finalizes the rank (MPI_Finalize): waits for every rank of the world, then leaves the Tutti job (unless Init
     * used a handle of {@link JoinedRank}, whose owner leaves).
     */
    void finish() {
        synchronized (this) {
            buffered.drain(); // buffered messages leave before this rank does
            ports.free();
            world.barrier(); // no name request can follow: rank 0 may stop its service
            if (null != nameService) {
                Names.stop(nameService);
                nameService = null;
            }
            names.free();
            phase = FINALIZED;
        }
        if (ownsTutti) {
            tutti.close();
        }
    }

    /** @return whether Init has been called in this rank */
    boolean initialized() {
        return NEW != phase;
    }

    /** @return whether Finalize has been called in this rank */
    boolean finalized() {
        return FINALIZED == phase;
    }

    /** @return whether this rank belongs to an embedded test job (aborts fail the job, not the JVM) */
    boolean isTestHarness() {
        return testHarness;
    }

    /** @return the Tutti handle, or null before Init */
    Tutti tutti() {
        return tutti;
    }

    /** @return the world communicator, or null before Init */
    Communicator world() {
        return world;
    }

    /** @return the self communicator, or null before Init */
    Communicator self() {
        return self;
    }

    /** @return the private duplicate of the world that carries the handshakes of {@link Ports} */
    Communicator ports() {
        return ports;
    }

    /** @return the private duplicate of the world that carries the requests of {@link Names} */
    Communicator names() {
        return names;
    }

    /** @return a random number every rank of this job shares (drawn by rank 0 at Init): names the job in ports */
    long jobKey() {
        return jobKey;
    }

    /** @return the thread level granted by Init */
    int threadLevel() {
        return threadLevel;
    }

    /** @return the thread that called Init */
    Thread mainThread() {
        return mainThread;
    }

    /**
     * Returns the calling thread's cache of buffer views: for the thread that called Init (the one that makes nearly
     * every call in most programs) the field of this state, which saves a thread-local lookup per buffer; for any
     * other thread its own thread-local one. A cache is never shared between threads.
     *
     * @return the cache
     */
    BufCache bufCache() {
        return Thread.currentThread() == mainThread ? mainCache : BufCache.mine();
    }

    /** @return buffered mode's state: the attached buffer and the buffered messages on their way */
    Buffered buffered() {
        return buffered;
    }
}
