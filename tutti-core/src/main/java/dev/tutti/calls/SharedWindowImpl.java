package dev.tutti.calls;

import dev.tutti.Buf;
import dev.tutti.Comm;
import dev.tutti.Communicator;
import dev.tutti.ErrorClass;
import dev.tutti.SharedWindow;
import dev.tutti.TuttiException;
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
 * A {@link SharedWindow}: one block per rank, from the shm arenas of a host's processes or from the heap of one JVM,
 * reached by every rank of the communicator.
 *
 * <p>Implementation notes. Each block ends with retirement flags, not part of {@link #segment}: a long per rank,
 * which that rank sets (a release store) when it retires, as its last access to the block. An owner reads only the
 * flags in its own block (acquire) and frees the block once all are set: so no rank reads or writes a block after
 * its owner freed it. The windows this rank retired and has not freed yet are kept per engine ({@code RETIRED}, under
 * its monitor).
 *
 * <p>Thread-safety: every method may be called from any thread.
 */
public final class SharedWindowImpl implements SharedWindow {
    private static final int LINE = 64;
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    /** Per rank (engine): the windows it retired whose blocks wait for the other ranks to retire. */
    private static final Map<P2pEngine, List<SharedWindowImpl>> RETIRED = new WeakHashMap<>();

    private final CommImpl comm;
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

    private SharedWindowImpl(final CommImpl comm, final MemorySegment[] lined, final long[] sizes, final int[] world,
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
        final CommImpl c = (CommImpl) comm;
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
        return Optional.of(new SharedWindowImpl(c, segments, sizes, world, 1 == n ? null : memory, block));
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

    @Override
    public MemorySegment segment(final int rank) {
        check("segment", rank);
        return segments[rank];
    }

    @Override
    public long bytes(final int rank) {
        check("bytes", rank);
        return sizes[rank];
    }

    @Override
    public int size() {
        return segments.length;
    }

    @Override
    public TuttiException failureOf(final int rank) {
        check("failureOf", rank);
        return comm.engine().failureAffecting(world[rank]);
    }

    @Override
    public int progress() {
        return comm.engine().progress();
    }

    @Override
    public boolean outranked(final int level) {
        return comm instanceof CommunicatorImpl c && c.collComm().outranked(level);
    }

    @Override
    public Registration prioritize(final int level, final BooleanSupplier inFlight,
        final IntSupplier advance) {
        if (level < 1) {
            throw Errors.argument(ErrorClass.ARG, "SharedWindow.prioritize", comm.describe(), "level", level, ">= 1");
        }
        if (null == inFlight || null == advance) {
            throw Errors.nullArg("SharedWindow.prioritize", comm.describe(), null == inFlight ? "inFlight" : "advance");
        }
        if (!(comm instanceof CommunicatorImpl c)) {
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

    @Override
    public void idle(final int iteration) {
        comm.engine().idleStrategy().idle(iteration);
    }

    @Override
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
            final List<SharedWindowImpl> mine = RETIRED.get(engine);
            if (null != mine) {
                mine.removeIf(SharedWindowImpl::freeIfAllRetired);
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
