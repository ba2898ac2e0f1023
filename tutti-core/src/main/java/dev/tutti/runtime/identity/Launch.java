package dev.tutti.runtime.identity;

import dev.tutti.ErrorClass;
import dev.tutti.Tutti;
import dev.tutti.TuttiException;
import dev.tutti.internal.Errors;
import dev.tutti.internal.Failures;
import dev.tutti.runtime.HostPort;
import dev.tutti.runtime.LaunchInfo;
import dev.tutti.runtime.RendezvousServer;
import dev.tutti.runtime.SecretFile;
import dev.tutti.internal.Settings;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collections;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * How a process joins its job: who it is ({@link Identities}) and a {@link LaunchInfo} whose rendezvous is
 * reachable. Under {@code tutti run} the launcher serves the rendezvous and hands out the secret. Under another
 * launcher rank 0 serves it (a {@link RendezvousServer} in its process, open until {@link #close()}) and the job
 * secret is {@code TUTTI_JOB_SECRET} or derived from the per-user {@link SecretFile} and the job id, so
 * authentication stays on. Where rank 0 serves ({@link Settings#RENDEZVOUS}, parsed by {@link #plan}):
 * <ul>
 * <li>unset: at the launcher's rendezvous host ({@link Identity#host()}) on {@link #derivedPort(String)};</li>
 * <li>{@code tcp://host:port} or {@code host:port}: there;</li>
 * <li>{@code env://}: at {@code MASTER_ADDR:MASTER_PORT};</li>
 * <li>{@code file:///dir}: on an ephemeral port, whose address rank 0 writes to {@code dir/tutti-<job>.rendezvous}
 * (written to a temporary file and renamed, so a reader sees all of it or nothing) and the others read.</li>
 * </ul>
 */
public final class Launch implements AutoCloseable {
    /** The first port of the derived range. */
    public static final int PORT_BASE = 20_000;
    /** The number of ports in the derived range: 20000-29999, below Linux's ephemeral ports (32768 and up). */
    public static final int PORT_SPAN = 10_000;

    private static final String OP = "init";
    private static final String ENV_SCHEME = "env://";
    private static final String FILE_SCHEME = "file://";

    private final Identity identity;
    private final LaunchInfo info;
    private final RendezvousServer server;
    private final Path addressFile;

    private Launch(final Identity identity, final LaunchInfo info, final RendezvousServer server,
        final Path addressFile) {
        this.identity = identity;
        this.info = info;
        this.server = server;
        this.addressFile = addressFile;
    }

    /**
     * Where a job under another launcher meets: a fixed address ({@code dir} null) or a shared directory.
     *
     * @param address the rendezvous address, or null in file mode
     * @param dir     the shared directory of file mode, or null
     * @param jobId   the job id in force ({@code TUTTI_JOB_ID}, else the launcher's)
     * @param why     how it was chosen, for {@code tutti info} and messages
     */
    public record Plan(HostPort address, Path dir, String jobId, String why) {
    }

    /**
     * Joins the job of this process's environment.
     *
     * @param env the environment
     * @return the launch, or null for a job of one rank (no launcher, or a launcher's job of one)
     * @throws TuttiException if the environment is inconsistent, the secret file is unusable, or the rendezvous
     *                        cannot be served or found
     */
    public static Launch join(final Map<String, String> env) {
        return join(env, SecretFile.path(), Settings.RENDEZVOUS_TIMEOUT_MS.intValue());
    }

    /**
     * As {@link #join(Map)} with the secret file and the timeout given (for tests).
     *
     * @param env        the environment
     * @param secretFile the per-user secret file
     * @param timeoutMs  how long file mode waits for rank 0's address
     * @return the launch, or null for a job of one rank
     */
    public static Launch join(final Map<String, String> env, final Path secretFile, final long timeoutMs) {
        final Identity id = Identities.detect(env).chosen();
        if (null == id) {
            return null;
        }
        if ("tutti".equals(id.source())) {
            return new Launch(id, LaunchInfo.fromEnvironment(env), null, null);
        }
        if (1 == id.size()) {
            return null;
        }
        final Plan plan = plan(id, env);
        final String given = env.get(Settings.JOB_SECRET.envName());
        final String secret = null != given && !given.isBlank() ? given.trim()
            : SecretFile.jobSecret(secretFile, plan.jobId());
        if (0 != id.rank()) {
            // Rank 0's JVM may start after this one: its rendezvous is known up only once it wrote its address.
            final boolean up = null == plan.address();
            final HostPort at = up ? awaitAddress(plan, id, timeoutMs) : plan.address();
            return new Launch(id, new LaunchInfo(id.rank(), id.size(), at.toString(), secret, plan.jobId(), up),
                null, null);
        }
        if (null != plan.address()) {
            final HostPort at = plan.address();
            final RendezvousServer server = serve(at.host(), at.port(), id, secret, plan);
            return new Launch(id, new LaunchInfo(0, id.size(), at.toString(), secret, plan.jobId()), server, null);
        }
        final boolean local = isLoopback(id.host());
        final RendezvousServer server = serve(local ? "127.0.0.1" : "0.0.0.0", 0, id, secret, plan);
        final Path file = addressFile(plan);
        try {
            final HostPort at = new HostPort(local ? "127.0.0.1" : advertisedAddress(), server.port());
            final Path tmp = Files.createTempFile(plan.dir(), ".tutti-", ".tmp");
            Files.writeString(tmp, at + "\n", StandardCharsets.UTF_8);
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return new Launch(id, new LaunchInfo(0, id.size(), at.toString(), secret, plan.jobId()), server, file);
        } catch (final IOException | RuntimeException e) {
            server.close();
            throw Failures.io(OP, "rank=0", "cannot write the rendezvous address to " + file + " (" + plan.why()
                + ")", e instanceof IOException io ? io : new IOException(e));
        }
    }

    /**
     * Works out where a job under another launcher meets, without side effects.
     *
     * @param id  the identity (not Tutti's own launcher)
     * @param env the environment
     * @return the plan
     * @throws TuttiException of class {@link ErrorClass#ARG} if {@code TUTTI_RENDEZVOUS} is malformed, or unset while
     *                        the launcher does not tell where rank 0 is, or {@code env://} lacks its variables
     */
    public static Plan plan(final Identity id, final Map<String, String> env) {
        final String name = Settings.RENDEZVOUS.envName();
        final String givenId = env.get(Settings.JOB_ID.envName());
        final String jobId = null != givenId && !givenId.isBlank() ? givenId.trim() : id.jobId();
        final String spec = env.get(name);
        try {
            if (null == spec || spec.isBlank()) {
                if (null == id.host()) {
                    throw Errors.expected(ErrorClass.ARG, OP, "launch environment from " + id.source(),
                        name + " unset and " + id.source() + " does not say where rank 0 runs (ranks on several "
                            + "hosts)", name + "=tcp://<rank 0's host>:<port>, env:// or file:///<shared dir>");
                }
                final HostPort at = new HostPort(id.host(), derivedPort(jobId));
                return new Plan(at, null, jobId, "rank 0 serves at " + at + " (" + id.source()
                    + "'s rendezvous host, port derived from job id " + jobId + ")");
            }
            final String s = spec.trim();
            if (s.startsWith(ENV_SCHEME)) {
                final String addr = env.get("MASTER_ADDR");
                final String port = env.get("MASTER_PORT");
                final HostPort at = HostPort.parse(name + "=" + s + " with MASTER_ADDR:MASTER_PORT", addr + ":" + port);
                return new Plan(at, null, jobId, "rank 0 serves at " + at + " (" + name + "=env://)");
            }
            if (s.startsWith(FILE_SCHEME)) {
                final String dir = s.substring(FILE_SCHEME.length());
                if (dir.isEmpty() || !dir.startsWith("/")) {
                    throw Errors.refused(name + "=" + s, "file:///<absolute directory>");
                }
                return new Plan(null, Path.of(dir), jobId, "rank 0 writes its address to " + dir + " (" + name
                    + "=" + s + ")");
            }
            final HostPort at = HostPort.parse(name, s);
            return new Plan(at, null, jobId, "rank 0 serves at " + at + " (" + name + ")");
        } catch (final IllegalArgumentException e) {
            throw Errors.argument(OP, "launch environment from " + id.source(), e);
        }
    }

    /**
     * The rendezvous port of a job under another launcher when {@code TUTTI_RENDEZVOUS} does not give one:
     * {@code 20000 + (the first four bytes of SHA-256(job id), unsigned big-endian, mod 10000)}.
     *
     * @param jobId the job id
     * @return a port in 20000..29999
     */
    public static int derivedPort(final String jobId) {
        final byte[] d;
        try {
            d = MessageDigest.getInstance("SHA-256").digest(jobId.getBytes(StandardCharsets.UTF_8));
        } catch (final NoSuchAlgorithmException e) {
            throw Failures.missingFromJvm("SHA-256", e);
        }
        final long v = ((d[0] & 0xFFL) << 24) | ((d[1] & 0xFFL) << 16) | ((d[2] & 0xFFL) << 8) | (d[3] & 0xFFL);
        return PORT_BASE + (int) (v % PORT_SPAN);
    }

    /** @return who this process is */
    public Identity identity() {
        return identity;
    }

    /** @return the launch information: rank, size, a reachable rendezvous, the secret, the job id */
    public LaunchInfo info() {
        return info;
    }

    /** Stops rank 0's rendezvous, if this process serves it, and removes its address file. */
    @Override
    public void close() {
        if (null != server) {
            server.close();
        }
        if (null != addressFile) {
            try {
                Files.deleteIfExists(addressFile);
            } catch (final IOException e) {
                // a stale address file names a closed port; the next job of this id overwrites it
            }
        }
    }

    private static RendezvousServer serve(final String host, final int port, final Identity id, final String secret,
        final Plan plan) {
        final String bind = isLoopback(host) ? host : "0.0.0.0";
        try {
            return RendezvousServer.start(bind, port, id.size(), secret);
        } catch (final TuttiException e) {
            throw Failures.wrap(e, OP, "rank=0 of " + id.source() + " job " + plan.jobId(), "cannot serve the "
                + "rendezvous: " + plan.why() + "; if the port is taken, set " + Settings.RENDEZVOUS.envName()
                + " to another");
        }
    }

    private static Path addressFile(final Plan plan) {
        return plan.dir().resolve("tutti-" + plan.jobId().replaceAll("[^A-Za-z0-9._-]", "_") + ".rendezvous");
    }

    /** Waits for rank 0's address in file mode. */
    private static HostPort awaitAddress(final Plan plan, final Identity id, final long timeoutMs) {
        final Path file = addressFile(plan);
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (true) {
            try {
                final String text = Files.readString(file, StandardCharsets.UTF_8).trim();
                if (!text.isEmpty()) {
                    return HostPort.parse(file.toString(), text);
                }
            } catch (final IOException e) {
                // not written yet
            } catch (final IllegalArgumentException e) {
                throw Errors.argument(OP, "rank=" + id.rank(), e);
            }
            if (System.nanoTime() - deadline > 0) {
                throw Failures.timeout(OP, "rank=" + id.rank(), "rank 0 wrote no rendezvous address to " + file,
                    timeoutMs, plan.why(), null);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
    }

    private static boolean isLoopback(final String host) {
        if (null == host) {
            return false;
        }
        if ("localhost".equals(host) || host.startsWith("127.") || "::1".equals(host)) {
            return true;
        }
        return false;
    }

    /** @return an address of this host that other hosts can reach: a non-loopback IPv4 address of an up interface */
    private static String advertisedAddress() {
        try {
            for (final NetworkInterface ni : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (!ni.isUp() || ni.isLoopback()) {
                    continue;
                }
                for (final InetAddress a : Collections.list(ni.getInetAddresses())) {
                    if (a instanceof Inet4Address && !a.isLoopbackAddress() && !a.isLinkLocalAddress()) {
                        return a.getHostAddress();
                    }
                }
            }
            return InetAddress.getLocalHost().getHostAddress();
        } catch (final SocketException | UnknownHostException e) {
            return "127.0.0.1";
        }
    }
}
