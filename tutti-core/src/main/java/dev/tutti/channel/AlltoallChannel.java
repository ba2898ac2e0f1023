package dev.tutti.channel;

import dev.tutti.Comm;
import dev.tutti.Communicator;
import dev.tutti.Datatype;
import dev.tutti.ErrorClass;
import dev.tutti.Intercommunicator;
import dev.tutti.TuttiException;
import dev.tutti.internal.Errors;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * An alltoall channel: a named, persistent alltoall created once over a group and then run many times through two
 * rings of pre-allocated buffers (MPI/RT's alltoall collective channel).
 *
 * <pre>{@code
 * try (AlltoallChannel ch = AlltoallChannel.create(world, "transpose", Datatype.DOUBLE, 1024, 2)) {
 *     for (int step = 0; step < steps; step++) {
 *         ChannelBuffer out = ch.takeSend();          // an empty send buffer: block i goes to rank i
 *         fill(out.doubles());
 *         ch.submit(out);                             // exchange number step; out comes back once sent
 *         ChannelBuffer in = ch.takeReceive();        // blocks of ranks 0..p-1, concatenated
 *         use(in.doubles());
 *         ch.release(in);                             // the channel may fill it again
 *     }
 * }
 * }</pre>
 *
 * <p><b>Exchanges.</b> The <i>k</i>-th submit on a rank starts exchange <i>k</i>, which meets exchange <i>k</i> of
 * every other rank; receive buffers come back from {@link #takeReceive()} in exchange order. Between ranks that share
 * memory, senders write their blocks straight into the receive buffers (see Memory); otherwise each exchange is a
 * start of a persistent alltoall built once (MPI-4 {@code alltoallInit}, one per pair of ring buffers), moving data
 * straight between the ring buffers. On a time-driven channel the clock starts the exchanges instead: exchange
 * <i>k</i> at its tick, with the oldest buffer this rank submitted and not yet sent, or with zeros if there is
 * none ({@link ChannelBuffer#fresh(int)} tells the receivers). A channel has its
 * own message space (a private duplicate of the communicator, made at creation), so exchanges never interfere with
 * the communicator's collectives or point-to-point messages, however ranks interleave them.
 *
 * <p><b>Buffers and back-pressure.</b> A channel owns {@code depth} send and {@code depth} receive buffers, all
 * allocated at creation. A send buffer is the application's from {@link #takeSend()} until {@link
 * #submit(ChannelBuffer)}, then the channel's until its exchange completes. A receive buffer is filled by one
 * exchange and then waits, unread data intact, until the application takes it and {@link #release(ChannelBuffer)
 * releases} it. An exchange needs a free receive buffer, so a submit with none waits for a release ({@link
 * #trySubmit(ChannelBuffer)} returns false instead): nothing is dropped and nothing is overwritten before it is
 * released. A single-threaded program must therefore take and release receive buffers before it has {@code depth}
 * exchanges outstanding.
 *
 * <p><b>Memory.</b> Between ranks that share memory, blocks of 64 bytes and more move with one copy each; smaller
 * ones (which would share cache lines of a receive buffer between writers) through the slots of a persistent
 * alltoall, two copies with no message.
 * <ul>
 * <li>Channels of any quality of service, intragroup or bipartite, of blocks from 64 bytes up to 256 KiB (16 KiB
 * between threads of one JVM), when every rank shares memory with every other: the receive
 * buffers live in a {@link dev.tutti.SharedWindow}, and each sender writes its blocks straight into them; read them
 * through their segments, since their array accessors return copies. The window goes back once every rank has
 * closed the channel.</li>
 * <li>Larger blocks over the shm transport: the send buffers live in the rank's shared arena
 * ({@link dev.tutti.SharedMemory}), and the receiver copies each block out of the sender's buffer; fill them through
 * their segments, since an array accessor moves a buffer to the heap. Their arena blocks go back at {@link #close()},
 * except a block still in an abandoned exchange, which stays allocated (a receiver may still be copying out of
 * it).</li>
 * </ul>
 * {@link ChannelBuffer} says more. Everything else is Java arrays, and a full arena falls back to them.
 *
 * <p><b>Progress.</b> Like every nonblocking collective, an exchange advances while a thread of the rank waits in
 * Tutti; the channel's take and submit calls wait on its exchanges.
 *
 * <p><b>Closing.</b> {@link #close()} is local: later operations, and operations waiting in other threads, fail;
 * exchanges already submitted are waited for (up to the drain time, 10 s by default; they complete as soon as every
 * rank has submitted them); whatever is still in flight then is abandoned, counted in {@link ChannelStats#abandoned()},
 * and its buffers are never handed out. Close never waits longer than the drain time.
 *
 * <p><b>Failure.</b> A failed exchange (a rank that died or left, ranks whose arguments disagree) fails the channel:
 * every waiting and later operation throws a {@link TuttiException} naming the channel and, in its message, the
 * rank.
 *
 * <p>Thread-safety: every method may be called from any thread; submits are ordered by the order in which they
 * acquire the channel. A channel created with a {@link ChannelQos#confined() confined} QoS belongs to the thread
 * that created it instead: its takes, submits, releases, {@link #stats()} and {@link #close()} are refused from any
 * other thread, and cost less for it.
 */
public final class AlltoallChannel implements AutoCloseable {
    private static final Duration DEFAULT_DRAIN = Duration.ofSeconds(10);

    private final Comm parent;
    private final String name;
    private final Datatype type;
    private final int sendBlock;
    private final int recvBlock;
    private final int depth;
    private final ChannelQos qos;
    private final boolean bipartite;
    private final ChannelCore core;

    private AlltoallChannel(final Comm parent, final Comm priv, final String name, final String where,
        final Datatype type, final int sendBlock, final int recvBlock, final int depth, final ChannelQos qos) {
        this.parent = parent;
        this.name = name;
        this.type = type;
        this.sendBlock = sendBlock;
        this.recvBlock = recvBlock;
        this.depth = depth;
        this.qos = qos;
        this.bipartite = priv.isInter();
        final int ranks = bipartite ? priv.remoteSize() : priv.size();
        this.core = new ChannelCore(name, where, priv, type, ranks, sendBlock, ranks, recvBlock, depth, qos,
            qos.isConfined() ? Thread.currentThread() : null, () -> ChannelRegistry.remove(parent, name, this));
    }

    // ------------------------------------------------------------------------------------------- factories

    /**
     * Creates a best-effort intragroup channel; see {@link #create(Communicator, String, Datatype, int, int,
     * ChannelQos)}.
     *
     * @param comm       the communicator; collective over it
     * @param name       the channel's name, unique among this communicator's open channels
     * @param type       the element type (a primitive type)
     * @param blockCount elements per block (each rank sends one block to every rank), {@code >= 1}
     * @param depth      buffers per ring, {@code >= 1}
     * @return the channel
     */
    public static AlltoallChannel create(final Communicator comm, final String name, final Datatype type,
        final int blockCount, final int depth) {
        return create(comm, name, type, blockCount, depth, ChannelQos.bestEffort());
    }

    /**
     * Creates an intragroup channel (collective: every rank of {@code comm} calls it with matching arguments).
     * Every buffer holds {@code comm.size() * blockCount} elements.
     *
     * @param comm       the communicator
     * @param name       the channel's name, unique among this communicator's open channels
     * @param type       the element type (a primitive type: BYTE, BOOLEAN, CHAR, SHORT, INT, FLOAT, LONG, DOUBLE)
     * @param blockCount elements per block, {@code >= 1}
     * @param depth      buffers per ring, {@code >= 1}
     * @param qos        when exchanges run
     * @return the channel
     * @throws TuttiException before anything is sent, for an argument out of range or a name already open on
     *                        {@code comm}; on every rank, naming the rank, if ranks passed different arguments
     */
    public static AlltoallChannel create(final Communicator comm, final String name, final Datatype type,
        final int blockCount, final int depth, final ChannelQos qos) {
        final String op = "AlltoallChannel.create";
        if (null == comm) {
            throw Errors.argument(ErrorClass.COMM, op, null, "comm", null, "a communicator");
        }
        final String where = where(comm, name);
        checkCommon(op, where, comm, name, type, depth, qos);
        if (blockCount < 1 || (long) blockCount * comm.size() > Integer.MAX_VALUE - 8) {
            throw Errors.argument(ErrorClass.COUNT, op, where, "blockCount", blockCount, "1.." + (Integer.MAX_VALUE
                - 8) / comm.size() + " (a buffer holds size=" + comm.size() + " blocks)");
        }
        return open(op, where, comm, name, type, blockCount, blockCount, depth, qos);
    }

    /**
     * Creates a bipartite channel over an intercommunicator (collective over both groups): every rank sends block
     * <i>j</i> of its send buffer to rank <i>j</i> of the remote group and receives one block from every remote
     * rank, both groups at once. The two directions may have different block sizes, and one may be empty (0): a
     * rank of a group that sends nothing still submits its (empty) send buffer to start each exchange. Every rank of
     * one group passes the same counts, and the remote group the same counts swapped.
     *
     * @param inter          the intercommunicator
     * @param name           the channel's name, unique among this intercommunicator's open channels
     * @param type           the element type (a primitive type)
     * @param sendBlockCount elements this rank sends to each remote rank, {@code >= 0}
     * @param recvBlockCount elements this rank receives from each remote rank, {@code >= 0}
     * @param depth          buffers per ring, {@code >= 1}
     * @param qos            when exchanges run
     * @return the channel
     * @throws TuttiException before anything is sent, for an argument out of range (both counts 0 included) or a
     *                        name already open; on every rank that sees it, if ranks passed mismatched arguments
     */
    public static AlltoallChannel bipartite(final Intercommunicator inter, final String name, final Datatype type,
        final int sendBlockCount, final int recvBlockCount, final int depth, final ChannelQos qos) {
        final String op = "AlltoallChannel.bipartite";
        if (null == inter) {
            throw Errors.argument(ErrorClass.COMM, op, null, "inter", null, "an intercommunicator");
        }
        final String where = where(inter, name);
        checkCommon(op, where, inter, name, type, depth, qos);
        final long limit = (Integer.MAX_VALUE - 8L) / inter.remoteSize();
        if (sendBlockCount < 0 || sendBlockCount > limit) {
            throw Errors.argument(ErrorClass.COUNT, op, where, "sendBlockCount", sendBlockCount, "0.." + limit);
        }
        if (recvBlockCount < 0 || recvBlockCount > limit) {
            throw Errors.argument(ErrorClass.COUNT, op, where, "recvBlockCount", recvBlockCount, "0.." + limit);
        }
        if (0 == sendBlockCount && 0 == recvBlockCount) {
            throw Errors.expected(ErrorClass.COUNT, op, where, "sendBlockCount=0 and recvBlockCount=0",
                "at least one direction that moves data");
        }
        return open(op, where, inter, name, type, sendBlockCount, recvBlockCount, depth, qos);
    }

    /**
     * Finds an open channel of this rank by name.
     *
     * @param comm the communicator the channel was created over
     * @param name the name
     * @return the channel, or empty if none of that name is open on {@code comm}
     */
    public static Optional<AlltoallChannel> lookup(final Comm comm, final String name) {
        return null == comm || null == name ? Optional.empty() : Optional.ofNullable(ChannelRegistry.find(comm, name));
    }

    private static void checkCommon(final String op, final String where, final Comm comm, final String name,
        final Datatype type, final int depth, final ChannelQos qos) {
        if (null == name || name.isBlank()) {
            throw Errors.argument(ErrorClass.ARG, op, where, "name", null == name ? null : "\"" + name + "\"",
                "a non-blank name");
        }
        if (null == type || !ChannelMemory.supports(type)) {
            throw Errors.argument(ErrorClass.TYPE, op, where, "type", type,
                "a primitive type (BYTE, BOOLEAN, CHAR, SHORT, INT, FLOAT, LONG, DOUBLE)");
        }
        if (depth < 1) {
            throw Errors.argument(ErrorClass.ARG, op, where, "depth", depth, ">= 1");
        }
        if (null == qos) {
            throw Errors.argument(ErrorClass.ARG, op, where, "qos", null, "a ChannelQos");
        }
        if (comm.isFreed()) {
            throw Errors.invalid(ErrorClass.COMM, op, where, "the communicator is freed");
        }
    }

    private static AlltoallChannel open(final String op, final String where, final Comm comm, final String name,
        final Datatype type, final int sendBlock, final int recvBlock, final int depth, final ChannelQos qos) {
        ChannelRegistry.reserve(op, where, comm, name);
        AlltoallChannel channel = null;
        try {
            final Comm priv = comm instanceof Intercommunicator inter ? inter.dup() : ((Communicator) comm).dup();
            priv.setName(comm.name() + "/channel:" + name);
            try {
                ChannelAgreement.check(op, where, priv, name, type, sendBlock, recvBlock, qos);
            } catch (final TuttiException e) {
                try {
                    priv.free();
                } catch (final TuttiException f) {
                    e.addSuppressed(f);
                }
                throw e;
            }
            channel = new AlltoallChannel(comm, priv, name, where, type, sendBlock, recvBlock, depth, qos);
            channel.core.startClock();
            ChannelRegistry.bind(comm, name, channel);
            return channel;
        } finally {
            if (null == channel) {
                ChannelRegistry.remove(comm, name, null);
            }
        }
    }

    private static String where(final Comm comm, final String name) {
        return "channel=" + name + ", comm=" + comm.name() + ", rank=" + comm.rank();
    }

    // ------------------------------------------------------------------------------------------- operations

    /**
     * Takes an empty send buffer, waiting (and progressing earlier exchanges) until one is free.
     *
     * @return a send buffer the application holds until it submits it
     * @throws TuttiException if the channel is closed or has failed
     */
    public ChannelBuffer takeSend() {
        return core.takeSend("takeSend", -1);
    }

    /**
     * Takes an empty send buffer, waiting at most {@code timeout}.
     *
     * @param timeout how long to wait; 0 does not wait
     * @param unit    its unit
     * @return the buffer, or null if none became free in time
     */
    public ChannelBuffer takeSend(final long timeout, final TimeUnit unit) {
        return core.takeSend("takeSend", unit.toNanos(Math.max(0, timeout)));
    }

    /**
     * Submits a filled send buffer. Best effort: starts this rank's next exchange, waiting first for a free receive
     * buffer if every one is full or held. Time-driven: queues the buffer for the next exchange whose tick has not
     * started it yet (see {@link ChannelQos#timeDriven}) and returns at once.
     *
     * @param buffer a send buffer taken from this channel and not yet submitted
     * @throws TuttiException of class {@link ErrorClass#BUFFER} for a buffer not held from this channel's send
     *                        ring (another channel's, a receive buffer, submitted twice); if closed or failed
     */
    public void submit(final ChannelBuffer buffer) {
        core.submit("submit", buffer, true);
    }

    /**
     * Submits a filled send buffer if that needs no wait.
     *
     * @param buffer a send buffer taken from this channel and not yet submitted
     * @return true if the exchange started (time-driven: the buffer was queued, always); false if no receive buffer
     *         was free, the buffer staying the application's
     */
    public boolean trySubmit(final ChannelBuffer buffer) {
        return core.submit("trySubmit", buffer, false);
    }

    /**
     * Takes the next filled receive buffer, in exchange order, waiting until its exchange completes.
     *
     * @return the receive buffer, blocks of ranks 0.. concatenated, held until {@link #release released}
     * @throws TuttiException if the channel is closed or has failed (a rank that died is named)
     */
    public ChannelBuffer takeReceive() {
        return core.takeReceive("takeReceive", -1);
    }

    /**
     * Takes the next filled receive buffer, waiting at most {@code timeout}.
     *
     * @param timeout how long to wait; 0 only looks
     * @param unit    its unit
     * @return the buffer, or null if the next exchange did not complete in time
     */
    public ChannelBuffer takeReceive(final long timeout, final TimeUnit unit) {
        return core.takeReceive("takeReceive", unit.toNanos(Math.max(0, timeout)));
    }

    /**
     * Gives a read receive buffer back to the channel, which may fill it again.
     *
     * @param buffer a receive buffer taken from this channel and not yet released
     */
    public void release(final ChannelBuffer buffer) {
        core.release("release", buffer);
    }

    /** @return a snapshot of this rank's statistics */
    public ChannelStats stats() {
        return core.stats();
    }

    /** Closes the channel, draining exchanges in flight for at most 10 s (see the class comment). */
    @Override
    public void close() {
        close(DEFAULT_DRAIN);
    }

    /**
     * Closes the channel, draining exchanges in flight for at most {@code drain}.
     *
     * @param drain the longest wait for exchanges in flight; zero abandons them at once
     */
    public void close(final Duration drain) {
        if (null == drain || drain.isNegative()) {
            throw Errors.argument(ErrorClass.ARG, "close", core.where(), "drain", drain, "a duration >= 0");
        }
        core.close(drain.toNanos());
    }

    /** For tests: the origin of a time-driven channel's clock, in {@link System#nanoTime()}. */
    long clockOrigin() {
        return core.clockOrigin();
    }

    /** @return whether {@link #close()} was called */
    public boolean isClosed() {
        return core.isClosed();
    }

    // ------------------------------------------------------------------------------------------- inquiry

    /** @return the channel's name */
    public String name() {
        return name;
    }

    /** @return the communicator (or intercommunicator) the channel was created over */
    public Comm communicator() {
        return parent;
    }

    /** @return the element type */
    public Datatype datatype() {
        return type;
    }

    /** @return elements this rank sends to each rank */
    public int sendBlockCount() {
        return sendBlock;
    }

    /** @return elements this rank receives from each rank */
    public int recvBlockCount() {
        return recvBlock;
    }

    /** @return buffers per ring */
    public int depth() {
        return depth;
    }

    /** @return the quality of service */
    public ChannelQos qos() {
        return qos;
    }

    /** @return whether the channel runs over an intercommunicator */
    public boolean isBipartite() {
        return bipartite;
    }

    /** @return the channel's private communicator, where its exchanges run */
    Comm privateComm() {
        return core.comm();
    }

    @Override
    public String toString() {
        return "AlltoallChannel(" + core.where() + ", type=" + type + ", send=" + sendBlock + ", recv=" + recvBlock
            + ", depth=" + depth + ", " + qos + ")";
    }
}
