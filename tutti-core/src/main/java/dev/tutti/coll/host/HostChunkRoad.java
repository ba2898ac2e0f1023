package dev.tutti.coll.host;

import dev.tutti.coll.CollCall;
import dev.tutti.coll.CollComm;
import dev.tutti.coll.CollKind;
import dev.tutti.transport.DirectMemory;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * Which calls past a region's limit go through its chunk area ({@link HostChunks}), and the area itself, on this rank:
 * a blocking call of an operation {@link #open} for, and a nonblocking call or persistent start once the area is
 * agreed ({@link #agreed}; the agreement takes a blocking call, at which every rank learns the outcome, so every rank
 * decides a later call alike: the first blocking call past the limit, its offers in its cells, or, after a
 * persistent request past the limit was made, or a nonblocking call or persistent start past the limit took the
 * message layer or, persistent, the slots (as every such call before the agreement does), the first blocking
 * barrier, allreduce, allgather or alltoall through the cells, its offers in the ranks' offer lines). The setting
 * {@code tutti.coll.hostChunks}: {@code off}, none; {@code on}, every bcast, reduce, allreduce, gather, allgather,
 * scatter and alltoall; {@code auto}, every one of these but a reduce of 2 ranks, whose non-root's
 * send returns at once on the message layer, where through the chunks each rank waits for the other's call before a
 * chunk moves (2-rank reduces of 16 KiB-4 MiB took 1.56 times as long through the chunks, 4-rank ones 0.65 times,
 * geometric means; bench/RESULTS.md), and none where the ranks outnumber the cores ({@link DirectMemory#crowded}:
 * threads of one JVM, whose message layer beats the chunks there). A scatter or alltoall of more than {@code CHUNK / LINE} ranks keeps the message
 * layer: a chunk holds a piece of every rank's block, each at least a line.
 *
 * <p>Protocol, through the region's cells: a call that goes here publishes its words, at the communicator's first such
 * call with this rank's offer of a chunk area, at later ones, for a copy, whether its readers read its bytes in place
 * (where its memory lends them, {@link DirectMemory#lend}: its shared arena between processes, any memory between
 * threads of one JVM; not at an alltoall in place, which overwrites them) and where, and reads every peer's
 * (a mismatched call fails before a chunk moves; a nonblocking call's or persistent start's run reads them when it
 * is tested or waited for, as every run through the region, and then runs its chunks from its tests and the rank's
 * progress, {@link #start}, {@link #advance}). The first call takes the chunks only if every rank offered an area;
 * else every rank gives its area back, and that call and every later one past the limit take the message layer.
 * Every rank decides alike, having read every offer.
 *
 * <p>Implementation notes. Owned, like its region, by the threads that make the communicator's collective calls, one
 * at a time, or under the region's lock by whichever thread advances a run (a blocking call reads them only after
 * every run is complete, the region's {@code pending} giving the order), so its fields are plain, but {@code chunks},
 * which the thread that retires the communicator reads. A loan of a call's bytes ends when the call is over on this
 * rank, whichever way it ends ({@link #returned}, by the blocking caller, or under the region's lock by the thread that
 * completes the run). Cost per call: one publication and a read of each peer's cell, as every call through the region;
 * no allocation between processes, a map entry per lent call between threads.
 */
final class HostChunkRoad {
    private final HostRegion region;
    private final HostCells cells;
    private final CollComm comm;
    private final DirectMemory memory;
    private final HostSteps steps;
    private final int rank;
    private final int size;
    /** The chunk area, once agreed; read by the thread that retires the communicator. */
    private volatile HostChunks chunks;
    /** Whether calls past the limit take the message layer: the setting is off, or the ranks declined an area. */
    private boolean declined;
    /**
     * Whether a nonblocking call or persistent start past the limit took another road for want of an area: the
     * communicator's next blocking call through the cells that waits for every peer then offers one
     * ({@link #agreesAt}).
     */
    private boolean wanted;
    /** This rank's offer at such a call, until the peers' offers are read: its area, or null. */
    private MemorySegment offered;
    /** Whether a reduce of 2 ranks past the limit takes the chunks too (setting {@code on}). */
    private final boolean reduces;
    /** Per rank, at the current call: its bytes read in place, or null (see {@link HostChunks#move}). */
    private final MemorySegment[] direct;
    /** Calls in which this rank read a peer's bytes in place. */
    private long readInPlace;
    /** This rank's calls whose bytes are lent to its readers ({@link #name}) and not yet {@link #returned}. */
    private long loans;
    /** What this rank publishes with a call: 1 and the name of its bytes read in place, or 0. */
    private final long[] name = new long[2];
    private final MemorySegment nameBytes = MemorySegment.ofArray(name);

    /**
     * @param region  the communicator's region
     * @param cells   its cells (the offer lines)
     * @param comm    its communicator
     * @param memory  the direct memory its ranks share
     * @param steps   the region's steps (the views of every rank's cells)
     * @param setting the value of {@code tutti.coll.hostChunks}
     */
    HostChunkRoad(final HostRegion region, final HostCells cells, final CollComm comm, final DirectMemory memory,
        final HostSteps steps, final String setting) {
        this.region = region;
        this.cells = cells;
        this.comm = comm;
        this.memory = memory;
        this.steps = steps;
        this.rank = comm.rank();
        this.size = comm.size();
        this.declined = "off".equals(setting) || "auto".equals(setting) && memory.crowded();
        this.reduces = "on".equals(setting);
        this.direct = new MemorySegment[size];
    }

    /** @return whether a blocking {@code kind} past the limit goes to {@link #run} (else to the message layer) */
    boolean open(final CollKind kind) {
        if (declined) {
            return false;
        }
        return switch (kind) {
            case REDUCE -> reduces || size > 2;
            case BCAST, GATHER, ALLGATHER, ALLREDUCE -> true;
            case SCATTER, ALLTOALL -> size <= HostLayout.CHUNK / HostLayout.LINE;
            default -> false;
        };
    }

    /** @return whether a nonblocking or persistent {@code kind} past the limit goes through the chunks: agreed */
    boolean agreed(final CollKind kind) {
        return null != chunks && open(kind);
    }

    /**
     * Notes that a nonblocking call or persistent start of {@code kind} past the limit, which would go through the
     * chunks, takes another road as no area is agreed yet, or that a persistent request of it was made: the next
     * blocking call through the cells that waits for every peer agrees one. Every rank notes the same call (the
     * inputs are the call's and the settings), so every rank agrees at the same call.
     */
    void missed(final CollKind kind) {
        if (null == chunks && open(kind)) {
            wanted = true;
        }
    }

    /**
     * @return whether a blocking call through the cells agrees the chunk area, after {@link #missed}: one that waits
     * for every peer's call (barrier, allreduce, allgather, alltoall), so that reading their offers adds no wait
     */
    boolean agreesAt(final CollCall c) {
        return wanted && HostRun.ALL == steps.awaits(c);
    }

    /**
     * Offers a chunk area at a call that {@link #agreesAt}: makes it (if there is room) and writes the offer in this
     * rank's offer line, before the call is published, whose release store publishes the offer too.
     */
    void offer() {
        wanted = false;
        offered = memory.tryAllocateSlots(HostLayout.areaBytes());
        cells.offer(null == offered ? 0 : 1, null == offered ? 0 : memory.nameDirect(offered));
    }

    /**
     * Agrees the chunk area from every rank's offer, once every peer has published the call that offered (so its
     * offer line is visible): the area is agreed if every rank offered one, else every rank gives its own back and
     * calls past the limit keep the message layer. Every rank decides alike.
     */
    void agreeFromOffers() {
        final MemorySegment area = offered;
        offered = null;
        final long[] names = new long[size];
        boolean agreed = null != area;
        for (int i = 1; i < size; i++) {
            final int r = (rank + i) % size;
            agreed &= 1 == cells.offerOf(r, 0);
            names[r] = cells.offerOf(r, 1);
        }
        chunks = settle(area, agreed, names);
        declined = null == chunks;
    }

    /** Gives back an offer whose call failed before the offers were read. */
    void withdraw() {
        if (null != offered) {
            memory.freeDirect(offered);
            offered = null;
        }
        declined = true;
    }

    /**
     * A blocking call past the limit: publishes the call (at the first one with the offer of a chunk area), checks
     * every peer's, and runs it through the chunks if the ranks have agreed an area.
     *
     * @param k     the call's number
     * @param c     the call, of an operation {@link #open} for
     * @param drawn the call's message tag (see {@link HostWait#await})
     * @return false if the ranks declined a chunk area at this call (the message layer runs it)
     */
    boolean run(final long k, final CollCall c, final int drawn) {
        HostChunks h = chunks;
        try {
            if (null == h) {
                h = agree(k, c);
                if (null == h) {
                    declined = true;
                    return false;
                }
                chunks = h;
                Arrays.fill(direct, null); // the first call's cells hold the offers: nothing is read in place
            } else {
                name(c, name);
                region.publish(k, nameBytes, 0, 2 * Long.BYTES, c);
                for (int i = 1; i < size; i++) {
                    region.awaitCall((rank + i) % size, k, c);
                }
                readNames(k, c, name);
            }
            begin(h, c);
            h.complete(c, drawn);
            return true;
        } finally {
            returned(name); // nothing at the agreeing call, which lends nothing
        }
    }

    /**
     * Begins a nonblocking call or persistent start past the limit, {@link #agreed} for its operation, through the
     * chunks: every peer has published call {@code k} and its words are checked, and every earlier call is complete on
     * this rank; {@code published} is what this rank published with it ({@link #name}), whose loan the run's owner
     * ends ({@link #returned}) once the run is over.
     */
    void start(final long k, final CollCall c, final long[] published) {
        readNames(k, c, published);
        begin(chunks, c);
    }

    /** @return whether the call begun last is complete on this rank; else its peer's flag holds it ({@link #await}) */
    boolean advance() {
        return chunks.advance();
    }

    /** Waits for the peer's flag that holds the call begun last ({@link #advance}). */
    void await(final String op, final int drawn) {
        chunks.await(op, drawn);
    }

    /** @return the peer whose flag holds the call begun last */
    int waitRank() {
        return chunks.waitRank();
    }

    private void begin(final HostChunks h, final CollCall c) {
        switch (c.kind()) {
            case REDUCE -> h.reduce(c, c.root());
            case ALLREDUCE -> h.reduce(c, -1);
            default -> h.move(c, steps.source(c), steps.sourceAt(c), direct);
        }
    }

    /**
     * Writes what this rank publishes with a call past the limit into {@code into}: 1 and the name of its bytes when
     * its readers read them in place (lent, {@link DirectMemory#lend}, until {@link #returned}), else 0.
     */
    void name(final CollCall c, final long[] into) {
        final MemorySegment d = inPlace(c);
        final long lent = null == d ? -1 : memory.lend(d);
        into[0] = lent < 0 ? 0 : 1;
        into[1] = Math.max(0, lent);
        if (lent >= 0) {
            loans++;
        }
    }

    /** Ends the loan of a call's bytes that {@link #name} lent, if any: the call is over on this rank. */
    void returned(final long[] name) {
        if (1 == name[0]) {
            name[0] = 0;
            loans--;
            memory.endLoan(name[1]);
        }
    }

    /**
     * @return this rank's bytes of a copy that its readers could read in place, where the memory lets them
     * ({@link DirectMemory#lend}): it writes them, and the call is not an alltoall in place (which overwrites its
     * receive buffer, its bytes, while its readers would read them); else null
     */
    private MemorySegment inPlace(final CollCall c) {
        final CollKind kind = c.kind();
        if (CollKind.REDUCE == kind || CollKind.ALLREDUCE == kind || !HostChunks.writes(kind, rank, c.root())
            || CollKind.ALLTOALL == kind && null == c.send()) {
            return null;
        }
        final boolean split = CollKind.SCATTER == kind || CollKind.ALLTOALL == kind;
        return steps.source(c).asSlice(steps.sourceAt(c), HostSteps.block(c) * (split ? size : 1));
    }

    /**
     * Reads, for a copy, where each peer's bytes of call {@code k} are read in place ({@code direct}), every peer's
     * call published and checked; {@code mine} is what this rank published ({@link #name}).
     */
    private void readNames(final long k, final CollCall c, final long[] mine) {
        final CollKind kind = c.kind();
        final boolean copy = CollKind.REDUCE != kind && CollKind.ALLREDUCE != kind;
        final boolean split = CollKind.SCATTER == kind || CollKind.ALLTOALL == kind;
        final long bytes = HostSteps.block(c) * (split ? size : 1);
        direct[rank] = 1 == mine[0] ? inPlace(c) : null;
        boolean read = false;
        for (int i = 1; i < size; i++) {
            final int r = (rank + i) % size;
            direct[r] = null;
            if (copy) {
                final MemorySegment theirs = steps.data(r, k, 2 * Long.BYTES);
                if (1 == theirs.get(ValueLayout.JAVA_LONG, 0)) {
                    direct[r] = memory.resolveDirect(comm.world(r), theirs.get(ValueLayout.JAVA_LONG, Long.BYTES),
                        bytes);
                    read = true;
                }
            }
        }
        if (read) {
            readInPlace++;
        }
    }

    /** Gives the chunk area back, if there is one (the communicator is retired). */
    void retired() {
        final HostChunks h = chunks;
        if (null != h) {
            memory.freeDirect(h.area());
        }
    }

    /**
     * Agrees the chunk area at call {@code k}: publishes the call with this rank's offer (1 and the area's name, or
     * 0 when there is no room) in its bytes, reads every peer's, and makes the chunks if every rank offered an area.
     *
     * @return the chunks, or null (every rank's area given back)
     */
    private HostChunks agree(final long k, final CollCall c) {
        final long bytes = HostLayout.areaBytes();
        final MemorySegment area = memory.tryAllocateSlots(bytes);
        final long[] names = new long[size];
        boolean agreed = null != area;
        try {
            final long[] offer = {null == area ? 0 : 1, null == area ? 0 : memory.nameDirect(area)};
            region.publish(k, MemorySegment.ofArray(offer), 0, 2 * Long.BYTES, c);
            for (int i = 1; i < size; i++) {
                final int r = (rank + i) % size;
                region.awaitCall(r, k, c);
                final MemorySegment theirs = steps.data(r, k, 2 * Long.BYTES);
                agreed &= 1 == theirs.get(ValueLayout.JAVA_LONG, 0);
                names[r] = theirs.get(ValueLayout.JAVA_LONG, Long.BYTES);
            }
        } catch (final RuntimeException | Error e) {
            if (null != area) {
                memory.freeDirect(area);
            }
            throw e;
        }
        return settle(area, agreed, names);
    }

    /**
     * Ends an agreement: makes the chunks over every rank's area if every rank offered one ({@code agreed}), else
     * gives this rank's back.
     *
     * @param area   this rank's area, or null
     * @param agreed whether every rank offered an area
     * @param names  per peer, its area's name
     * @return the chunks, or null
     */
    private HostChunks settle(final MemorySegment area, final boolean agreed, final long[] names) {
        if (!agreed) {
            if (null != area) {
                memory.freeDirect(area);
            }
            return null;
        }
        final MemorySegment[] areas = new MemorySegment[size];
        for (int r = 0; r < size; r++) {
            areas[r] = r == rank ? area : memory.resolveDirect(comm.world(r), names[r], HostLayout.areaBytes());
        }
        return new HostChunks(region, rank, areas);
    }

    @Override
    public String toString() {
        final HostChunks h = chunks;
        return null != h ? h.chunks() + " chunks, " + readInPlace + " calls read a peer in place, " + loans
            + " loans out"
            : declined ? "chunks off or declined" : "no chunk area";
    }
}
