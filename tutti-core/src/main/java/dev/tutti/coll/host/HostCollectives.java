package dev.tutti.coll.host;

import dev.tutti.Datatype;
import dev.tutti.Request;
import dev.tutti.coll.AlgorithmId;
import dev.tutti.coll.CollArgs;
import dev.tutti.coll.CollCall;
import dev.tutti.coll.CollComm;
import dev.tutti.coll.CollDone;
import dev.tutti.coll.CollHeader;
import dev.tutti.coll.Road;
import dev.tutti.coll.HostState;
import dev.tutti.coll.MessageFallback;
import dev.tutti.coll.Schedule;
import dev.tutti.coll.ScheduleRun;
import dev.tutti.coll.algo.Algorithms;
import dev.tutti.internal.Settings;
import dev.tutti.p2p.P2pEngine;
import dev.tutti.transport.DirectMemory;
import dev.tutti.transport.Transport;

import java.lang.foreign.MemorySegment;

/**
 * The entry of the on-host collective layer: the door hands it every call-ordered intracommunicator call that no hook
 * sees ({@link #take}), and it runs those that go through the communicator's region ({@link HostRegion}).
 *
 * <p>A communicator gets its region when a blocking creation makes it (dup, split, create, create by group, an
 * intercommunicator's merge, and the world of processes launched together, whose start is collective anyway:
 * {@link #agreeAtCreation}), before any call on it, so that every call, a bcast's or a nonblocking one's too, can take
 * the region from the first. A communicator made otherwise (by idup, whose completion must not wait for the others,
 * or the world of threads of one JVM, whose start is not collective) gets it at its first blocking barrier,
 * allreduce, allgather or alltoall that would go through it, on every rank at the same call (MPI orders a
 * communicator's collectives alike on every rank, and a blocking call is one on every rank; every rank of these waits
 * for every other anyway, so agreeing adds no wait). Either way each rank finds whether every peer is reached through
 * one {@link DirectMemory} (all the ranks are processes of this host over shared memory, or threads of this JVM) and
 * reads the limit (the setting {@code tutti.coll.hostLimit}, or the memory's {@link DirectMemory#defaultHostLimit()});
 * at the agreement it makes its block ({@link HostLayout}) in its own direct memory, and offers it to the others with
 * an allgather of the message layer: the region is made where every rank offered a block of the same limit, else none
 * is, and each rank gives its block back. Every rank decides alike from what they all see. Calls made before, and
 * every call of a communicator without a region, take the message layer.
 *
 * <p>Implementation notes. Stateless; the communicator keeps its state ({@link CollComm#hostState()}): a volatile read
 * per call. Agreement costs one allgather of four longs per rank, once per communicator (at a creation over shared
 * memory, also where the limit is 0: the offers then decline); a region costs each rank one block of
 * {@code 4 * (64 + limit)} bytes, and from the communicator's first blocking call past the limit one chunk area
 * ({@link HostLayout#areaBytes()}), both counted in the direct memory's share for slots (a rank whose share is used up
 * offers none, and the communicator takes the message layer, for the calls past the limit only when the chunk area is
 * the one refused).
 */
public final class HostCollectives {
    /** A communicator without a region. */
    private static final HostState NONE = () -> {
    };

    /** A communicator that may get a region, at its first call that agrees one ({@link #agrees}). */
    private record Pending(DirectMemory memory, long limit) implements HostState {
        @Override
        public void retired() {
        }
    }

    private HostCollectives() {
    }

    /**
     * Runs a call through its communicator's on-host region if it goes there, else publishes it (the message layer
     * then runs it). The first call that can agrees the region first.
     *
     * @param call     a blocking or nonblocking intracommunicator call, with no hook
     * @param fallback how a nonblocking call whose road its ranks agree after its start ({@link Road#agreedLater})
     *                 starts on the message layer under a drawn tag
     * @return the call's request: complete for a blocking call the region ran, the region's run of a nonblocking
     * one; null if the message layer runs the call
     * @throws dev.tutti.TuttiException if the call's peers made another call, or a peer is gone
     */
    public static Request take(final CollCall call, final MessageFallback fallback) {
        final CollComm comm = call.comm();
        HostState s = comm.hostState();
        if (s instanceof HostRegion region) {
            if (CollCall.Variant.BLOCKING != call.variant()) {
                return region.start(call, null, fallback);
            }
            return region.run(call, -1) ? CollDone.REGION : null;
        }
        if (null == s) {
            s = candidate(comm);
            comm.hostState(s);
        }
        if (!(s instanceof Pending p) || !agrees(call, p.limit())) {
            return null;
        }
        final CollHeader header = CollHeader.of(call.kind(), call.root(), call.sendCount());
        final int tag = comm.drawTag(header.bits(), call.sendCount());
        final HostState made = attach(comm, comm, p.memory(), p.limit(), call.kind().mpiName(), header, tag);
        if (made instanceof HostRegion region) {
            return region.run(call, tag) ? CollDone.REGION : null;
        }
        return null; // no region: every rank runs the call on the message layer (under a number of its own)
    }

    /**
     * Tells whether a call may agree its communicator's region: a blocking call of an operation whose every rank
     * waits for every other in any algorithm (barrier, allreduce, allgather, alltoall), so that the agreement adds no
     * wait the call does not have (a bcast's root, for one, may return before the others call), and that goes
     * through the region, so that the agreement and the call share one call number.
     */
    private static boolean agrees(final CollCall call, final long limit) {
        if (CollCall.Variant.BLOCKING != call.variant()) {
            return false;
        }
        return switch (call.kind()) {
            case BARRIER, ALLREDUCE, ALLGATHER, ALLTOALL -> Road.onHost(call, limit, true);
            default -> false;
        };
    }

    /**
     * Whether the communicator may have a region: every peer is reached through one {@link DirectMemory}, on the
     * rank's host as the job's layout places them (an embedded job on fake hosts keeps them apart), and the limit is
     * above 0. Every rank finds the same.
     */
    private static HostState candidate(final CollComm comm) {
        final DirectMemory memory = sharedMemory(comm);
        if (null == memory) {
            return NONE;
        }
        final long limit = limit(memory);
        return limit <= 0 ? NONE : new Pending(memory, limit);
    }

    /** The limit of a region over {@code memory}: the setting, or the memory's default. */
    private static long limit(final DirectMemory memory) {
        final long setting = Settings.COLL_HOST_LIMIT.intValue();
        return setting < 0 ? memory.defaultHostLimit() : setting;
    }

    /**
     * The one {@link DirectMemory} through which this rank reaches every peer of the communicator, all on its host as
     * the job's layout places them, or null (fewer than 2 ranks, no engine, a peer elsewhere or reached otherwise).
     * Every rank finds alike whether there is one.
     */
    private static DirectMemory sharedMemory(final CollComm comm) {
        final P2pEngine engine = comm.engine();
        final int size = comm.size();
        if (null == engine || size < 2) {
            return null;
        }
        final int[] hosts = engine.layout().hosts();
        if (null != hosts) {
            for (int r = 1; r < size; r++) {
                if (hosts[comm.world(r)] != hosts[comm.world(0)]) {
                    return null;
                }
            }
        }
        DirectMemory memory = null;
        for (int r = 0; r < size; r++) {
            if (r == comm.rank()) {
                continue;
            }
            final Transport route = engine.route(comm.world(r));
            final DirectMemory m = null == route ? null : route.directMemory();
            if (null == m || (null != memory && memory != m)) {
                return null;
            }
            memory = m;
        }
        return memory;
    }

    /**
     * Agrees the region of a communicator being made, before any call of its own: a blocking creation (the world at
     * start, dup, split, create, create by group, an intercommunicator's merge) runs this on every member of the new
     * communicator, in the same place of each member's order (see the class note). Whether a rank takes part depends
     * only on what every member sees alike (the job's layout and transports, whether a checker watches the calls), so
     * either every member takes part or none does; the offers then settle whether there is a region, as at a call.
     * A communicator with a hook gets none (its calls never reach this layer).
     *
     * @param comm  the new communicator, whose ranks have made no call on it yet
     * @param among the same group on a context of the communicator's own that no call of it uses, where the
     *              agreement's messages go, so that they take no number of the communicator's calls (which mismatch
     *              reports count)
     * @throws dev.tutti.TuttiException if a peer is gone
     */
    public static void agreeAtCreation(final CollComm comm, final CollComm among) {
        if (null != comm.hostState() || null != comm.rankState().hook()) {
            return;
        }
        final DirectMemory memory = sharedMemory(comm);
        if (null == memory) {
            comm.hostState(NONE);
            return;
        }
        attach(comm, among, memory, limit(memory), "create", null, -1);
    }

    /**
     * Agrees a communicator's region with its peers (see the class note), or returns {@link #NONE}: an allgather of
     * every rank's offer (a block, or none where the limit is 0 or memory is short) through the message layer. At a
     * call the agreement's messages carry the call's number and header ({@code header}, {@code tag}), so that a
     * peer which made another call meets them as the message layer's run of this call and reports the mismatch as it
     * would; at a creation (no header) they go on {@code among} under its next number. Sets the communicator's state
     * to what it made, or to {@link #NONE} if the agreement failed.
     */
    private static HostState attach(final CollComm comm, final CollComm among, final DirectMemory memory,
        final long limit, final String op, final CollHeader header, final int tag) {
        final HostState made;
        try {
            made = offer(comm, among, memory, limit, op, header, tag);
        } catch (final RuntimeException | Error e) {
            comm.hostState(NONE); // the agreement fails on every rank that saw it fail; none makes a region
            throw e;
        }
        comm.hostState(made);
        return made;
    }

    /** {@link #attach}'s allgather of the offers and what every rank makes of them. */
    private static HostState offer(final CollComm comm, final CollComm among, final DirectMemory memory,
        final long limit, final String op, final CollHeader header, final int tag) {
        final int size = comm.size();
        final long bytes = HostLayout.blockBytes(Math.max(0, limit));
        final MemorySegment block = limit > 0 ? memory.tryAllocateSlots(bytes) : null;
        final long[] mine = {null == block ? 0 : 1, null == block ? 0 : memory.nameDirect(block), bytes, limit};
        final long[] all = new long[mine.length * size];
        try { // inside the blocking call (or creation) that agrees, whose own trace event spans the wait
            final Schedule gather = Algorithms.build(AlgorithmId.ALLGATHER_LINEAR, among, CollArgs.of(op,
                MemorySegment.ofArray(mine), MemorySegment.ofArray(all), Datatype.LONG, mine.length, -1, null));
            (null == header ? ScheduleRun.start(gather, among, false)
                : ScheduleRun.start(gather.withHeader(header), among, tag, false)).waitForInCall();
        } catch (final RuntimeException | Error e) {
            if (null != block) {
                memory.freeDirect(block);
            }
            throw e;
        }
        boolean agreed = true;
        for (int r = 0; r < size; r++) {
            final int at = r * mine.length;
            agreed &= 1 == all[at] && bytes == all[at + 2] && limit == all[at + 3];
        }
        if (!agreed) {
            if (null != block) {
                memory.freeDirect(block);
            }
            return NONE;
        }
        final MemorySegment[] blocks = new MemorySegment[size];
        for (int r = 0; r < size; r++) {
            blocks[r] = r == comm.rank() ? block
                : memory.resolveDirect(comm.world(r), all[r * mine.length + 1], bytes);
        }
        return new HostRegion(comm, memory, blocks, limit);
    }
}
