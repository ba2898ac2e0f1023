package dev.tutti;

import dev.tutti.coll.PrioritizedWork;
import dev.tutti.internal.Errors;
import dev.tutti.p2p.P2pEngine;
import dev.tutti.transport.DirectMemory;
import dev.tutti.transport.Transport;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.WeakHashMap;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;

/**
 * A block of memory on every rank of a communicator that every other rank reads and writes directly, with plain
 * loads and stores: MPI-3's shared-memory window ({@code MPI_Win_allocate_shared} with {@code
 * MPI_Win_shared_query}). It exists when every rank of the communicator shares memory with every other: processes
 * of one host over the shm transport (the blocks live in their shared arenas), or ranks that are threads of one JVM.
 *
 * <pre>{@code
 * SharedWindow.allocate(comm, 4096).ifPresent(win -> {
 *     MemorySegment right = win.segment((comm.rank() + 1) % comm.size());
 *     ...                                  // write into the right neighbour's block
 * });
 * }</pre>
 *
 * <p>Ordering between ranks is the caller's: publish data with a release store of a flag (for example
 * {@code ValueLayout.JAVA_LONG.varHandle().setRelease(segment, offset, value)}) and read the flag with an acquire
 * load before the data, as between threads. A rank that spins on a flag should call {@link #progress()} now and then,
 * so that the rank's other requests move on (MPI's progress rule), and ask {@link #failureOf(int)} whether the rank it
 * waits for is gone.
 *
 * <p>Lifetime: a rank that is done with the window {@link #retire() retires} it; each rank's block goes back to its
 * memory once every rank has retired (looked at when a rank retires a window, allocates one, or allocates from its
 * {@link SharedMemory} arena), so no store can land in memory handed out anew.
 *
 * <p>Implementation notes. Each block ends with retirement flags, not part of {@link #segment}: a long per rank,
 * which that rank sets (a release store) when it retires, as its last access to the block. An owner reads only the
 * flags in its own block (acquire) and frees the block once all are set: so no rank reads or writes a block after
 * its owner freed it. The windows this rank retired and has not freed yet are kept per engine ({@code RETIRED}, under
 * its monitor).
 *
 * <p>Thread-safety: every method may be called from any thread.
 */
public final class SharedWindow {
    private static final int LINE = 64;
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    /** Per rank (engine): the windows it retired whose blocks wait for the other ranks to retire. */
    private static final Map<P2pEngine, List<SharedWindow>> RETIRED = new WeakHashMap<>();

    private final Comm comm;
    private final MemorySegment[] segments;
    /** This rank's block as its memory made it (what goes back). */
    private final MemorySegment block;
    /** The blocks with their retirement flags at the end (see the class comment). */
    private final MemorySegment[] lined;
    private final long[] sizes;
    private final int[] world;
    private final DirectMemory memory;
    /** Whether this rank retired the window (guarded by {@code RETIRED}). */
    private boolean retired;

    private SharedWindow(final Comm comm, final MemorySegment[] lined, final long[] sizes, final int[] world,
        final DirectMemory memory, final MemorySegment block) {
        this.comm = comm;
        this.block = block;
        this.world = world;
        this.lined = lined;
        this.segments = new MemorySegment[lined.length];
        for (int r = 0; r < lined.length; r++) {
            segments[r] = lined[r].asSlice(0, sizes[r]);
        }
        this.sizes = sizes;
        this.memory = memory;
    }

    /**
     * Allocates a zeroed, 64-byte aligned block of {@code bytes} on this rank, and reaches the blocks of every other
     * rank (collective: every rank of {@code comm} calls it; the sizes may differ). Empty on every rank when some
     * rank cannot share memory with some other (another host, the tcp transport), has no room (setting {@code
     * tutti.shm.arenaMiB}), or runs the correctness checker ({@code tutti.check}: a wait on a plain store is out of
     * its sight, so it could not name a deadlock through the window; libraries then keep to messages).
     *
     * @param comm  an intracommunicator
     * @param bytes this rank's block size, {@code >= 0}
     * @return the window, or empty (the same answer on every rank)
     * @throws TuttiException of class {@link ErrorClass#ARG} before anything is sent, for a negative size
     */
    public static Optional<SharedWindow> allocate(final Communicator comm, final long bytes) {
        final String op = "SharedWindow.allocate";
        if (null == comm) {
            throw Errors.argument(ErrorClass.COMM, op, null, "comm", null, "a communicator");
        }
        final Comm c = (Comm) comm;
        c.checkLive(op);
        if (bytes < 0) {
            throw Errors.argument(ErrorClass.ARG, op, c.describe(), "bytes", bytes, ">= 0");
        }
        final P2pEngine engine = c.engine();
        sweep(engine);
        final int n = c.size();
        final int[] world = c.localWorldRanks();
        // With the checker on, no window: waits on plain stores are out of its sight (it could not name their
        // deadlocks), so that libraries keep to the messages it sees.
        final DirectMemory memory = null == engine.hook() ? sharedBy(engine, world, c.rank()) : null;
        MemorySegment mine = null;
        final long lined = (bytes + LINE - 1) / LINE * LINE + flagBytes(n);
        MemorySegment block = null;
        if (1 == n && null == engine.hook()) {
            block = Arena.ofAuto().allocate(lined, LINE);
        } else if (null != memory) {
            block = memory.tryAllocateDirect(lined);
        }
        if (null != block) {
            mine = block.asSlice(0, lined); // the memory may round up: the retirement line is where peers look
        }
        final long[] offer = {null == mine ? 0 : 1, null == mine || 1 == n ? 0 : memory.nameDirect(block), bytes};
        final long[] all = new long[3 * n];
        comm.allgather(Buf.of(offer), Buf.of(all));
        for (int r = 0; r < n; r++) {
            if (0 == all[3 * r]) {
                if (null != block && 1 != n) {
                    memory.freeDirect(block);
                }
                return Optional.empty();
            }
        }
        final MemorySegment[] segments = new MemorySegment[n];
        final long[] sizes = new long[n];
        for (int r = 0; r < n; r++) {
            sizes[r] = all[3 * r + 2];
            segments[r] = r == c.rank() ? mine : memory.resolveDirect(world[r], all[3 * r + 1],
                (sizes[r] + LINE - 1) / LINE * LINE + flagBytes(n));
        }
        return Optional.of(new SharedWindow(c, segments, sizes, world, 1 == n ? null : memory, block));
    }

    /** @return the direct memory this rank shares with every other rank of the group, or null if there is none */
    private static DirectMemory sharedBy(final P2pEngine engine, final int[] world, final int self) {
        DirectMemory memory = null;
        for (int r = 0; r < world.length; r++) {
            if (r == self) {
                continue;
            }
            final Transport route = engine.route(world[r]);
            final DirectMemory m = null == route ? null : route.directMemory();
            if (null == m || (null != memory && memory != m)) {
                return null;
            }
            memory = m;
        }
        return memory;
    }

    /**
     * Returns a rank's block, as this rank reaches it.
     *
     * @param rank a rank of the communicator
     * @return its block ({@link #bytes(int)} long)
     * @throws TuttiException of class {@link ErrorClass#RANK} for a rank out of range
     */
    public MemorySegment segment(final int rank) {
        check("segment", rank);
        return segments[rank];
    }

    /**
     * @param rank a rank of the communicator
     * @return the size of its block
     */
    public long bytes(final int rank) {
        check("bytes", rank);
        return sizes[rank];
    }

    /** @return the number of ranks (blocks) */
    public int size() {
        return segments.length;
    }

    /**
     * Returns why a rank can no longer take part (it left the job or failed, or the job is aborting), or null while
     * it can: what a rank waiting for another's store asks now and then.
     *
     * @param rank a rank of the communicator
     * @return the failure, naming the rank, or null
     */
    public TuttiException failureOf(final int rank) {
        check("failureOf", rank);
        return comm.engine().failureAffecting(world[rank]);
    }

    /**
     * Runs one pass of this rank's progress engine (its transports and outstanding collectives): a thread that spins
     * on the window's memory calls it now and then, so that the rank's other requests complete meanwhile.
     *
     * @return the work done, 0 if nothing moved
     */
    public int progress() {
        return comm.engine().progress();
    }

    /**
     * Tells whether a collective of a higher progress priority than {@code level} is in flight on this rank (a
     * persistent request given a priority, such as a prioritized alltoall channel's exchange): a protocol that moves
     * data through the window, past the progress engine, runs {@link #progress()} before its stores, which advances
     * that collective first, as the engine itself would. It should not hold its stores back until the collective
     * completes: a peer may wait for those stores before it takes part in the collective.
     *
     * @param level a priority (0: the default)
     * @return true while such a collective has not completed
     */
    public boolean outranked(final int level) {
        return comm instanceof Communicator c && c.collComm().outranked(level);
    }

    /**
     * Makes a protocol that moves data through the window take part in this rank's progress priority, as a persistent
     * request given a priority does ({@link PersistentRequest#setPriority}), until the returned registration is
     * closed. While {@code inFlight} says so, the rank's collectives and window protocols of lower levels see the
     * rank as {@link #outranked(int) outranked}, and advance {@code advance} before they post their next messages;
     * every pass of the rank's progress advances it with the collectives of its level, after the higher levels.
     *
     * @param level    the priority, at least 1
     * @param inFlight whether the protocol has something in flight; called from any thread of the rank, must not
     *                 block
     * @param advance  advances the protocol without blocking and returns the steps made (0: none); called from the
     *                 rank's progress by any thread of the rank, so it must not call {@link #progress()} itself
     * @return the registration; close it (on this rank) when the protocol is done
     * @throws TuttiException if {@code level} is below 1 or a function is null
     */
    public Registration prioritize(final int level, final BooleanSupplier inFlight,
        final IntSupplier advance) {
        if (level < 1) {
            throw Errors.argument(ErrorClass.ARG, "SharedWindow.prioritize", comm.describe(), "level", level, ">= 1");
        }
        if (null == inFlight || null == advance) {
            throw Errors.nullArg("SharedWindow.prioritize", comm.describe(), null == inFlight ? "inFlight" : "advance");
        }
        if (!(comm instanceof Communicator c)) {
            return () -> { };
        }
        return c.collComm().rank(new Ranked(level, inFlight, advance))::run; // ending it twice does nothing
    }

    /** A protocol registered by {@link #prioritize}, as the rank's priority order sees it. */
    private record Ranked(int priority, BooleanSupplier busy, IntSupplier step) implements PrioritizedWork {
        @Override
        public boolean inFlight() {
            return busy.getAsBoolean();
        }

        @Override
        public int doWork() {
            return step.getAsInt();
        }
    }

    /** A protocol's place in the rank's priority order ({@link #prioritize}); closing it twice does nothing. */
    public interface Registration extends AutoCloseable {
        /** Ends the registration. */
        @Override
        void close();
    }

    /**
     * Waits a little, the longer the more idle iterations came before: this rank's idle strategy (spins while a core
     * is free, then yields, then parks for bounded times), for a thread that spins on the window's memory.
     *
     * @param iteration how many idle calls came before this one without the awaited store (0 for the first)
     */
    public void idle(final int iteration) {
        comm.engine().idleStrategy().idle(iteration);
    }

    /**
     * Tells the other ranks that this rank will not touch the window again (no load or store through any of its
     * segments after this call). This rank's block goes back to its memory once every rank has retired the window.
     * Retiring twice does nothing.
     */
    public void retire() {
        synchronized (RETIRED) {
            if (retired) {
                return;
            }
            retired = true;
            for (final MemorySegment b : lined) { // the last touch of each block
                LONG.setRelease(b, flagAt(b, comm.rank()), 1L);
            }
            RETIRED.computeIfAbsent(comm.engine(), e -> new ArrayList<>()).add(this);
        }
        sweep(comm.engine());
    }

    /** Frees the blocks of this rank's retired windows that every rank has retired (any thread of the rank). */
    static void sweep(final P2pEngine engine) {
        synchronized (RETIRED) {
            final List<SharedWindow> mine = RETIRED.get(engine);
            if (null != mine) {
                mine.removeIf(SharedWindow::freeIfAllRetired);
            }
        }
    }

    private boolean freeIfAllRetired() {
        final MemorySegment own = lined[comm.rank()];
        for (int r = 0; r < lined.length; r++) {
            if (1L != (long) LONG.getAcquire(own, flagAt(own, r))) {
                return false;
            }
        }
        if (null != memory) {
            memory.freeDirect(block);
        }
        return true;
    }

    /** @return the offset in {@code block} of the retirement flag of rank {@code writer} */
    private long flagAt(final MemorySegment block, final int writer) {
        return block.byteSize() - flagBytes(lined.length) + (long) writer * Long.BYTES;
    }

    /** @return the bytes of the retirement flags at the end of each block: a long per rank, in whole lines */
    private static long flagBytes(final int n) {
        return ((long) n * Long.BYTES + LINE - 1) / LINE * LINE;
    }

    private void check(final String op, final int rank) {
        if (rank < 0 || rank >= segments.length) {
            throw Errors.rank("SharedWindow." + op, comm.describe(), "rank", rank, segments.length, "");
        }
    }

    @Override
    public String toString() {
        return "SharedWindow(" + comm.describe() + ", size=" + segments.length + ")";
    }
}
