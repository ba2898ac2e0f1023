package dev.tutti.runtime;

import dev.tutti.ErrorClass;
import dev.tutti.TuttiException;

import dev.tutti.internal.Errors;
import dev.tutti.internal.Failures;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The job's rendezvous: a PMI-style key-value service the launcher runs. Each rank connects, proves it knows the
 * job secret, publishes its endpoint, and receives the endpoints of all ranks once every rank has published (a
 * fence). Ranks use {@link RendezvousClient}.
 *
 * <p>Protocol (big-endian, {@link java.io.DataOutput} encoding; strings are a 16-bit length and UTF-8 bytes):
 * <pre>
 *   server: int SERVER_MAGIC, int VERSION, byte[32] serverNonce
 *   client: int CLIENT_MAGIC, int VERSION, int rank, int size, byte[32] clientNonce, string endpoint,
 *           byte[32] HMAC(secret, "tutti-rendezvous-client", serverNonce, rank, size, endpoint)
 *   server, zero or more of, in this order:
 *           'A' int registered, int size                         accepted (the rank now waits for the fence)
 *           'S' int missingCount, int listed, int[listed] ranks   still waiting for these ranks (every 0.5 s)
 *   and then one of:
 *           'T' int size, string[size] endpoints,
 *               byte[32] HMAC(secret, "tutti-rendezvous-server", clientNonce, rank, size, endpoints joined by LF)
 *           'E' byte kind (0 refused, 1 job failed), string message
 * </pre>
 * A connection whose answer is wrong is closed without a word and nothing it sent is used. A correct answer with a
 * bad request (rank out of range, wrong size, rank already registered) gets {@code 'E'} with a message that says
 * what is wrong. The table carries the server's own proof, so a rank never accepts endpoints from an impostor.
 *
 * <p>Implementation notes. One daemon acceptor thread, and one daemon thread per connection (the number of
 * connections still authenticating is capped, and each handshake read times out, so stray or silent clients
 * cannot block the service or exhaust it). Shared state ({@code endpoints}, {@code registered}, {@code complete},
 * {@code failure}) is guarded by {@code lock}; the last rank to register sets {@code complete} and notifies, and
 * every waiting handler then sends the table. While it waits, a handler probes its connection (1 ms timed reads
 * between 50 ms waits) so that a registered rank whose connection drops before the fence is noticed at once:
 * the rendezvous then fails, and every waiting rank receives an error naming that rank, rather than hanging until
 * its timeout. A failed rendezvous stays failed (the launcher tears the job down). {@link #close()} closes the
 * listener and every connection and joins the acceptor.
 */
public final class RendezvousServer implements AutoCloseable {
    static final int SERVER_MAGIC = 0x54525653;
    static final int CLIENT_MAGIC = 0x54525643;
    static final int VERSION = 1;
    static final String CLIENT_LABEL = "tutti-rendezvous-client";
    static final String SERVER_LABEL = "tutti-rendezvous-server";
    static final byte ACCEPTED = 'A';
    static final byte STATUS = 'S';
    static final byte TABLE = 'T';
    static final byte ERROR = 'E';
    static final byte ERROR_REFUSED = 0;
    static final byte ERROR_FAILED = 1;
    static final int MAX_ENDPOINT_BYTES = 1024;
    static final int MAX_LISTED_MISSING = 32;

    private static final int HANDSHAKE_TIMEOUT_MS = 10_000;
    private static final long STATUS_INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(500);
    private static final long WAIT_SLICE_MS = 50;
    private static final int MAX_UNAUTHENTICATED = 64;
    private static final dev.tutti.runtime.Log LOG = dev.tutti.runtime.Log.of(RendezvousServer.class);

    private final ServerSocket listener;
    private final String bindHost;
    private final int size;
    private final JobSecret secret;
    private final Thread acceptor;
    private final Set<Socket> connections = ConcurrentHashMap.newKeySet();
    private final AtomicInteger unauthenticated = new AtomicInteger();
    private final Object lock = new Object();
    private final String[] endpoints;
    private int registered;
    private boolean complete;
    private String failure;
    private boolean closed;

    private RendezvousServer(final ServerSocket listener, final String bindHost, final int size,
        final JobSecret secret) {
        this.listener = listener;
        this.bindHost = bindHost;
        this.size = size;
        this.secret = secret;
        this.endpoints = new String[size];
        this.acceptor = Thread.ofPlatform().name("tutti-rendezvous-accept").daemon(true).unstarted(this::acceptLoop);
    }

    /**
     * Starts listening on an ephemeral port of {@code bindHost}.
     *
     * @param bindHost the address to listen on ({@code 0.0.0.0} for remote ranks, loopback for local jobs)
     * @param size     the number of ranks that will register
     * @param secret   the job secret (hex) that ranks must prove
     * @return the running server
     * @throws TuttiException of class {@link ErrorClass#ARG} if {@code size < 1} or the secret is empty, of class
     *                        {@link ErrorClass#INTERN} if the address cannot be bound
     */
    public static RendezvousServer start(final String bindHost, final int size, final String secret) {
        return start(bindHost, 0, size, secret);
    }

    /**
     * Starts listening on a given port of {@code bindHost} (rank 0 of a job under another launcher, whose ranks
     * know the port in advance).
     *
     * @param bindHost the address to listen on
     * @param port     the port, or 0 for an ephemeral one
     * @param size     the number of ranks that will register
     * @param secret   the job secret (hex) that ranks must prove
     * @return the running server
     * @throws TuttiException as {@link #start(String, int, String)}, naming the port if it cannot be bound
     */
    public static RendezvousServer start(final String bindHost, final int port, final int size,
        final String secret) {
        if (size < 1) {
            throw Errors.argument(ErrorClass.ARG, "rendezvous start", null, "size", size, "size >= 1");
        }
        final JobSecret key;
        try {
            key = JobSecret.of(secret);
        } catch (final IllegalArgumentException e) {
            throw Errors.argument("rendezvous start", null, e);
        }
        final ServerSocket listener;
        try {
            listener = new ServerSocket(port, Math.max(50, size), InetAddress.getByName(bindHost));
        } catch (final IOException e) {
            throw Failures.io("rendezvous start", null, "cannot listen on bindHost=" + bindHost + ", port=" + port, e);
        }
        final RendezvousServer server = new RendezvousServer(listener, bindHost, size, key);
        server.acceptor.start();
        return server;
    }

    /**
     * Returns the port it listens on.
     *
     * @return the port
     */
    public int port() {
        return listener.getLocalPort();
    }

    /**
     * Returns the address ranks should be given ({@code TUTTI_RENDEZVOUS}): the bind host and the port, or, for a
     * wildcard bind, this host's IPv4 addresses with the port ({@link Addresses}; not its name, which many hosts map
     * to loopback).
     *
     * @return {@code host:port}, or a list {@code a:port,b:port,...}
     */
    public String address() {
        if (listener.getInetAddress().isAnyLocalAddress()) {
            final String list = Addresses.candidates(Addresses.advertisedToward(null).stream()
                .filter(a -> a instanceof Inet4Address).toList(), port());
            if (!list.isEmpty()) {
                return list;
            }
        }
        return new HostPort(bindHost, port()).toString();
    }

    /**
     * Returns the number of ranks that register.
     *
     * @return the job size
     */
    public int size() {
        return size;
    }

    /**
     * Returns the ranks that have not registered yet.
     *
     * @return the missing ranks in increasing order (empty once the fence is reached)
     */
    public int[] missingRanks() {
        synchronized (lock) {
            return missingLocked();
        }
    }

    /**
     * Waits until a rank has published its endpoint.
     *
     * @param rank      the rank
     * @param timeoutMs the longest wait
     * @return its endpoint, or null if it did not register in time or the rendezvous failed
     * @throws InterruptedException if the calling thread is interrupted
     */
    public String awaitEndpoint(final int rank, final long timeoutMs) throws InterruptedException {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        synchronized (lock) {
            while (null == endpoints[rank] && null == failure) {
                final long leftMs = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (leftMs <= 0) {
                    break;
                }
                lock.wait(leftMs);
            }
            return endpoints[rank];
        }
    }

    /**
     * Returns why the rendezvous failed (a rank dropped before the fence, {@link #abort}, {@link #close()}), or
     * null.
     *
     * @return the reason or null
     */
    public String failure() {
        synchronized (lock) {
            return failure;
        }
    }

    /**
     * Fails the rendezvous (for example because the launcher saw a rank exit before the fence): every waiting and
     * later rank receives an error with this reason. No effect once the fence is reached.
     *
     * @param reason what happened, naming the rank
     */
    public void abort(final String reason) {
        synchronized (lock) {
            if (!complete && null == failure) {
                failure = reason;
            }
            lock.notifyAll();
        }
    }

    /** Stops listening and drops connections; ranks still waiting receive an error or see the connection close. */
    @Override
    public void close() {
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
            if (!complete && null == failure) {
                failure = "the rendezvous was closed before every rank registered";
            }
            lock.notifyAll();
        }
        closeSocket(listener);
        for (final Socket s : connections) {
            closeSocket(s);
        }
        try {
            acceptor.join(TimeUnit.SECONDS.toMillis(5));
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void acceptLoop() {
        while (true) {
            final Socket s;
            try {
                s = listener.accept();
            } catch (final IOException e) {
                if (!listener.isClosed()) {
                    abort("the rendezvous stopped: accept failed: " + e);
                }
                return;
            }
            if (unauthenticated.incrementAndGet() > MAX_UNAUTHENTICATED) {
                unauthenticated.decrementAndGet();
                LOG.log(System.Logger.Level.WARNING, "rendezvous: more than {0} connections authenticating; "
                    + "dropped {1}", MAX_UNAUTHENTICATED, s.getRemoteSocketAddress());
                closeSocket(s);
                continue;
            }
            connections.add(s);
            final boolean stop;
            synchronized (lock) {
                stop = closed;
            }
            if (stop) {
                closeSocket(s);
                return;
            }
            Thread.ofPlatform().name("tutti-rendezvous-conn").daemon(true).start(() -> serve(s));
        }
    }

    private void serve(final Socket s) {
        int rank = -1;
        boolean authenticating = true;
        try {
            s.setSoTimeout(HANDSHAKE_TIMEOUT_MS);
            s.setTcpNoDelay(true);
            final DataInputStream in = new DataInputStream(new BufferedInputStream(s.getInputStream()));
            final DataOutputStream out = new DataOutputStream(new BufferedOutputStream(s.getOutputStream()));
            final byte[] nonce = JobSecret.newNonce();
            out.writeInt(SERVER_MAGIC);
            out.writeInt(VERSION);
            out.write(nonce);
            out.flush();
            final int magic = in.readInt();
            final int version = in.readInt();
            if (CLIENT_MAGIC != magic || VERSION != version) {
                LOG.log(System.Logger.Level.DEBUG, "rendezvous: dropped {0}: magic={1} version={2}",
                    s.getRemoteSocketAddress(), magic, version);
                return;
            }
            final int r = in.readInt();
            final int n = in.readInt();
            final byte[] clientNonce = readExactly(in, JobSecret.NONCE_BYTES);
            final int endpointLength = in.readUnsignedShort();
            if (endpointLength > MAX_ENDPOINT_BYTES) {
                LOG.log(System.Logger.Level.DEBUG, "rendezvous: dropped {0}: endpoint of {1} bytes",
                    s.getRemoteSocketAddress(), endpointLength);
                return;
            }
            final byte[] endpoint = readExactly(in, endpointLength);
            final byte[] answer = readExactly(in, JobSecret.MAC_BYTES);
            if (!JobSecret.matches(secret.mac(CLIENT_LABEL, nonce, r, n, endpoint), answer)) {
                LOG.log(System.Logger.Level.WARNING, "rendezvous: refused {0}: wrong answer to the job-secret "
                    + "challenge", s.getRemoteSocketAddress());
                return;
            }
            authenticating = false;
            unauthenticated.decrementAndGet();
            final Refusal refusal = register(r, n, new String(endpoint, StandardCharsets.UTF_8));
            if (null != refusal) {
                sendError(out, refusal.kind, refusal.message);
                return;
            }
            rank = r;
            final int now;
            synchronized (lock) {
                now = registered;
            }
            out.writeByte(ACCEPTED);
            out.writeInt(now);
            out.writeInt(size);
            out.flush();
            awaitFence(s, in, out, r, clientNonce);
        } catch (final IOException e) {
            if (rank >= 0) {
                dropped(rank, e);
            } else {
                LOG.log(System.Logger.Level.DEBUG, "rendezvous: connection from {0} ended before registering: {1}",
                    s.getRemoteSocketAddress(), e);
            }
        } finally {
            if (authenticating) {
                unauthenticated.decrementAndGet();
            }
            connections.remove(s);
            closeSocket(s);
        }
    }

    private void awaitFence(final Socket s, final DataInputStream in, final DataOutputStream out, final int rank,
        final byte[] clientNonce) throws IOException {
        long nextStatus = System.nanoTime() + STATUS_INTERVAL_NS;
        while (true) {
            final String[] table;
            final String failed;
            final int[] missing;
            synchronized (lock) {
                if (!complete && null == failure) {
                    try {
                        lock.wait(WAIT_SLICE_MS);
                    } catch (final InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IOException("rendezvous handler interrupted", e);
                    }
                }
                table = complete ? endpoints.clone() : null;
                failed = failure;
                missing = missingLocked();
            }
            if (null != table) {
                sendTable(out, rank, clientNonce, table);
                return;
            }
            if (null != failed) {
                sendError(out, ERROR_FAILED, failed);
                return;
            }
            probe(s, in);
            if (System.nanoTime() - nextStatus >= 0) {
                nextStatus += STATUS_INTERVAL_NS;
                out.writeByte(STATUS);
                out.writeInt(missing.length);
                final int listed = Math.min(missing.length, MAX_LISTED_MISSING);
                out.writeInt(listed);
                for (int i = 0; i < listed; i++) {
                    out.writeInt(missing[i]);
                }
                out.flush();
            }
        }
    }

    /** Detects a dropped connection: the client sends nothing after registering, so any read result is an end. */
    private static void probe(final Socket s, final DataInputStream in) throws IOException {
        s.setSoTimeout(1);
        final int b;
        try {
            b = in.read();
        } catch (final SocketTimeoutException stillConnected) {
            return; // the normal case: nothing to read, the client is still there
        }
        if (b < 0) {
            throw new EOFException("connection closed");
        }
        throw new IOException("unexpected byte " + b + " from the client after registration");
    }

    private Refusal register(final int rank, final int n, final String endpoint) {
        synchronized (lock) {
            if (null != failure) {
                return new Refusal(ERROR_FAILED, failure);
            }
            if (n != size) {
                return new Refusal(ERROR_REFUSED, "rank=" + rank + " says size=" + n + " but this job has size="
                    + size);
            }
            if (rank < 0 || rank >= size) {
                return new Refusal(ERROR_REFUSED, "rank=" + rank + " is out of range, expected 0.." + (size - 1));
            }
            if (null != endpoints[rank]) {
                return new Refusal(ERROR_REFUSED, "rank=" + rank + " is already registered (endpoint="
                    + endpoints[rank] + ")");
            }
            endpoints[rank] = endpoint;
            registered++;
            complete = registered == size;
            lock.notifyAll();
            return null;
        }
    }

    private void dropped(final int rank, final IOException cause) {
        synchronized (lock) {
            if (!complete && null == failure) {
                failure = "rank=" + rank + " (endpoint=" + endpoints[rank] + ") dropped its rendezvous connection "
                    + "before the fence (" + registered + " of " + size + " ranks registered): " + cause;
                lock.notifyAll();
            }
        }
    }

    private int[] missingLocked() {
        final int[] missing = new int[size - registered];
        int k = 0;
        for (int r = 0; r < size; r++) {
            if (null == endpoints[r]) {
                missing[k++] = r;
            }
        }
        return missing;
    }

    private void sendTable(final DataOutputStream out, final int rank, final byte[] clientNonce,
        final String[] table) throws IOException {
        out.writeByte(TABLE);
        out.writeInt(table.length);
        for (final String e : table) {
            writeString(out, e);
        }
        out.write(secret.mac(SERVER_LABEL, clientNonce, rank, table.length, tableBytes(table)));
        out.flush();
    }

    private static void sendError(final DataOutputStream out, final byte kind, final String message)
        throws IOException {
        out.writeByte(ERROR);
        out.writeByte(kind);
        writeString(out, message.length() > 4000 ? message.substring(0, 4000) : message);
        out.flush();
    }

    static void writeString(final DataOutputStream out, final String s) throws IOException {
        final byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeShort(b.length);
        out.write(b);
    }

    static byte[] readExactly(final DataInputStream in, final int n) throws IOException {
        final byte[] b = new byte[n];
        in.readFully(b);
        return b;
    }

    static byte[] tableBytes(final String[] table) {
        return String.join("\n", table).getBytes(StandardCharsets.UTF_8);
    }

    private static void closeSocket(final java.io.Closeable s) {
        try {
            s.close();
        } catch (final IOException e) {
            LOG.log(System.Logger.Level.DEBUG, "rendezvous: close failed: {0}", e);
        }
    }

    @Override
    public String toString() {
        return "RendezvousServer(port=" + port() + ", size=" + size + ")";
    }

    /** Why a registration is refused. */
    private record Refusal(byte kind, String message) {
    }
}
