package dev.tutti.coll;

import dev.tutti.coll.slot.SlotPlan;
import dev.tutti.coll.slot.SlotRounds;
import dev.tutti.p2p.P2pEngine;
import dev.tutti.transport.DirectMemory;
import dev.tutti.transport.Transport;

import java.util.function.BooleanSupplier;

/**
 * Which road a collective call's data takes: a communicator's on-host region ({@code coll.host}), the message layer
 * ({@code p2p}), or slots in memory this rank shares with a peer ({@code coll.slot}). It is decided here and nowhere
 * else; {@link ScheduleRun} keeps what is decided for a run in its own fields and follows it.
 * <ul>
 * <li><b>On-host region</b>: a blocking or nonblocking call, or a persistent request's start, of barrier, bcast,
 * reduce, allreduce, gather, allgather, scatter, alltoall, scan, exscan, reduce_scatter_block or reduce_scatter on a
 * communicator that has a region (every rank shares memory with every other, no hook; agreed at its first blocking
 * barrier, allreduce, allgather or alltoall that goes there), whose operation has no algorithm forced by the setting
 * {@code tutti.coll.<operation>}, and whose data per rank fits the region's cells ({@link #fitsCells}), or, for a
 * blocking call, whatever its size, while the region may have its chunk area, and for a nonblocking call or persistent
 * start once it has ({@link #onHost}, the one table below). Every rank of a correct program decides the same: the
 * inputs are the call's kind, counts and type, the communicator's settings, and whether its ranks agreed a chunk area
 * (which every rank learns at the same call). Also a blocking gatherv, allgatherv, alltoallv, alltoallw or scatterv
 * whose bytes fit the cells of every rank that publishes some, which the ranks learn from each other's words at the
 * call ({@link #agreedAtCall}), a nonblocking or persistent gatherv, alltoallv, alltoallw or scatterv whose bytes fit
 * likewise, which they learn after its start ({@link #agreedLater}), and a nonblocking or persistent allgatherv whose
 * largest block fits.</li>
 * <li><b>Messages</b>: every other run of a blocking, nonblocking or tagged call, and of the library's own
 * collectives (their peers and sizes hold for one call, and a lane of slots is agreed once for many). A persistent
 * run not on the region too when none of its peers shares direct memory with this rank or the setting
 * {@code tutti.coll.directLimit} is 0 ({@link #plan} makes no plan), or when every lane declined slots at its
 * agreement ({@link #agreed}).</li>
 * <li><b>Slots</b>: a persistent run not on the region (its communicator has none, or its data is past the
 * region's limit and the region has no chunk area): its messages with each peer in direct memory whose lane agreed on
 * slots ({@code SlotLane}). The run's rounds go as for messages, with a {@code SlotPart} in place of the message
 * layer's request for each such message; its other messages stay on the message layer.</li>
 * <li><b>Lean slots</b>: a persistent run whose every message goes through slots, at a start that no gate, no hook
 * and no registered run of a higher priority must see ({@link #lean}): its rounds go through {@link SlotRounds}
 * alone, none of the run's round machinery.</li>
 * </ul>
 *
 * <p>Implementation notes. Static methods of a final class, no state: a road object per run would put one more load
 * between the run and its plan on every step of its hot path, and a road per interface a virtual call, so the run
 * holds the outcome itself (its plan, whether every message goes through slots, its lean rounds, whether the
 * current start is lean). {@link #plan} runs at a persistent call's init, {@link #agreed} and {@link #leanRounds}
 * once per request, when its lanes have agreed; {@link #lean} once per start, inlined into it.
 */
public final class Road {
    /** The largest item of a reduction through the chunks: 1/64 of a chunk ({@code coll.host.HostLayout.CHUNK}). */
    static final long CHUNK_ITEM_BYTES = 2048;

    private Road() {
    }

    /**
     * Tells whether a call goes through its communicator's on-host region, which has cells of {@code limit} bytes.
     * The one table of a call's road on a communicator with a region, by the bytes of its block per rank ({@code b};
     * a scatter's or alltoall's whole send), for blocking and nonblocking calls and persistent starts (tagged calls
     * take messages):
     * <pre>
     *   operation                        b &lt;= limit       b &gt; limit
     *   barrier                          cells            -
     *   bcast, gather, allgather,        cells            blocking: the region, which takes chunks (the chunk
     *   allreduce                                         area) when its ranks made one, else messages
     *                                                     (tutti.coll.hostChunks off: messages);
     *                                                     nonblocking, persistent: chunks once a blocking
     *                                                     call has made the area, else messages (persistent:
     *                                                     slots)
     *   scatter, alltoall (b: the        cells            as bcast; more than 2048 ranks: messages
     *   whole send)
     *   reduce                           cells            as bcast, but at 2 ranks and tutti.coll.hostChunks
     *                                                     auto: messages
     *   scan, exscan,                    cells            messages
     *   reduce_scatter_block,
     *   reduce_scatter (b: the whole
     *   operand)
     *   reduce, allreduce with an op     cells            messages: the chunks fold a share of each chunk
     *   applied to whole operands (one                    on each rank, which would cut an operand (such an
     *   that does not commute and has                     op may group elements freely), or an item
     *   no items), or an item over 2 KiB
     * </pre>
     * The vector forms gatherv, allgatherv, alltoallv, alltoallw and scatterv, blocking, take the cells by a rule of
     * their own ({@link #agreedAtCall}), since no rank knows every other's bytes, and so do the nonblocking and
     * persistent gatherv, alltoallv, alltoallw and scatterv ({@link #agreedLater}). A
     * reduce_scatter's ranks all pass every rank's count, and so decide alone, in every form, as do a nonblocking or
     * persistent allgatherv's (b: the largest block).
     * The limit is the direct memory's measured default or the setting {@code tutti.coll.hostLimit}. Chunks have no
     * upper bound: a larger call only adds chunks to the same pipeline (bench/RESULTS.md, its on-host section,
     * has the runs against the message layer and Open MPI).
     *
     * @param call   the call, intracommunicator, with no hook
     * @param limit  the region's cell bytes
     * @param chunks whether a call of this operation past the limit goes through chunks: they are on for it, and
     *               the region has its chunk area, or for a blocking call may still make it
     * @return true for the on-host region
     */
    public static boolean onHost(final CollCall call, final long limit, final boolean chunks) {
        final CollCall.Variant form = call.variant();
        if (CollCall.Variant.TAGGED == form || call.isVector() && !everyCount(call)
            || null != call.comm().selection().override(call.kind())) {
            return false;
        }
        return switch (call.kind()) {
            case BARRIER -> true;
            case BCAST, GATHER, ALLGATHER, SCATTER, ALLTOALL -> fitsCells(call, limit) || chunks;
            case REDUCE, ALLREDUCE -> fitsCells(call, limit) || chunks && cutsAtItems(call);
            case SCAN, EXSCAN, REDUCE_SCATTER_BLOCK, REDUCE_SCATTER, ALLGATHERV -> fitsCells(call, limit);
            default -> false;
        };
    }

    /**
     * Tells whether a vector call's every rank passes every rank's count, as MPI requires them to agree: a
     * reduce_scatter in every form, an allgatherv but a blocking one (whose road its ranks agree at the call, and
     * whose cells then hold the bytes each rank published), so that each rank decides alone as for the regular forms
     * (and publishes a digest of the counts, {@code coll.host.HostWords}).
     *
     * @param call a vector call
     * @return true for a reduce_scatter, and for a nonblocking or persistent allgatherv
     */
    public static boolean everyCount(final CollCall call) {
        return CollKind.REDUCE_SCATTER == call.kind()
            || CollKind.ALLGATHERV == call.kind() && CollCall.Variant.BLOCKING != call.variant();
    }

    /**
     * Tells whether a blocking call may offer its communicator's on-host region, whose road its ranks agree only once
     * they see each other's calls: gatherv, allgatherv, alltoallv, alltoallw and scatterv, blocking, whose operation
     * has no algorithm forced by the setting {@code tutti.coll.<operation>}. Each rank offers when its own bytes fit
     * its cell (a gatherv's root: when every block it receives fits its sender's); an allgatherv, alltoallv or
     * alltoallw takes the cells when every rank offered, a gatherv or scatterv when its root did (a scatterv's other
     * ranks publish nothing), and messages otherwise, on every rank alike: each reads the offers it needs before it
     * goes either way ({@code coll.host.HostRegion}).
     *
     * @param call the call, intracommunicator, with no hook
     * @return true if the call may take the cells
     */
    public static boolean agreedAtCall(final CollCall call) {
        return CollCall.Variant.BLOCKING == call.variant() && agreedForm(call)
            && null == call.comm().selection().override(call.kind());
    }

    /**
     * Tells whether a nonblocking call or persistent start may offer its communicator's on-host region, whose road its
     * ranks agree after the start: gatherv, alltoallv, alltoallw and scatterv, whose operation has no algorithm forced
     * by the setting {@code tutti.coll.<operation>}. They offer as at a blocking call ({@link #agreedAtCall}), but a
     * start never waits: a rank that offers none starts its messages at once, and one that offers publishes its bytes
     * and learns the road when its run reads the offers it needs; if one is missing, it starts its messages then, under
     * the tag drawn at its start ({@code coll.host.HostRegion}).
     *
     * @param call the call, intracommunicator, with no hook
     * @return true if the call may take the cells
     */
    public static boolean agreedLater(final CollCall call) {
        final CollCall.Variant form = call.variant();
        return (CollCall.Variant.NONBLOCKING == form || CollCall.Variant.PERSISTENT == form) && agreedForm(call)
            && null == call.comm().selection().override(call.kind());
    }

    /**
     * Tells whether a call is of the forms whose ranks agree their road from each other's offers
     * ({@link #agreedAtCall}, {@link #agreedLater}), whatever its settings: a rank whose setting forces an algorithm
     * publishes such a call's words as a refused offer.
     *
     * @param call the call
     * @return true for a gatherv, alltoallv, alltoallw or scatterv but a tagged one, and a blocking allgatherv
     */
    public static boolean agreedForm(final CollCall call) {
        return switch (call.kind()) {
            case GATHERV, ALLTOALLV, ALLTOALLW, SCATTERV -> CollCall.Variant.TAGGED != call.variant();
            case ALLGATHERV -> CollCall.Variant.BLOCKING == call.variant();
            default -> false;
        };
    }

    /**
     * Tells whether a reduction may go through the chunks, which fold a share of each chunk on each rank in rank
     * order: its op has items ({@link Operands#itemBytes}), of at most {@value #CHUNK_ITEM_BYTES} bytes, so that each
     * share of a chunk holds whole items with room to spare.
     */
    private static boolean cutsAtItems(final CollCall call) {
        final long item = Operands.itemBytes(call.op(), call.sendType());
        return item > 0 && item <= CHUNK_ITEM_BYTES;
    }

    /**
     * Tells whether a call of the on-host region's operations fits its cells of {@code limit} bytes: its block per
     * rank does, or for a scatter or alltoall, whose rank publishes a block for every rank, its whole send (a
     * reduce_scatter(_block): its whole operand).
     *
     * @param call  the call
     * @param limit the region's cell bytes
     * @return true if the call goes through the cells
     */
    public static boolean fitsCells(final CollCall call, final long limit) {
        final long block = (long) call.sendCount() * call.sendType().sizeBytes();
        return switch (call.kind()) {
            case SCATTER, ALLTOALL, REDUCE_SCATTER_BLOCK -> block * call.comm().size() <= limit;
            case REDUCE_SCATTER -> call.selectBytes() <= limit;
            case ALLGATHERV -> largest(call.recvCounts()) * call.sendType().sizeBytes() <= limit;
            default -> block <= limit;
        };
    }

    private static long largest(final int[] counts) {
        long n = 0;
        for (final int c : counts) {
            n = Math.max(n, c);
        }
        return n;
    }

    /**
     * Makes the slot plan of a persistent call's schedule at its init, or returns null when every message keeps the
     * message layer: a message may go through a slot when its peer is another rank whose transport has
     * {@link DirectMemory} (the first such memory met: one per plan), and when that memory allows messages through
     * slots at all ({@link DirectMemory#directLimit()} above 0).
     *
     * @param schedule the request's own schedule
     * @param comm     its communicator
     * @param idle     tells whether the request has no run in flight (for its lanes)
     * @return the plan, or null
     */
    static SlotPlan plan(final Schedule schedule, final CollComm comm, final BooleanSupplier idle) {
        final P2pEngine engine = comm.engine();
        final Schedule.Round[] rounds = schedule.rounds();
        SlotPlan.Builder slots = null;
        DirectMemory memory = null;
        for (int r = 0; r < rounds.length; r++) {
            final Schedule.CommStep[] steps = rounds[r].comm();
            for (int i = 0; i < steps.length; i++) {
                final Schedule.CommStep s = steps[i];
                final int world = comm.world(s.peer());
                final Transport route = world == engine.worldRank() ? null : engine.route(world);
                final DirectMemory t = null == route ? null : route.directMemory();
                if (null == t || (null != memory && memory != t)) {
                    continue;
                }
                memory = t;
                if (null == slots) {
                    slots = new SlotPlan.Builder(schedule.op(), schedule.header().bits(), widths(rounds), comm.size(),
                        engine, idle);
                }
                slots.add(s.peer(), world, r, i, s.send(), s.segment(), s.send() && t.copiesOnce(s.segment()));
            }
        }
        if (null == slots) {
            return null;
        }
        final long limit = memory.directLimit();
        return limit <= 0 ? null : slots.build(comm.slotLanes(), memory, limit);
    }

    private static int[] widths(final Schedule.Round[] rounds) {
        final int[] w = new int[rounds.length];
        for (int r = 0; r < rounds.length; r++) {
            w[r] = rounds[r].comm().length;
        }
        return w;
    }

    /**
     * Once a run's lanes have agreed: its plan, or null when every lane declined slots and the message layer
     * carries every message from then on.
     *
     * @param plan the plan, agreed ({@link SlotPlan#ready()})
     * @return {@code plan}, or null
     */
    static SlotPlan agreed(final SlotPlan plan) {
        return plan.any() ? plan : null;
    }

    /**
     * Once a run's lanes have agreed: the lean form of its rounds when every message goes through slots, else null
     * (also when a round has more messages than the lean form takes).
     *
     * @param schedule the run's schedule
     * @param plan     its plan, agreed, with a message through slots
     * @return the lean rounds, or null
     */
    static SlotRounds leanRounds(final Schedule schedule, final SlotPlan plan) {
        if (!plan.all()) {
            return null;
        }
        final Schedule.Round[] rounds = schedule.rounds();
        final Runnable[][] meanwhile = new Runnable[rounds.length][];
        final Runnable[][] local = new Runnable[rounds.length][];
        for (int r = 0; r < rounds.length; r++) {
            meanwhile[r] = rounds[r].meanwhile();
            local[r] = rounds[r].local();
        }
        return SlotRounds.of(plan, meanwhile, local, schedule.finish());
    }

    /**
     * At a persistent run's start: whether it goes the lean way. Not when a gate or a hook must see the run, nor
     * when a registered run of a higher priority may need to go first (a lean start sends its first round at once).
     *
     * @param lean the run's lean rounds, or null
     * @param gate what the start waits for before its data moves, or null
     * @param hook the hook to tell at completion, or null
     * @param run  the run
     * @return true for the lean way
     */
    static boolean lean(final SlotRounds lean, final CollGate gate, final CollHook hook, final ScheduleRun run) {
        return null != lean && null == gate && null == hook && !run.comm().activeRuns().outranks(run.priority());
    }
}
