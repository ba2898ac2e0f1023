package dev.tutti.transport.tcp;

import dev.tutti.ErrorClass;
import dev.tutti.TuttiException;
import dev.tutti.internal.Errors;
import dev.tutti.internal.Failures;
import dev.tutti.internal.Settings;
import dev.tutti.runtime.Addresses;
import dev.tutti.runtime.JobSecret;
import dev.tutti.runtime.LaunchInfo;
import dev.tutti.runtime.MachineId;
import dev.tutti.runtime.RendezvousClient;
import dev.tutti.transport.InboundSink;
import dev.tutti.transport.Outbound;
import dev.tutti.transport.Transport;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Transport between processes on any hosts: one authenticated TCP connection per pair of ranks, framed as in
 * {@link FrameDescriptor}, with an eager protocol for messages up to the eager limit and a rendezvous protocol
 * above it: an RTS that carries the message's first bytes (its prefix, {@code tutti.tcp.rendezvousPrefix}, 64 KiB:
 * they cross the wire during the round trip that the rest waits for), the receiver's CTS, then DATA chunks.
 *
 * <p>Wire-up ({@link #connect}): open a listening socket, publish its endpoint and this machine's id
 * ({@link MachineId}, which tells the ranks that share this machine's CPUs, {@link #ranksOnMachine}) through the
 * job's rendezvous ({@link RendezvousClient}), receive every rank's, then connect to every lower rank and accept every
 * higher one, each connection authenticated both ways with the job secret ({@link TcpWireUp}).
 *
 * <p>Implementation notes (threading).
 * <ul>
 * <li>Sending threads write their frames to the socket themselves, under the connection's write lock, without
 * blocking ({@link TcpConnection}); what the socket does not take is finished by a waiting thread's poll or by the
 * I/O thread.</li>
 * <li>Reading: a thread that waits for a message reads the sockets itself ({@link #poll}, called by its wait loop),
 * as native MPIs progress in the calling thread: the message goes from the socket to the posted receive with no
 * thread hand-off, no wake-up and no allocation. One waiting thread polls at a time (the poll token), reading each
 * connection that carries messages with the transport's poll buffer; other waiting threads find the token taken and
 * spin on their own requests, which the holder completes. With several peers the holder first asks the kernel
 * which sockets have bytes, in one call, and reads only those ({@link ReadinessGate}). The I/O thread
 * ({@link TcpIoLoop}) is the fallback: it stands by while waiting threads poll often, and reads when nobody waits,
 * or when a waiting thread parks ({@link #pollBeforePark}), so that a parked thread is woken by the arrival it waits
 * for.</li>
 * <li>Who may read a connection when: any thread, but only while it holds the connection's read token (a CAS, never
 * waited for on the fast path: a thread that finds it taken skips the connection, since the holder reads it). All
 * the read state (partial header, the frame being read, the message it belongs to) is the token's, and the token's
 * release/acquire hands it over whole. So the bytes of one connection are parsed by one thread at a time, in wire
 * order, and the frames reach the sink ({@code arrive}, {@code arriveNow}) in wire order, which is send order: the
 * p2p engine's matching order per (source, context) holds whichever threads read. A byte read by a thread is parsed
 * by it before it releases the token (only a partial header is carried to the next reader), so no byte is lost.</li>
 * <li>The I/O thread answers RTS with CTS when it reads them, as does a waiting thread (queued like any frame, never
 * a blocking write), and streams rendezvous data. It never blocks on anything but {@code select}, and resumes
 * reading within a standby tick once the polls stop, so every connection is always drained and two ranks sending
 * large messages to each other cannot deadlock.</li>
 * <li>Eager payloads go from the read buffer straight into the receive buffer when the receive is posted: without
 * any object when the whole payload is in the read buffer ({@code arriveNow}), else as it streams in (even if the
 * receive is posted meanwhile); an unexpected one goes into a byte[] of exactly its size ({@link EagerInbound}).
 * An RTS's prefix is copied as an eager payload is. The rest of a rendezvous payload in native memory goes from the
 * sender's memory to the socket (a gathering write) and from the socket into the receiver's memory with no copy in
 * user space; so does the rest of one in a heap array where the connection has a {@link NativeSocket} (Linux, native
 * access enabled). Without it, heap arrays go through the sender's staging buffer and the reader's read buffer, the
 * direct memory a channel needs, chunk by chunk. Either way a large message needs no second copy of its size on
 * either side, and an unexpected one costs only its header and prefix. Socket options: {@link TcpSocketOptions}.</li>
 * <li>Failure: a connection that closes without BYE, or errors, makes the sink's {@code peerFailed} fire and fails
 * every rendezvous send and receive outstanding with that peer, with {@link ErrorClass#PROC_FAILED} naming the
 * rank. {@link #close()} sends BYE to every peer, waits (bounded) until every peer has said goodbye too and the
 * output is flushed, then stops the I/O thread. The peer's reader (its I/O thread, once nobody there waits) answers
 * BYE with its own at once, so the wait is one round trip, whatever the peer's program is doing.
 * {@link #abort()} sends ABORT instead (best effort)
 * and closes: the peers fail this rank at once.</li>
 * </ul>
 */
public final class TcpTransport implements Transport {
    private static final String OP = "tcp connect";
    /** Separates a rank's published addresses from its machine id ({@link MachineId}) in the rendezvous. */
    private static final String MACHINE_MARK = ";machine=";


    /** Staging bytes per connection, at least (rendezvous chunks are built in it). */
    static final int MIN_STAGING_BYTES = 128 * 1024;
    /** Staging bytes per connection, at most (larger eager frames go through the heap backlog). */
    static final int MAX_STAGING_BYTES = 1024 * 1024;

    private static final dev.tutti.runtime.Log LOG = dev.tutti.runtime.Log.of(TcpTransport.class);

    private final int rank;
    private final int size;
    private final int eagerLimit;
    /** Bytes of a rendezvous message sent with its RTS ({@link Settings#TCP_RENDEZVOUS_PREFIX}). */
    private final int rendezvousPrefix;
    private final TcpConnection[] connections;
    private final TcpIoLoop loop;
    private final AtomicBoolean closeStarted = new AtomicBoolean();
    private final Object settleLock = new Object();
    private volatile boolean closing;
    /** The connections that carry messages, which waiting threads read (set before traffic). */
    private volatile TcpConnection[] routed;
    /** Over {@code routed} when it applies, else null: a waiting thread reads only the ready ones (set with it). */
    private volatile ReadinessGate gate;
    /** The poll token: 1 while a waiting thread reads the connections (it then owns {@code pollIn}). */
    private final AtomicBoolean polling = new AtomicBoolean();
    private final ByteBuffer pollIn = ByteBuffer.allocateDirect(TcpIoLoop.READ_BUFFER_BYTES)
        .order(ByteOrder.LITTLE_ENDIAN);
    private final MemorySegment pollInSeg = MemorySegment.ofBuffer(pollIn);
    /**
     * Polls of waiting threads that keep waiting, less those of threads about to park (one of each per idle
     * iteration of a parking waiter, so its polls cancel out); written by the holder of the poll token, read by the
     * I/O thread (its standby).
     */
    private volatile long busyPolls;
    /** The job's ranks on this rank's machine, itself included, as their machine ids say (set by connect). */
    private int ranksOnMachine = 1;

    private TcpTransport(final LaunchInfo info, final InboundSink sink, final int eagerLimit,
        final SocketChannel[] channels) throws IOException {
        this.rank = info.rank();
        this.size = info.size();
        this.eagerLimit = eagerLimit;
        this.rendezvousPrefix = rendezvousPrefix("rank=" + rank + ", size=" + size);
        this.loop = new TcpIoLoop(this, rank);
        this.connections = new TcpConnection[size];
        final int staging = FrameDescriptor.HEADER_LENGTH
            + Math.min(MAX_STAGING_BYTES, Math.max(MIN_STAGING_BYTES, eagerLimit));
        for (int r = 0; r < size; r++) {
            if (r != rank) {
                connections[r] = new TcpConnection(this, rank, r, channels[r], sink, loop, staging,
                    rendezvousPrefix);
                connections[r].register();
            }
        }
        route();
        loop.start();
    }

    /** @return the setting {@link Settings#TCP_RENDEZVOUS_PREFIX}, checked */
    private static int rendezvousPrefix(final String where) {
        final int prefix = Settings.TCP_RENDEZVOUS_PREFIX.intValue();
        if (prefix < 0) {
            throw Errors.argument(ErrorClass.ARG, OP, where, Settings.TCP_RENDEZVOUS_PREFIX.name(), prefix, ">= 0");
        }
        return prefix;
    }

    /**
     * Wires this rank to every peer through the rendezvous and returns when all connections are up.
     *
     * @param info       the launch information
     * @param sink       where arrivals go
     * @param eagerLimit largest eager message in bytes
     * @return the transport
     * @throws TuttiException of class {@link ErrorClass#TIMEOUT} if the rendezvous or a peer cannot be reached in
     *                        time (naming what is missing), {@link ErrorClass#ARG} for a bad launch environment,
     *                        else as {@link RendezvousClient#exchange(LaunchInfo, String)}
     */
    public static TcpTransport connect(final LaunchInfo info, final InboundSink sink, final int eagerLimit) {
        return connect(info, sink, eagerLimit,
            Settings.TCP_CONNECT_TIMEOUT_MS.intValue());
    }

    /**
     * Like {@link #connect(LaunchInfo, InboundSink, int)} with an explicit wiring timeout (for tests).
     *
     * @param info             the launch information
     * @param sink             where arrivals go
     * @param eagerLimit       largest eager message in bytes
     * @param connectTimeoutMs longest time the wiring after the rendezvous may take
     * @return the transport
     * @throws TuttiException as {@link #connect(LaunchInfo, InboundSink, int)}
     */
    static TcpTransport connect(final LaunchInfo info, final InboundSink sink, final int eagerLimit,
        final long connectTimeoutMs) {
        final String where = "rank=" + info.rank() + ", size=" + info.size();
        if (eagerLimit < 0) {
            throw Errors.argument(ErrorClass.ARG, OP, where, "eagerLimit", eagerLimit, ">= 0");
        }
        rendezvousPrefix(where); // checked before the wiring
        final JobSecret secret;
        final InetAddress bind;
        final List<InetAddress> advertised;
        try {
            secret = JobSecret.of(info.secret());
            bind = bindAddress(info);
            advertised = bind.isAnyLocalAddress() ? Addresses.advertisedToward(rendezvousHost(info)) : List.of(bind);
        } catch (final IllegalArgumentException e) {
            throw Errors.argument(OP, where, e);
        } catch (final IOException e) {
            throw Failures.failed(ErrorClass.ARG, OP, where, "cannot choose the address to bind", e);
        }
        SocketChannel[] channels = null;
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            TcpSocketOptions.beforeConnect(server);
            server.bind(new InetSocketAddress(bind, 0), Math.max(64, info.size()));
            final String endpoint = Addresses.candidates(advertised, server.socket().getLocalPort())
                + MACHINE_MARK + MachineId.current();
            final String[] published = RendezvousClient.exchange(info, endpoint);
            final String[] endpoints = new String[published.length];
            final String[] machines = new String[published.length];
            for (int r = 0; r < published.length; r++) {
                final int mark = published[r].indexOf(MACHINE_MARK);
                endpoints[r] = mark < 0 ? published[r] : published[r].substring(0, mark);
                machines[r] = mark < 0 ? "" : published[r].substring(mark + MACHINE_MARK.length());
            }
            channels = TcpWireUp.wire(info, secret, server, endpoints, connectTimeoutMs);
            final TcpTransport t = over(info, sink, eagerLimit, channels);
            t.ranksOnMachine = MachineId.ranksSharing(machines, info.rank());
            channels = null;
            return t;
        } catch (final IOException e) {
            throw Failures.io(OP, where, "cannot listen or connect", e);
        } finally {
            if (null != channels) {
                for (final SocketChannel ch : channels) {
                    closeAfterFailure(ch);
                }
            }
        }
    }

    /**
     * Builds the transport over connections already wired and authenticated (by {@link TcpWireUp}).
     *
     * @param info       the launch information
     * @param sink       where arrivals go
     * @param eagerLimit largest eager message in bytes
     * @param channels   a connected channel per peer, null at this rank
     * @return the running transport
     * @throws IOException if a channel cannot be configured or registered
     */
    static TcpTransport over(final LaunchInfo info, final InboundSink sink, final int eagerLimit,
        final SocketChannel[] channels) throws IOException {
        return new TcpTransport(info, sink, eagerLimit, channels);
    }

    @Override
    public void send(final int destWorldRank, final Outbound message) {
        final TcpConnection c = destWorldRank >= 0 && destWorldRank < size ? connections[destWorldRank] : null;
        if (null == c) {
            throw Failures.internal("tcp send", "rank=" + rank, "destWorldRank=" + destWorldRank
                + " is not a tcp peer, expected 0.." + (size - 1) + " other than " + rank);
        }
        if (message.payload().byteSize() <= eagerLimit) {
            c.sendEager(message);
        } else {
            c.sendRendezvous(message);
        }
    }

    /**
     * Returns how many of the job's ranks run on this rank's machine (the same kernel: another network namespace
     * or container of it counts), itself included: they share its CPUs even when they are other hosts to the job.
     *
     * @return at least 1
     */
    public int ranksOnMachine() {
        return ranksOnMachine;
    }

    /**
     * Names the peers whose messages go over another transport (shared memory, on this host). This transport keeps
     * its connection to each, which still tells when the peer goes away, but then reports that the peer left
     * without naming tcp, which the pair does not use. Call once after wiring, before the first message.
     *
     * @param elsewhere by world rank, true for a peer served by another transport
     */
    public void routedElsewhere(final boolean[] elsewhere) {
        for (int r = 0; r < size && r < elsewhere.length; r++) {
            if (elsewhere[r] && null != connections[r]) {
                connections[r].unrouted();
            }
        }
        route();
    }

    /** Sets the connections that carry messages, and the gate over them (before traffic). */
    private void route() {
        routed = routedConnections();
        gate = ReadinessGate.over(routed);
    }

    private TcpConnection[] routedConnections() {
        int n = 0;
        final TcpConnection[] all = new TcpConnection[size];
        for (final TcpConnection c : connections) {
            if (null != c && c.isRouted()) {
                all[n++] = c;
            }
        }
        return java.util.Arrays.copyOf(all, n);
    }

    @Override
    public boolean trySendNow(final int destWorldRank, final int context, final int tag, final int typeCode,
        final MemorySegment payload) {
        final TcpConnection c = destWorldRank >= 0 && destWorldRank < size ? connections[destWorldRank] : null;
        return null != c && payload.byteSize() <= eagerLimit && c.trySendEagerNow(context, tag, typeCode, payload);
    }

    /**
     * Reads every connection that carries messages and that no other thread reads now, in the calling thread: a
     * waiting thread receives its message without a hand-off from the I/O thread. One thread polls at a time (the
     * poll token, with the one read buffer it owns); another that calls meanwhile returns 0 at once, since the
     * holder reads for it. Never blocks.
     *
     * @return the bytes read, 0 if none
     */
    @Override
    public int poll() {
        return poll(1);
    }

    /** Polls, then has the I/O thread take over reading if it stands by: the caller is about to park. */
    @Override
    public int pollBeforePark() {
        final int work = poll(-1);
        if (0 == work) {
            loop.waiterParks();
        }
        return work;
    }

    /**
     * One poll (see {@link #poll()}), counted into {@code busyPolls} as {@code busy}: +1 for a thread that keeps
     * waiting, -1 for one about to park; a busy poll while the I/O thread reads tells it (see
     * {@link TcpIoLoop#waiterPolls}).
     */
    private int poll(final int busy) {
        if (polling.get() || !polling.compareAndSet(false, true)) {
            return 0;
        }
        try {
            final long n = busyPolls + busy; // only the token's holder writes it
            busyPolls = n;
            if (busy > 0) {
                loop.waiterPolls(n);
            }
            final ReadinessGate g = gate;
            if (null != g) {
                return g.poll(pollIn, pollInSeg);
            }
            int work = 0;
            for (final TcpConnection c : routed) {
                work += c.poll(pollIn, pollInSeg);
            }
            return work;
        } finally {
            polling.set(false);
        }
    }

    /** @return the busy polls so far, net of the parking ones (the I/O thread's standby counts them) */
    long busyPolls() {
        return busyPolls;
    }

    /** I/O thread: watches, or stops watching, the connections that waiting threads read and write. */
    void watch(final boolean on) {
        for (final TcpConnection c : routed) {
            c.watch(on);
        }
    }

    /**
     * Says goodbye to every peer, waits until every peer has said goodbye too and the output is flushed (at most
     * {@link Settings#TCP_CLOSE_TIMEOUT_MS}), then stops the I/O thread and closes the connections. Sends and receives
     * still pending fail. Call it once every rank is done (after the finalize agreement), or peers see a failure.
     */
    @Override
    public void close() {
        if (!closeStarted.compareAndSet(false, true)) {
            return;
        }
        closing = true;
        for (final TcpConnection c : connections) {
            if (null != c) {
                c.sendBye();
            }
        }
        final long timeoutMs = Settings.TCP_CLOSE_TIMEOUT_MS.intValue();
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        try {
            while (!allSettled()) {
                final long leftMs = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (leftMs <= 0) {
                    LOG.log(System.Logger.Level.WARNING, "tcp close (rank={0}): not every peer said goodbye within "
                        + "{1} ms; closing anyway", rank, timeoutMs);
                    break;
                }
                synchronized (settleLock) {
                    settleLock.wait(Math.min(leftMs, 20)); // notified by settled(); bounded in case it raced
                }
            }
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            shutdown(Failures.unreachable("tcp transport", "rank=" + rank, "closed while a transfer was pending"));
        }
    }

    /**
     * Closes every connection at once, without goodbye (the peers see this rank fail), and stops the I/O thread;
     * pending sends and receives fail. For a process that is going down abnormally.
     */
    @Override
    public void abort() {
        closeStarted.set(true);
        closing = true;
        final TuttiException reason = Failures.unreachable("tcp transport", "rank=" + rank, "aborted");
        for (final TcpConnection c : connections) {
            if (null != c) {
                c.abort(reason);
            }
        }
        shutdown(reason);
    }

    private void shutdown(final TuttiException reason) {
        if (!loop.stop(TimeUnit.SECONDS.toMillis(5))) {
            LOG.log(System.Logger.Level.WARNING, "tcp close (rank={0}): the I/O thread did not stop", rank);
            return;
        }
        for (final TcpConnection c : connections) {
            if (null != c) {
                c.cleanUp(reason);
            }
        }
    }

    private boolean allSettled() {
        for (final TcpConnection c : connections) {
            if (null != c && !c.isSettled()) {
                return false;
            }
        }
        return true;
    }

    /** A connection may have settled: wake {@link #close()}. Never called with a write lock held. */
    void settled() {
        if (closing) {
            synchronized (settleLock) {
                settleLock.notifyAll();
            }
        }
    }

    boolean isClosing() {
        return closing;
    }

    /** The I/O thread died: fail every connection so that no wait hangs. */
    void loopFailed(final Throwable cause) {
        for (final TcpConnection c : connections) {
            if (null != c) {
                c.fail("lost its I/O thread", cause, null);
                c.cleanUp();
            }
        }
    }

    void closeProblem(final IOException e) {
        LOG.log(System.Logger.Level.WARNING, "tcp close (rank={0}): {1}", rank, e);
    }

    /** @return whether waiting threads read only the connections the kernel says are ready (for tests) */
    boolean readsReadyOnly() {
        return null != gate;
    }

    /** @return whether the I/O thread stands by, leaving the reading to waiting threads (for tests) */
    boolean ioThreadStandsBy() {
        return loop.inStandby();
    }

    /** @return the I/O thread (tests measure its allocations) */
    Thread ioThread() {
        return loop.thread();
    }

    /**
     * The address to listen on: {@link Settings#TCP_HOST} if set; loopback if the rendezvous is on loopback (a job
     * of one host); else every interface (the endpoint then lists this host's addresses, the one that routes to
     * the rendezvous first, see {@link Addresses}).
     */
    static InetAddress bindAddress(final LaunchInfo info) throws IOException {
        final String configured = Settings.TCP_HOST.raw();
        if (null != configured && !configured.isBlank()) {
            return InetAddress.getByName(configured.trim());
        }
        final InetAddress rendezvous = InetAddress.getByName(rendezvousHost(info));
        if (rendezvous.isLoopbackAddress()) {
            return InetAddress.getByName(rendezvous instanceof Inet6Address ? "::1" : "127.0.0.1");
        }
        return new InetSocketAddress(0).getAddress();
    }

    /** The host of the rendezvous's first candidate address. */
    private static String rendezvousHost(final LaunchInfo info) {
        return Addresses.parse(LaunchInfo.RENDEZVOUS_ENV, info.rendezvous()).getFirst().host();
    }

    private static void closeAfterFailure(final SocketChannel ch) {
        if (null != ch) {
            try {
                ch.close();
            } catch (final IOException e) {
                LOG.log(System.Logger.Level.DEBUG, "close failed: {0}", e);
            }
        }
    }

    @Override
    public String toString() {
        return "tcp(rank=" + rank + ", size=" + size + ", eagerLimit=" + eagerLimit + ")";
    }
}
