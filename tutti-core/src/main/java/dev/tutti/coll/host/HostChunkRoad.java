package dev.tutti.coll.host;

import dev.tutti.coll.CollCall;
import dev.tutti.coll.CollComm;
import dev.tutti.coll.CollKind;
import dev.tutti.transport.DirectMemory;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Which blocking calls past a region's limit go through its chunk area ({@link HostChunks}), and the area itself, on
 * this rank. The setting {@code tutti.coll.hostChunks}: {@code off}, none; {@code on}, every bcast, reduce,
 * allreduce, gather, allgather, scatter and alltoall; {@code auto}, each of these but a reduce when every rank votes
 * for the chunks ({@link ChunkChoice}, one per operation; a reduce keeps the message layer, since a vote waits for
 * every peer's call where the message layer lets a non-root's send return at once: through the vote, 16-256 KiB
 * reduces took 1.3-2.0 times as long). A scatter or alltoall of more than {@code CHUNK / LINE} ranks keeps the
 * message layer: a chunk holds a piece of every rank's block, each at least a line.
 *
 * <p>Protocol, through the region's cells: a call that goes here publishes its words with, at the communicator's
 * first such call, this rank's offer of a chunk area, and at later ones its vote; it then reads every peer's. The
 * call takes the chunks only if every rank offered an area and voted for them; else the message layer runs it, and
 * every rank decides alike, having read every offer and vote. If an offer is missing at the first call, every rank
 * gives its area back and every later call past the limit takes the message layer.
 *
 * <p>Implementation notes. Owned, like its region, by the threads that make the communicator's collective calls, one
 * at a time, so its fields are plain, but {@code chunks}, which the thread that retires the communicator reads. A run
 * the ranks voted onto the message layer is timed from the vote to the door's report ({@link #messagesDone}). Cost
 * per call: one publication and a read of each peer's cell, as every call through the region; no allocation but an
 * operation's first {@link ChunkChoice}.
 */
final class HostChunkRoad {
    private final HostRegion region;
    private final CollComm comm;
    private final DirectMemory memory;
    private final HostSteps steps;
    private final int rank;
    private final int size;
    /** The chunk area, once agreed; read by the thread that retires the communicator. */
    private volatile HostChunks chunks;
    /** Whether calls past the limit take the message layer: the setting is off, or the ranks declined an area. */
    private boolean declined;
    /** Whether this rank votes by measurement (setting {@code auto}), else always for the chunks. */
    private final boolean measures;
    /** Per operation (by {@link CollKind#ordinal()}): how this rank votes, once it has met the operation. */
    private final ChunkChoice[] choices = new ChunkChoice[CollKind.values().length];
    /** This rank's vote, published with the call: 1 for the chunks. */
    private final long[] vote = new long[1];
    private final MemorySegment voteBytes = MemorySegment.ofArray(vote);
    /** The call the ranks voted onto the message layer, its operation's vote, its bytes and when: timed when done. */
    private long handedCall;
    private ChunkChoice handedChoice;
    private long handedBytes;
    private long handedAt;

    /**
     * @param region  the communicator's region
     * @param comm    its communicator
     * @param memory  the direct memory its ranks share
     * @param steps   the region's steps (the views of every rank's cells)
     * @param setting the value of {@code tutti.coll.hostChunks}
     */
    HostChunkRoad(final HostRegion region, final CollComm comm, final DirectMemory memory, final HostSteps steps,
        final String setting) {
        this.region = region;
        this.comm = comm;
        this.memory = memory;
        this.steps = steps;
        this.rank = comm.rank();
        this.size = comm.size();
        this.declined = "off".equals(setting);
        this.measures = "auto".equals(setting);
    }

    /** @return whether a blocking {@code kind} past the limit goes to {@link #run} (else to the message layer) */
    boolean open(final CollKind kind) {
        if (declined) {
            return false;
        }
        return switch (kind) {
            case REDUCE -> !measures;
            case BCAST, GATHER, ALLGATHER, ALLREDUCE -> true;
            case SCATTER, ALLTOALL -> size <= HostLayout.CHUNK / HostLayout.LINE;
            default -> false;
        };
    }

    /**
     * A call past the limit: publishes the call (at the first one with the offer of a chunk area, at the others with
     * this rank's vote), checks every peer's, and runs it through the chunks if every rank offered an area and voted
     * for them.
     *
     * @param k the call's number
     * @param c the call, of an operation {@link #open} for
     * @return false if the ranks declined a chunk area at this call, or did not all vote for the chunks
     */
    boolean run(final long k, final CollCall c) {
        final long bytes = HostSteps.block(c);
        final ChunkChoice choice = measures ? choice(c.kind()) : null;
        final boolean mine = null == choice || choice.vote(bytes);
        HostChunks h = chunks;
        if (null == h) {
            h = agree(k, c); // the communicator's first such call: every rank votes for the chunks there
            if (null == h) {
                declined = true;
                return false;
            }
            chunks = h;
        } else {
            vote[0] = mine ? 1 : 0;
            region.publish(k, voteBytes, 0, Long.BYTES, c);
            boolean all = mine;
            for (int i = 1; i < size; i++) {
                final int r = (rank + i) % size;
                region.awaitCall(r, k, c);
                all &= 1 == steps.data(r, k, Long.BYTES).get(ValueLayout.JAVA_LONG, 0);
            }
            if (!all) {
                handedCall = k;
                handedChoice = choice;
                handedBytes = bytes;
                handedAt = System.nanoTime();
                return false;
            }
        }
        final long t0 = null == choice ? 0 : System.nanoTime();
        switch (c.kind()) {
            case REDUCE -> h.reduce(c, c.root());
            case ALLREDUCE -> h.reduce(c, -1);
            default -> h.move(c, steps.source(c), steps.sourceAt(c));
        }
        if (null != choice) {
            choice.chunksTook(bytes, System.nanoTime() - t0);
        }
        return true;
    }

    /** @return this rank's vote for {@code kind}'s calls, made at its first */
    private ChunkChoice choice(final CollKind kind) {
        ChunkChoice c = choices[kind.ordinal()];
        if (null == c) {
            c = new ChunkChoice();
            choices[kind.ordinal()] = c;
        }
        return c;
    }

    /** @param call a blocking call handed to the message layer, now complete (see {@code HostState#messagesDone}) */
    void messagesDone(final long call) {
        if (call == handedCall && 0 != call && null != handedChoice) {
            handedCall = 0;
            handedChoice.messagesTook(handedBytes, System.nanoTime() - handedAt);
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
        if (!agreed) {
            if (null != area) {
                memory.freeDirect(area);
            }
            return null;
        }
        final MemorySegment[] areas = new MemorySegment[size];
        for (int r = 0; r < size; r++) {
            areas[r] = r == rank ? area : memory.resolveDirect(comm.world(r), names[r], bytes);
        }
        return new HostChunks(region, rank, areas);
    }

    @Override
    public String toString() {
        final HostChunks h = chunks;
        final StringBuilder b = new StringBuilder(null != h ? h.chunks() + " chunks"
            : declined ? "chunks off or declined" : "no chunk area");
        for (final CollKind kind : CollKind.values()) {
            if (null != choices[kind.ordinal()]) {
                b.append(", ").append(kind.mpiName()).append(' ').append(choices[kind.ordinal()]);
            }
        }
        return b.toString();
    }
}
