package dev.tutti.transport.tcp;

import dev.tutti.ErrorClass;
import dev.tutti.TuttiException;
import dev.tutti.internal.Errors;
import dev.tutti.internal.Failures;
import dev.tutti.runtime.Addresses;
import dev.tutti.runtime.HostPort;
import dev.tutti.runtime.JobSecret;
import dev.tutti.runtime.LaunchInfo;
import dev.tutti.internal.Settings;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Opens one authenticated connection per pair of ranks: each rank connects to every lower rank and accepts every
 * higher one, so no pair is connected twice.
 *
 * <p>Handshake (blocking, with timeouts, before the connection joins the I/O loop; little-endian):
 * <pre>
 *   acceptor  -&gt; connector: int ACCEPTOR_MAGIC, int VERSION, int acceptorRank, byte[32] nonceA
 *   connector -&gt; acceptor:  int CONNECTOR_MAGIC, int VERSION, int connectorRank, int acceptorRank,
 *                           byte[32] nonceC, byte[32] HMAC(secret, "tutti-tcp-connector", nonceA, c, a)
 *   acceptor  -&gt; connector: byte[32] HMAC(secret, "tutti-tcp-acceptor", nonceC, a, c)
 * </pre>
 * Both sides prove the job secret to each other against a fresh nonce; the secret never travels. The acceptor
 * closes any connection whose answer is wrong, whose ranks are impossible, or that duplicates a connected peer,
 * without reading past the handshake: nothing such a connection sends reaches the sink. A peer's endpoint may
 * list several addresses ({@link Addresses}); the connector tries them in order, each attempt bounded, and
 * retries until the deadline if the acceptor cannot prove the secret. A peer none of whose addresses accepts a
 * connection within {@value #CONNECT_WINDOW_MS} ms (its listener is open before it publishes them) fails the
 * wiring at once, naming every address and its error.
 *
 * <p>Implementation notes. The calling thread connects to the lower ranks one after the other; a daemon thread
 * accepts, and every accepted connection is authenticated on its own short-lived daemon thread (at most
 * {@value #MAX_HANDSHAKING} at once), so a silent stray client delays nobody. Accepted peers are recorded under
 * this object's monitor. Connecting only to lower ranks while accepting concurrently cannot deadlock.
 */
final class TcpWireUp {
    private static final String OP = "tcp connect";

    static final int ACCEPTOR_MAGIC = 0x54555041;
    static final int CONNECTOR_MAGIC = 0x54555043;
    static final int VERSION = 1;
    static final String CONNECTOR_LABEL = "tutti-tcp-connector";
    static final String ACCEPTOR_LABEL = "tutti-tcp-acceptor";
    static final int HELLO_BYTES = 12 + JobSecret.NONCE_BYTES;
    static final int CONNECT_BYTES = 16 + JobSecret.NONCE_BYTES + JobSecret.MAC_BYTES;

    private static final int MAX_HANDSHAKING = 64;
    private static final int MAX_HANDSHAKE_MS = 10_000;
    private static final long RETRY_PAUSE_NS = TimeUnit.MILLISECONDS.toNanos(50);
    /** Longest single connection attempt to one of a peer's addresses. */
    private static final int ATTEMPT_MS = 2_000;
    /** A peer none of whose addresses accepts a connection for this long is unreachable: the wiring fails. */
    static final int CONNECT_WINDOW_MS = 5_000;
    private static final byte[] NOTHING = new byte[0];
    private static final dev.tutti.runtime.Log LOG = dev.tutti.runtime.Log.of(TcpWireUp.class);

    private final LaunchInfo info;
    private final JobSecret secret;
    private final ServerSocketChannel server;
    private final String[] endpoints;
    private final long timeoutMs;
    private final long deadline;
    private final SocketChannel[] channels;
    private final String[] lastError;
    private final AtomicInteger handshaking = new AtomicInteger();
    private int accepted;
    private int refused;
    private String acceptError;
    private boolean finished;

    private TcpWireUp(final LaunchInfo info, final JobSecret secret, final ServerSocketChannel server,
        final String[] endpoints, final long timeoutMs) {
        this.info = info;
        this.secret = secret;
        this.server = server;
        this.endpoints = endpoints;
        this.timeoutMs = timeoutMs;
        this.deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        this.channels = new SocketChannel[info.size()];
        this.lastError = new String[info.size()];
    }

    /**
     * Connects this rank to every other.
     *
     * @param info      the launch information
     * @param secret    the job secret
     * @param server    this rank's listening socket (blocking); closed on return
     * @param endpoints every rank's endpoint
     * @param timeoutMs the longest the wiring may take
     * @return a connected, authenticated, blocking channel per peer (null at this rank)
     * @throws TuttiException of class {@link ErrorClass#TIMEOUT} naming the ranks not connected in time
     */
    static SocketChannel[] wire(final LaunchInfo info, final JobSecret secret, final ServerSocketChannel server,
        final String[] endpoints, final long timeoutMs) {
        return new TcpWireUp(info, secret, server, endpoints, timeoutMs).run();
    }

    private SocketChannel[] run() {
        final int self = info.rank();
        final int expected = info.size() - 1 - self;
        Thread acceptor = null;
        boolean ok = false;
        try {
            if (expected > 0) {
                acceptor = Thread.ofPlatform().name("tutti-tcp-accept-rank" + self).daemon(true)
                    .start(this::acceptLoop);
            }
            for (int r = 0; r < self; r++) {
                final SocketChannel ch = connectTo(r);
                synchronized (this) {
                    channels[r] = ch;
                }
            }
            synchronized (this) {
                while (accepted < expected) {
                    final long leftMs = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                    if (leftMs <= 0) {
                        throw missing(null);
                    }
                    wait(leftMs);
                }
                ok = true;
                return channels.clone();
            }
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw Failures.interrupted(OP, where(), "connecting", e);
        } finally {
            synchronized (this) {
                finished = true;
                if (!ok) {
                    for (final SocketChannel ch : channels) {
                        closeQuietly(ch);
                    }
                }
            }
            closeQuietly(server);
            if (null != acceptor) {
                try {
                    acceptor.join(TimeUnit.SECONDS.toMillis(5));
                } catch (final InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    private SocketChannel connectTo(final int rank) {
        final List<HostPort> candidates;
        try {
            candidates = Addresses.parse("endpoint of rank " + rank, endpoints[rank]);
        } catch (final IllegalArgumentException e) {
            throw Failures.failed(ErrorClass.INTERN, OP, where(), "the rendezvous gave an unusable endpoint", e);
        }
        final long windowEnd = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CONNECT_WINDOW_MS);
        final Map<HostPort, String> errors = new LinkedHashMap<>();
        boolean answered = false;
        while (true) {
            for (final HostPort hp : candidates) {
                final int leftMs = leftMs();
                if (leftMs <= 0) {
                    throw missing(rank);
                }
                SocketChannel ch = null;
                try {
                    ch = SocketChannel.open();
                    TcpSocketOptions.beforeConnect(ch);
                    ch.socket().connect(new InetSocketAddress(hp.host(), hp.port()), Math.min(leftMs, ATTEMPT_MS));
                    answered = true;
                    ch.socket().setSoTimeout(Math.min(leftMs, MAX_HANDSHAKE_MS));
                    final String refusal = handshakeAsConnector(ch, rank, hp);
                    if (null == refusal) {
                        return ch;
                    }
                    errors.put(hp, refusal);
                } catch (final IOException e) {
                    errors.put(hp, e.toString());
                }
                recordError(rank, errors.toString());
                closeQuietly(ch);
            }
            if (!answered && System.nanoTime() - windowEnd >= 0) {
                throw Failures.failed(ErrorClass.TIMEOUT, OP, where(), "rank " + rank + " cannot be reached at any "
                    + "of its " + candidates.size() + " address(es) within " + CONNECT_WINDOW_MS + " ms: " + errors
                    + "; is a firewall between the hosts? (" + Settings.TCP_HOST.envName() + " chooses the address "
                    + "a rank advertises)", null);
            }
            LockSupport.parkNanos(RETRY_PAUSE_NS);
        }
    }

    private String handshakeAsConnector(final SocketChannel ch, final int acceptor, final HostPort at)
        throws IOException {
        final InputStream in = ch.socket().getInputStream();
        final ByteBuffer hello = readExactly(in, HELLO_BYTES);
        final int magic = hello.getInt();
        final int version = hello.getInt();
        final int rank = hello.getInt();
        if (ACCEPTOR_MAGIC != magic || VERSION != version || rank != acceptor) {
            return "endpoint " + at + " is not rank " + acceptor + " of this job (magic=0x"
                + Integer.toHexString(magic) + ", version=" + version + ", rank=" + rank + ")";
        }
        final byte[] nonceA = new byte[JobSecret.NONCE_BYTES];
        hello.get(nonceA);
        final byte[] nonceC = JobSecret.newNonce();
        final ByteBuffer connect = ByteBuffer.allocate(CONNECT_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        connect.putInt(CONNECTOR_MAGIC).putInt(VERSION).putInt(info.rank()).putInt(acceptor).put(nonceC)
            .put(secret.mac(CONNECTOR_LABEL, nonceA, info.rank(), acceptor, NOTHING)).flip();
        writeFully(ch, connect);
        final byte[] proof = new byte[JobSecret.MAC_BYTES];
        readExactly(in, JobSecret.MAC_BYTES).get(proof);
        if (!JobSecret.matches(secret.mac(ACCEPTOR_LABEL, nonceC, acceptor, info.rank(), NOTHING), proof)) {
            return "rank " + acceptor + " at " + at + " could not prove the job secret";
        }
        return null;
    }

    private void acceptLoop() {
        while (true) {
            final SocketChannel ch;
            try {
                ch = server.accept();
            } catch (final IOException e) {
                if (server.isOpen()) {
                    synchronized (this) {
                        acceptError = e.toString(); // reported by run() when the wiring times out
                    }
                }
                return; // else the listening socket was closed: wiring is over
            }
            if (handshaking.incrementAndGet() > MAX_HANDSHAKING) {
                handshaking.decrementAndGet();
                refuse(ch, "too many connections authenticating at once");
                continue;
            }
            Thread.ofPlatform().name("tutti-tcp-handshake-rank" + info.rank()).daemon(true).start(() -> {
                try {
                    handshakeAsAcceptor(ch);
                } finally {
                    handshaking.decrementAndGet();
                }
            });
        }
    }

    private void handshakeAsAcceptor(final SocketChannel ch) {
        final int self = info.rank();
        final int peer;
        try {
            final int leftMs = leftMs();
            if (leftMs <= 0) {
                refuse(ch, "wiring deadline passed");
                return;
            }
            ch.socket().setSoTimeout(Math.min(leftMs, MAX_HANDSHAKE_MS));
            final byte[] nonceA = JobSecret.newNonce();
            final ByteBuffer hello = ByteBuffer.allocate(HELLO_BYTES).order(ByteOrder.LITTLE_ENDIAN);
            hello.putInt(ACCEPTOR_MAGIC).putInt(VERSION).putInt(self).put(nonceA).flip();
            writeFully(ch, hello);
            final ByteBuffer connect = readExactly(ch.socket().getInputStream(), CONNECT_BYTES);
            final int magic = connect.getInt();
            final int version = connect.getInt();
            peer = connect.getInt();
            final int target = connect.getInt();
            final byte[] nonceC = new byte[JobSecret.NONCE_BYTES];
            final byte[] answer = new byte[JobSecret.MAC_BYTES];
            connect.get(nonceC).get(answer);
            if (CONNECTOR_MAGIC != magic || VERSION != version || target != self || peer <= self
                || peer >= info.size()) {
                refuse(ch, "not a connector of this job (magic=0x" + Integer.toHexString(magic) + ", version="
                    + version + ", rank=" + peer + ", target=" + target + ")");
                return;
            }
            if (!JobSecret.matches(secret.mac(CONNECTOR_LABEL, nonceA, peer, self, NOTHING), answer)) {
                refuse(ch, "wrong answer to the job-secret challenge (claimed rank=" + peer + ")");
                return;
            }
            synchronized (this) {
                if (finished || null != channels[peer]) {
                    refuse(ch, finished ? "wiring is over" : "rank " + peer + " is already connected");
                    return;
                }
            }
            writeFully(ch, ByteBuffer.wrap(secret.mac(ACCEPTOR_LABEL, nonceC, self, peer, NOTHING)));
        } catch (final IOException e) {
            refuse(ch, e.toString());
            return;
        }
        synchronized (this) {
            if (finished || null != channels[peer]) {
                closeQuietly(ch);
                return;
            }
            channels[peer] = ch;
            accepted++;
            notifyAll();
        }
    }

    private void refuse(final SocketChannel ch, final String why) {
        synchronized (this) {
            refused++;
        }
        String from = "?";
        try {
            from = String.valueOf(ch.getRemoteAddress());
        } catch (final IOException e) {
            from = e.toString();
        }
        LOG.log(System.Logger.Level.WARNING, "{0}: refused connection from {1}: {2}", Errors.at(OP, where()), from,
            why);
        closeQuietly(ch);
    }

    private synchronized void recordError(final int rank, final String error) {
        lastError[rank] = error;
    }

    private synchronized TuttiException missing(final Integer connecting) {
        final List<Integer> absent = new ArrayList<>();
        final StringBuilder errors = new StringBuilder();
        for (int r = 0; r < channels.length; r++) {
            if (r != info.rank() && null == channels[r]) {
                absent.add(r);
                if (null != lastError[r]) {
                    errors.append("; rank ").append(r).append(": ").append(lastError[r]);
                }
            }
        }
        return Failures.timeout(OP, where(), "no authenticated connection with ranks=" + absent, timeoutMs,
            (null != connecting ? "connecting to rank " + connecting + " at " + endpoints[connecting] + "; " : "")
            + "refused " + refused + " connection attempt(s)"
            + (null != acceptError ? "; accepting failed: " + acceptError : "") + errors, null);
    }

    private int leftMs() {
        return (int) Math.max(0, Math.min(Integer.MAX_VALUE,
            TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
    }

    private String where() {
        return "rank=" + info.rank() + ", size=" + info.size() + ", job=" + info.jobId();
    }

    private static ByteBuffer readExactly(final InputStream in, final int n) throws IOException {
        final byte[] b = new byte[n];
        new DataInputStream(in).readFully(b);
        return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static void writeFully(final SocketChannel ch, final ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            ch.write(b);
        }
    }

    private static void closeQuietly(final java.io.Closeable c) {
        if (null == c) {
            return;
        }
        try {
            c.close();
        } catch (final IOException e) {
            LOG.log(System.Logger.Level.DEBUG, "close failed: {0}", e);
        }
    }
}
