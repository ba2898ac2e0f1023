package dev.tutti.runtime;

import dev.tutti.ErrorClass;
import dev.tutti.TuttiException;
import dev.tutti.internal.Errors;
import dev.tutti.internal.Failures;
import dev.tutti.internal.Settings;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A rank's side of the rendezvous ({@link RendezvousServer}, which describes the protocol): publish this rank's
 * endpoint, wait for the fence, return every rank's endpoint.
 *
 * <p>The whole exchange is bounded by {@link Settings#RENDEZVOUS_TIMEOUT_MS} (default 60 s), and a timeout names
 * the rendezvous address and the ranks still missing when last heard. {@code TUTTI_RENDEZVOUS} may list several
 * candidates ({@code a:p,b:p}, see {@link Addresses}): the launcher advertises every address of its host, the one
 * that routes to the rank's host first, and they are tried in order, each connection attempt bounded by
 * {@value #ATTEMPT_MS} ms. Rounds over the candidates are repeated (the server may start after the rank) for a
 * connect window that depends on whether the rendezvous is known to be up ({@link LaunchInfo#rendezvousUp()}):
 * under {@code tutti run}, whose launcher serves it before any rank starts, {@value #CONNECT_WINDOW_MS} ms, so that
 * a rendezvous no candidate reaches fails quickly rather than after the whole timeout; under another launcher
 * ({@code srun}, {@code mpirun}), where rank 0 serves it and rank 0's JVM may start well after the others, the whole
 * timeout (a rank 0 that starts late is a rank that joins late). Either way the failure names every address tried
 * and its last error.
 */
public final class RendezvousClient {
    /**
     * {@link Settings#RENDEZVOUS_TIMEOUT_MS}'s name: the longest {@link #exchange(LaunchInfo, String)} may take, in
     * milliseconds. Code reads the registry; this constant and {@link #TIMEOUT_DEFAULT_MS} stay because a test holds
     * them equal to it.
     */
    public static final String TIMEOUT_PROP_NAME = Settings.RENDEZVOUS_TIMEOUT_MS.name();
    /** Default of {@link Settings#RENDEZVOUS_TIMEOUT_MS}: 60 s. */
    public static final int TIMEOUT_DEFAULT_MS = Settings.RENDEZVOUS_TIMEOUT_MS.intDefault();

    private static final String OP = "rendezvous";

    private static final long MAX_RETRY_PAUSE_NS = TimeUnit.MILLISECONDS.toNanos(500);
    /** Longest single connection attempt to one candidate (an address that drops packets costs this much). */
    static final int ATTEMPT_MS = 2_000;
    /** Longest time spent trying to connect to a rendezvous that is known to be up before the exchange fails. */
    static final int CONNECT_WINDOW_MS = Settings.RENDEZVOUS_CONNECT_WINDOW_MS;

    private RendezvousClient() {
    }

    /**
     * Publishes this rank's endpoint and returns every rank's, once all have published.
     *
     * @param info       the launch information (rank, size, rendezvous address, secret)
     * @param myEndpoint this rank's endpoint, {@code host:port}
     * @return the endpoints indexed by rank
     * @throws TuttiException of class {@link ErrorClass#TIMEOUT} if the rendezvous cannot be reached or the fence
     *                        is not reached in time (naming the missing ranks); {@link ErrorClass#ARG} if the
     *                        rendezvous refuses this rank (rank taken, wrong size, wrong secret) or the address is
     *                        malformed; {@link ErrorClass#PROC_FAILED} if the job failed before the fence (a rank
     *                        dropped out); {@link ErrorClass#INTERN} for a protocol or I/O error
     */
    public static String[] exchange(final LaunchInfo info, final String myEndpoint) {
        return exchange(info, myEndpoint, Settings.RENDEZVOUS_TIMEOUT_MS.intValue());
    }

    /**
     * Like {@link #exchange(LaunchInfo, String)} with an explicit timeout.
     *
     * @param info       the launch information
     * @param myEndpoint this rank's endpoint
     * @param timeoutMs  the longest the whole exchange may take
     * @return the endpoints indexed by rank
     * @throws TuttiException as for {@link #exchange(LaunchInfo, String)}
     */
    public static String[] exchange(final LaunchInfo info, final String myEndpoint, final long timeoutMs) {
        return exchange(info, myEndpoint, timeoutMs, CONNECT_WINDOW_MS);
    }

    /**
     * Like {@link #exchange(LaunchInfo, String, long)} with another connect window for a rendezvous known to be up
     * (for tests).
     */
    static String[] exchange(final LaunchInfo info, final String myEndpoint, final long timeoutMs,
        final long upWindowMs) {
        try (Session s = Session.open(info, myEndpoint, timeoutMs, upWindowMs)) {
            return s.awaitTable();
        }
    }

    /**
     * How long a rank keeps trying to connect to the rendezvous (see the class note).
     *
     * @param info       the launch information
     * @param timeoutMs  the longest the whole exchange may take
     * @param upWindowMs the window when the rendezvous is known to be up
     * @return {@code upWindowMs} if the rendezvous is known to be up, else {@code timeoutMs}
     */
    static long connectWindowMs(final LaunchInfo info, final long timeoutMs, final long upWindowMs) {
        return info.rendezvousUp() ? Math.min(upWindowMs, timeoutMs) : timeoutMs;
    }

    /**
     * One registration: open (connect, authenticate, publish), then {@link #awaitTable()}. Package-private so
     * that tests can drop a registered connection.
     */
    static final class Session implements AutoCloseable {
        private final LaunchInfo info;
        private final List<HostPort> candidates;
        private final JobSecret secret;
        private final long timeoutMs;
        private final long deadline;
        private final byte[] clientNonce = JobSecret.newNonce();
        private Socket socket;
        private DataInputStream in;
        private int registered = -1;
        private int missingCount = -1;
        private int[] missingListed = new int[0];

        private Session(final LaunchInfo info, final List<HostPort> candidates, final JobSecret secret,
            final long timeoutMs) {
            this.info = info;
            this.candidates = candidates;
            this.secret = secret;
            this.timeoutMs = timeoutMs;
            this.deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        }

        static Session open(final LaunchInfo info, final String myEndpoint, final long timeoutMs) {
            return open(info, myEndpoint, timeoutMs, CONNECT_WINDOW_MS);
        }

        static Session open(final LaunchInfo info, final String myEndpoint, final long timeoutMs,
            final long upWindowMs) {
            final List<HostPort> candidates;
            final JobSecret secret;
            try {
                candidates = Addresses.parse(LaunchInfo.RENDEZVOUS_ENV, info.rendezvous());
                secret = JobSecret.of(info.secret());
            } catch (final IllegalArgumentException e) {
                throw Errors.argument(OP, "rank=" + info.rank() + ", size=" + info.size(), e);
            }
            final byte[] endpoint = myEndpoint.getBytes(StandardCharsets.UTF_8);
            if (endpoint.length > RendezvousServer.MAX_ENDPOINT_BYTES) {
                throw Errors.argument(ErrorClass.ARG, OP, "rank=" + info.rank(), "endpoint bytes", endpoint.length,
                    "at most " + RendezvousServer.MAX_ENDPOINT_BYTES);
            }
            final Session s = new Session(info, candidates, secret, timeoutMs);
            try {
                s.connect(connectWindowMs(info, timeoutMs, upWindowMs));
                s.register(endpoint);
                return s;
            } catch (final RuntimeException e) {
                s.close();
                throw e;
            }
        }

        private void connect(final long windowMs) {
            final long windowEnd = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(windowMs);
            final Map<HostPort, String> errors = new LinkedHashMap<>();
            long pause = TimeUnit.MILLISECONDS.toNanos(10);
            IOException last = null;
            while (true) {
                for (final HostPort candidate : candidates) {
                    final long leftMs = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                    if (leftMs <= 0) {
                        throw unreachable(timeoutMs, errors, last);
                    }
                    final Socket s = new Socket();
                    try {
                        s.connect(new InetSocketAddress(candidate.host(), candidate.port()),
                            (int) Math.min(ATTEMPT_MS, leftMs));
                        s.setTcpNoDelay(true);
                        socket = s;
                        return;
                    } catch (final UnknownHostException e) {
                        closeQuietly(s, e);
                        if (1 == candidates.size()) {
                            throw Failures.failed(ErrorClass.ARG, OP, where(), "host=" + candidate.host()
                                + " is unknown", e);
                        }
                        errors.put(candidate, "unknown host");
                        last = e;
                    } catch (final IOException e) {
                        closeQuietly(s, e);
                        errors.put(candidate, String.valueOf(e.getMessage()));
                        last = e;
                    }
                }
                if (System.nanoTime() - windowEnd >= 0) {
                    throw unreachable(windowMs, errors, last);
                }
                LockSupport.parkNanos(Math.min(pause, Math.max(0, deadline - System.nanoTime())));
                pause = Math.min(2 * pause, MAX_RETRY_PAUSE_NS);
            }
        }

        /** No candidate accepted a connection within {@code windowMs}: names each and says what to check. */
        private TuttiException unreachable(final long windowMs, final Map<HostPort, String> errors,
            final IOException last) {
            final String check = info.rendezvousUp() ? "is a firewall between this host and the launcher's?"
                : "rank 0 serves it under this launcher: has rank 0 started, and is this port open to this host? ("
                    + Settings.RENDEZVOUS_TIMEOUT_MS.name() + " says how long to wait for it)";
            final String tried = tried(errors);
            return Failures.timeout(OP, where(), "cannot connect to the rendezvous", windowMs,
                (tried.isEmpty() ? "" : tried + "; ") + check, last);
        }

        /** The candidates tried and the last error of each. */
        private static String tried(final Map<HostPort, String> errors) {
            final StringBuilder b = new StringBuilder("tried");
            errors.forEach((a, e) -> b.append(' ').append(a).append(" (").append(e).append(')'));
            return errors.isEmpty() ? "" : b.toString();
        }

        private void register(final byte[] endpoint) {
            try {
                socket.setSoTimeout(timeoutLeftMs());
                in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
                final DataOutputStream out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
                final int magic = in.readInt();
                final int version = in.readInt();
                if (RendezvousServer.SERVER_MAGIC != magic || RendezvousServer.VERSION != version) {
                    throw Failures.protocol(OP, where(), "not a Tutti rendezvous (magic=0x"
                        + Integer.toHexString(magic) + ", version=" + version + ")");
                }
                final byte[] serverNonce = RendezvousServer.readExactly(in, JobSecret.NONCE_BYTES);
                out.writeInt(RendezvousServer.CLIENT_MAGIC);
                out.writeInt(RendezvousServer.VERSION);
                out.writeInt(info.rank());
                out.writeInt(info.size());
                out.write(clientNonce);
                out.writeShort(endpoint.length);
                out.write(endpoint);
                out.write(secret.mac(RendezvousServer.CLIENT_LABEL, serverNonce, info.rank(), info.size(),
                    endpoint));
                out.flush();
            } catch (final SocketTimeoutException e) {
                throw timeout(e);
            } catch (final IOException e) {
                throw Failures.io(OP, where(), "handshake failed", e);
            }
        }

        /** Waits for the fence and returns the verified table. */
        String[] awaitTable() {
            try {
                while (true) {
                    socket.setSoTimeout(timeoutLeftMs());
                    final int kind = in.readUnsignedByte();
                    switch (kind) {
                        case RendezvousServer.ACCEPTED -> {
                            registered = in.readInt();
                            in.readInt();
                        }
                        case RendezvousServer.STATUS -> readStatus();
                        case RendezvousServer.ERROR -> throw refused();
                        case RendezvousServer.TABLE -> {
                            return readTable();
                        }
                        default -> throw Failures.protocol(OP, where(), "unexpected message kind=" + kind
                            + " from the rendezvous");
                    }
                }
            } catch (final SocketTimeoutException e) {
                throw timeout(e);
            } catch (final EOFException e) {
                throw -1 == registered
                    ? Failures.failed(ErrorClass.ARG, OP, where(), "the rendezvous closed the connection without "
                        + "accepting this rank; the job secret (" + LaunchInfo.SECRET_ENV + ", or under another "
                        + "launcher the secret file, which every host of the job needs the same) is probably wrong", e)
                    : Failures.failed(ErrorClass.PROC_FAILED, OP, where(), "the rendezvous closed the connection "
                        + "before the fence", e);
            } catch (final IOException e) {
                throw Failures.io(OP, where(), "reading from the rendezvous failed", e);
            }
        }

        private void readStatus() throws IOException {
            missingCount = in.readInt();
            final int listed = in.readInt();
            if (listed < 0 || listed > RendezvousServer.MAX_LISTED_MISSING) {
                throw new IOException("status lists " + listed + " ranks");
            }
            final int[] ranks = new int[listed];
            for (int i = 0; i < listed; i++) {
                ranks[i] = in.readInt();
            }
            missingListed = ranks;
        }

        private TuttiException refused() throws IOException {
            final int kind = in.readUnsignedByte();
            final String message = readString();
            return RendezvousServer.ERROR_FAILED == kind
                ? Failures.failed(ErrorClass.PROC_FAILED, OP, where(), "job failed before the fence: " + message, null)
                : Errors.invalid(ErrorClass.ARG, OP, where(), "refused: " + message);
        }

        private String[] readTable() throws IOException {
            final int n = in.readInt();
            if (n != info.size()) {
                throw Failures.protocol(OP, where(), "table has " + n + " entries, expected size=" + info.size());
            }
            final String[] table = new String[n];
            for (int i = 0; i < n; i++) {
                table[i] = readString();
            }
            final byte[] proof = RendezvousServer.readExactly(in, JobSecret.MAC_BYTES);
            final byte[] expected = secret.mac(RendezvousServer.SERVER_LABEL, clientNonce, info.rank(), n,
                RendezvousServer.tableBytes(table));
            if (!JobSecret.matches(expected, proof)) {
                throw Errors.invalid(ErrorClass.ARG, OP, where(), "the rendezvous could not prove it knows the job "
                    + "secret; endpoint table rejected");
            }
            return table;
        }

        private String readString() throws IOException {
            return new String(RendezvousServer.readExactly(in, in.readUnsignedShort()), StandardCharsets.UTF_8);
        }

        private TuttiException timeout(final Throwable cause) {
            final String heard;
            if (missingCount >= 0) {
                heard = "still missing ranks=" + Arrays.toString(missingListed)
                    + (missingCount > missingListed.length ? " and " + (missingCount - missingListed.length)
                    + " more" : "") + " (" + missingCount + " of " + info.size() + " not registered)";
            } else if (registered >= 0) {
                heard = registered + " of " + info.size() + " ranks had registered when this rank did";
            } else {
                heard = "this rank was not registered yet";
            }
            return Failures.timeout(OP, where(), "fence not reached", timeoutMs, heard, cause);
        }

        private int timeoutLeftMs() {
            final long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (left <= 0) {
                throw timeout(null);
            }
            return (int) Math.min(Integer.MAX_VALUE, left);
        }

        private String where() {
            return "rank=" + info.rank() + ", size=" + info.size() + ", at=" + info.rendezvous();
        }

        private static void closeQuietly(final Socket s, final Throwable primary) {
            try {
                s.close();
            } catch (final IOException e) {
                primary.addSuppressed(e);
            }
        }

        @Override
        public void close() {
            final Socket s = socket;
            if (null != s) {
                try {
                    s.close();
                } catch (final IOException e) {
                    throw Failures.io(OP, where(), "close failed", e);
                }
            }
        }
    }
}
