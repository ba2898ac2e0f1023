package dev.tutti.channel;

import dev.tutti.Buf;
import dev.tutti.Datatype;
import dev.tutti.ErrorClass;
import dev.tutti.internal.Errors;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One buffer of a channel's ring, lent to the application between a take and a submit (send side) or a take and a
 * release (receive side). Its memory is allocated once, when the channel is created, and reused by every exchange.
 *
 * <p>A send buffer holds one block per destination rank, block <i>i</i> going to rank <i>i</i> (of the remote
 * group, on a bipartite channel); a receive buffer holds one block per source rank, concatenated in rank order.
 * The memory is reached through {@link #buf()}, {@link #block(int)} (views made once, no allocation) or, for a
 * primitive array, the typed accessors ({@link #doubles()}, {@link #ints()}, ...).
 *
 * <p><b>Shared memory.</b> When the job runs over the shm transport, the channel does not take the window (below),
 * and a send block is larger than the transport's eager limit ({@link dev.tutti.SharedMemory#singleCopyAbove()},
 * 16 KiB by default), the send buffers are allocated
 * in the rank's shared arena ({@link #isShared()}): each block then reaches a rank of the same host with one copy,
 * made by the receiver straight out of this buffer into its receive buffer (instead of two, through the
 * transport's chunks). Such a buffer has no Java array: fill it through {@link #buf()}'s or {@link #block(int)}'s
 * {@link Buf#segment() segment}. The array accessors still work on it, but the first call moves the buffer to the
 * heap for good (its contents copied into a new array, its arena block freed, views from {@link #buf()} and
 * {@link #block(int)} taken before no longer its memory), and its exchanges take the transport's ordinary path.
 *
 * <p>On a channel (of any quality of service, intragroup or bipartite) whose ranks all share memory
 * (one host over shm, or threads of one JVM) and whose blocks are from 64 bytes to 256 KiB over shm (16 KiB between
 * threads of one JVM), it is the receive buffers that are shared ({@link #isShared()}): each sender writes its
 * block straight into them, one copy in all. Read them through {@link #buf()} or {@link #block(int)} (the views
 * change from one take to the next: take them again after each take); their array accessors return a copy of the
 * exchange, made at the first call after each take (a second copy, paid only by the application that asks for an
 * array).
 *
 * <p>Every other buffer (other transports, a full arena, BOOLEAN channels, blocks under 64 bytes, send buffers off
 * the window of blocks up to the eager limit, and the window's send buffers) is a Java array.
 *
 * <p>Every accessor refuses a buffer the application does not hold (already submitted, released, or the channel
 * closed): the channel may be writing it. Views and arrays obtained earlier cannot be checked; do not use them
 * after handing the buffer back.
 */
public final class ChannelBuffer {
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(ChannelBuffer.class, "state", State.class);
        } catch (final ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Which ring a buffer belongs to. */
    enum Side {
        SEND, RECEIVE;

        /** @return "send" or "receive", for messages */
        String noun() {
            return SEND == this ? "send" : "receive";
        }
    }

    /** Where a buffer is in its cycle; changed under the channel's lock. */
    enum State {
        /** Owned by the channel, ready to be taken (send) or filled (receive). */
        FREE,
        /** Held by the application. */
        TAKEN,
        /** Submitted to a time-driven channel, waiting for the next tick of its clock. */
        QUEUED,
        /** In an exchange that has not completed. */
        IN_FLIGHT,
        /** Filled by a completed exchange, not yet taken (receive side). */
        FULL,
        /** The channel is closed. */
        CLOSED
    }

    private final ChannelCore owner;
    private final Side side;
    private final Datatype type;
    private final int block;
    /** The Java array behind the buffer, or null while it lives in the shared arena ({@code shared}). */
    private Object array;
    private MemorySegment shared;
    private Buf buf;
    private final Buf[] blocks;
    private final int slot;
    /** Per source rank, 1 if its block of the last exchange was submitted for it (time-driven receive side). */
    private final byte[] fresh;
    /**
     * Written under the channel's lock by release stores (and FREE to TAKEN by a CAS without it, {@link #take}; a
     * confined channel's only thread writes by release stores alone), read by the application's accessors with
     * acquire loads (the ownership check needs no more: a store's full fence would cost every exchange several).
     */
    @SuppressWarnings("unused") // accessed through STATE
    private State state = State.FREE;
    private long exchange = -1;
    /** The exchange whose copy a receive buffer in shared memory holds in {@code array} ({@link #copyOfShared}). */
    private long copied = -1;
    /** The window path: the zone this receive buffer shows ({@link #show}). */
    private int zone = -1;
    private MemorySegment copyTarget;

    /**
     * @param slot   the buffer's position in its ring (the idle buffer of a time-driven channel: {@code depth})
     * @param flags  whether the buffer records which blocks are fresh (receive buffers of time-driven channels)
     * @param shared a zeroed block of the shared arena of {@code ranks * block} elements to live in, or null for a
     *               Java array
     */
    ChannelBuffer(final ChannelCore owner, final Side side, final Datatype type, final int ranks, final int block,
        final int slot, final boolean flags, final MemorySegment shared) {
        this.owner = owner;
        this.side = side;
        this.slot = slot;
        this.type = type;
        this.block = block;
        this.fresh = flags ? new byte[ranks] : null;
        this.blocks = new Buf[ranks];
        this.shared = shared;
        if (null == shared) {
            array = ChannelMemory.allocate(type, ranks * block);
            view(ChannelMemory.buf(array));
        } else {
            view(Buf.of(shared, type));
        }
    }

    /**
     * Shows another piece of shared memory as this receive buffer (the window path: each exchange lands in a zone
     * of its own, see {@link WindowExchanges}), through views made once per zone ({@link #zoneViews}); no
     * allocation. Called by the channel when it starts an exchange into this buffer.
     *
     * @param zone   the zone's memory, whole view and block views
     * @param number the zone's number
     */
    void show(final Zone zone, final int number) {
        shared = zone.memory();
        buf = zone.whole();
        System.arraycopy(zone.blocks(), 0, blocks, 0, blocks.length);
        this.zone = number;
    }

    /** @return the zone this receive buffer shows (the window path) */
    int zone() {
        return zone;
    }

    /** A landing zone of the window path as a receive buffer shows it: its memory and its views. */
    record Zone(MemorySegment memory, Buf whole, Buf[] blocks) {
    }

    /** @return the views of each zone of {@code memory}, as {@link #zoneViews(MemorySegment, Datatype, int, int)} */
    static Zone[] zoneViews(final MemorySegment[] memory, final Datatype type, final int ranks, final int block) {
        final Zone[] z = new Zone[memory.length];
        for (int i = 0; i < z.length; i++) {
            z[i] = zoneViews(memory[i], type, ranks, block);
        }
        return z;
    }

    /**
     * @return the views of zone memory {@code memory} as a buffer of {@code ranks} blocks of {@code block} elements
     */
    static Zone zoneViews(final MemorySegment memory, final Datatype type, final int ranks, final int block) {
        final Buf whole = Buf.of(memory, type);
        final Buf[] blocks = new Buf[ranks];
        for (int r = 0; r < ranks; r++) {
            blocks[r] = whole.slice(r * block, block);
        }
        return new Zone(memory, whole, blocks);
    }

    private void view(final Buf whole) {
        buf = whole;
        for (int r = 0; r < blocks.length; r++) {
            blocks[r] = whole.slice(r * block, block);
        }
    }

    /** @return the arena block the buffer lives in, or null if it is a Java array */
    MemorySegment sharedBlock() {
        return shared;
    }

    /**
     * Moves a buffer that lives in the shared arena to a new Java array, contents included (holding the channel's
     * lock, the buffer held by the application, so in no exchange).
     *
     * @return the arena block it left, for the channel to free
     */
    MemorySegment moveToHeap() {
        final MemorySegment left = shared;
        final Object a = ChannelMemory.allocate(type, blocks.length * block);
        final Buf heap = ChannelMemory.buf(a);
        heap.segment().copyFrom(left);
        array = a;
        shared = null;
        view(heap);
        return left;
    }

    ChannelCore owner() {
        return owner;
    }

    Side side() {
        return side;
    }

    int slot() {
        return slot;
    }

    /** @return the per-source freshness flags that an exchange fills, or null if every block is always fresh */
    byte[] freshFlags() {
        return fresh;
    }

    State state() {
        return (State) STATE.getAcquire(this);
    }

    void state(final State next) {
        STATE.setRelease(this, next);
    }

    /**
     * @param atomic whether other threads may race for the buffer: a CAS (the send ring's lock-free take), else a
     *               check and a release store (a confined channel's only thread)
     * @return whether this call took the buffer, FREE to TAKEN
     */
    boolean take(final boolean atomic) {
        return move(State.FREE, State.TAKEN, atomic);
    }

    /**
     * @param atomic as for {@link #take(boolean)} (a receive buffer's lock-free release)
     * @return whether this call gave the buffer back, TAKEN to FREE
     */
    boolean giveBack(final boolean atomic) {
        return move(State.TAKEN, State.FREE, atomic);
    }

    private boolean move(final State from, final State to, final boolean atomic) {
        if (atomic) {
            return STATE.compareAndSet(this, from, to);
        }
        if (from != state()) {
            return false;
        }
        state(to);
        return true;
    }

    void exchange(final long number) {
        exchange = number;
    }

    /** @return the exchange the buffer was last in, without the ownership check (for the channel) */
    long exchangeNumber() {
        return exchange;
    }

    /** The whole buffer without the ownership check: for the channel's own exchanges. */
    Buf raw() {
        return buf;
    }

    private void checkHeld(final String op) {
        final State s = state();
        if (State.TAKEN != s) {
            throw Errors.invalid(ErrorClass.BUFFER, "ChannelBuffer." + op, owner.where(), "the " + side.noun()
                + " buffer is " + s + ", expected one the application holds "
                + "(taken and not yet " + (Side.SEND == side ? "submitted" : "released") + ")");
        }
    }

    /** @return the whole buffer, every block ({@code ranks * blockCount} elements) */
    public Buf buf() {
        checkHeld("buf");
        return buf;
    }

    /**
     * Returns the block of one rank: the block sent to it (send side) or received from it (receive side).
     *
     * @param rank the rank, in the (remote, for a bipartite channel) group
     * @return the block's view
     */
    public Buf block(final int rank) {
        checkHeld("block");
        if (rank < 0 || rank >= blocks.length) {
            throw Errors.rank("ChannelBuffer.block", owner.where(), "rank", rank, blocks.length, "");
        }
        return blocks[rank];
    }

    /** @return the number of blocks (the size of the group that receives or sends them) */
    public int ranks() {
        return blocks.length;
    }

    /** @return elements per block */
    public int blockCount() {
        return 0 == blocks.length ? 0 : blocks[0].count();
    }

    /**
     * Returns the number of the exchange this buffer came from (receive side) or last went out in (send side, -1
     * before its first); exchange <i>k</i> on every rank meets exchange <i>k</i> on the others.
     *
     * @return the exchange number, from 0
     */
    public long exchange() {
        checkHeld("exchange");
        return exchange;
    }

    /**
     * Returns whether the block from {@code rank} carries data that rank submitted for this exchange. Always true on
     * a best-effort channel. On a time-driven channel an exchange starts at its tick with whatever each rank has
     * submitted by then: a rank that had submitted nothing sends a zero-filled block (every element 0, or false),
     * and this returns false for it.
     *
     * @param rank the source rank, in the (remote, for a bipartite channel) group
     * @return whether that rank's block is fresh
     * @throws dev.tutti.TuttiException of class {@link ErrorClass#BUFFER} for a send buffer or one not held; of
     *                                  class {@link ErrorClass#RANK} for a rank out of range
     */
    public boolean fresh(final int rank) {
        checkHeld("fresh");
        if (Side.RECEIVE != side) {
            throw Errors.invalid(ErrorClass.BUFFER, "ChannelBuffer.fresh", owner.where(), "the buffer is a send "
                + "buffer, expected a receive buffer (from takeReceive)");
        }
        if (rank < 0 || rank >= blocks.length) {
            throw Errors.rank("ChannelBuffer.fresh", owner.where(), "rank", rank, blocks.length, "");
        }
        return null == fresh || 0 != fresh[rank];
    }

    /**
     * Returns whether the buffer lives in shared memory (see the class comment): a send buffer in the arena, whose
     * blocks reach ranks of this host with one copy, and which has no Java array until an array accessor moves it to
     * the heap; or a receive buffer that senders write into, whose array accessors return a copy.
     *
     * @return true for a buffer in shared memory
     */
    public boolean isShared() {
        checkHeld("isShared");
        return null != shared;
    }

    /**
     * Returns the backing array. On a send buffer in the shared arena, the first call moves it to the heap; on a
     * receive buffer in shared memory, it is a copy of the buffer (see the class comment).
     *
     * @return the backing array ({@code double[]}, {@code int[]}, ...; {@code boolean[]} for BOOLEAN)
     */
    public Object array() {
        checkHeld("array");
        return heapArray();
    }

    private Object heapArray() {
        if (null != shared) {
            if (Side.RECEIVE == side) {
                return copyOfShared();
            }
            owner.moveToHeap(this);
        }
        return array;
    }

    /**
     * A receive buffer in shared memory has no array of its own: the array accessors return a copy of its current
     * exchange, made at the first call after each take (held by the application, so no exchange writes it).
     */
    private Object copyOfShared() {
        if (null == array) {
            array = ChannelMemory.allocate(type, blocks.length * block);
            copyTarget = ChannelMemory.buf(array).segment();
            copied = -1;
        }
        if (copied != exchange) {
            copyTarget.copyFrom(shared);
            copied = exchange;
        }
        return array;
    }

    /** @return the backing {@code double[]} @throws dev.tutti.TuttiException if the element type is not DOUBLE */
    public double[] doubles() {
        return typed("doubles", double[].class);
    }

    /** @return the backing {@code float[]} @throws dev.tutti.TuttiException if the element type is not FLOAT */
    public float[] floats() {
        return typed("floats", float[].class);
    }

    /** @return the backing {@code long[]} @throws dev.tutti.TuttiException if the element type is not LONG */
    public long[] longs() {
        return typed("longs", long[].class);
    }

    /** @return the backing {@code int[]} @throws dev.tutti.TuttiException if the element type is not INT */
    public int[] ints() {
        return typed("ints", int[].class);
    }

    /** @return the backing {@code byte[]} @throws dev.tutti.TuttiException if the element type is not BYTE */
    public byte[] bytes() {
        return typed("bytes", byte[].class);
    }

    private <T> T typed(final String op, final Class<T> type) {
        checkHeld(op);
        if (type != ChannelMemory.arrayClass(this.type)) {
            throw Errors.argument(ErrorClass.TYPE, "ChannelBuffer." + op, owner.where(), "datatype", this.type,
                "the type whose array " + op + "() returns (use array() or buf())");
        }
        return type.cast(heapArray());
    }

    @Override
    public String toString() {
        return side.noun() + " buffer of " + owner.where() + " (" + state() + ")";
    }
}
