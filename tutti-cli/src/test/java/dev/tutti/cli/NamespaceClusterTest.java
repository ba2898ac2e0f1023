package dev.tutti.cli;

import dev.tutti.cli.testranks.ClusterRank;
import dev.tutti.launcher.RendezvousService;
import dev.tutti.internal.Settings;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Jobs across real network stacks: {@code it/cluster.sh} builds two "hosts" on this machine (network namespaces on
 * a bridge, each with its own sshd and its own /dev/shm), and {@code tutti run -H a:2,b:2 --rsh "ssh -F ..."} starts
 * two ranks on each over ssh. Ranks of one host talk shm, ranks of different hosts tcp over the bridge. Open MPI's
 * {@code mpirun --host a:2,b:2} does the same through its own daemons (when installed).
 *
 * <p>Needs root, {@code ip netns} and an sshd ({@code it/setup.sh} installs openssh-server and iproute2); skipped,
 * saying which is missing, otherwise. The cluster gets an id of its own (10.77.ID.0/24, namespaces ttIDh1, ttIDh2)
 * so that two builds on one machine do not share it, and is taken down afterwards.
 */
// Runs alone (@Isolated): it asserts that a job ends within 5 s of a rank's kill, which another job on these 2
// cores would delay.
@Isolated
@Tag("cluster")
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class NamespaceClusterTest {
    private static final String[] RANK_JVM = {"-J-Xmx128m", "-J-XX:+UseSerialGC", "-J-XX:TieredStopAtLevel=1",
        "-J-Xshare:auto"};
    private static final Path SCRIPT = ItScript.path("cluster.sh");
    private static final int ID = 100 + (int) (ProcessHandle.current().pid() % 150);
    private static final String NET = "10.77." + ID + ".";
    private static final String HOST1 = NET + "2";
    private static final String HOST2 = NET + "3";

    @BeforeAll
    static void up() throws Exception {
        Assumptions.assumeTrue(System.getProperty("os.name").startsWith("Linux"), "network namespaces need Linux");
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")),
            "building namespace hosts needs root (user is " + System.getProperty("user.name") + ")");
        Assumptions.assumeTrue(ItScript.installed("ip", "/usr/sbin/sshd", "ssh", "ssh-keygen", "unshare"),
            "ip, sshd, ssh or unshare is not installed (it/setup.sh installs openssh-server, openssh-client and "
            + "iproute2)");
        Assumptions.assumeTrue(0 == quiet("ip", "netns", "list"), "`ip netns` is unavailable");
        Assumptions.assumeTrue(Files.isExecutable(SCRIPT), SCRIPT + " is missing");
        final ItScript.Result r = script("up", "2");
        assertEquals(0, r.status(), "it/cluster.sh up 2 failed:\n" + r.output());
    }

    @AfterAll
    static void down() throws Exception {
        if (Files.isDirectory(Path.of("/tmp/tutti-cluster" + ID))) {
            final ItScript.Result r = script("down");
            assertEquals(0, r.status(), "it/cluster.sh down failed:\n" + r.output());
        }
    }

    /** Collectives over shm within hosts and tcp between them; -x forwarded; output tagged with host and rank;
     *  and, while the job waits at the rendezvous, strangers without the secret get nothing from it or a rank. */
    @Test
    void shouldRunCollectivesAcrossHostsAndGiveStrangersNothing() throws Exception {
        final Job job = Job.start(args("check", "delay=3:8000"));
        final Matcher rv = job.await(Pattern.compile("\\[1,0]\\[" + Pattern.quote(HOST1)
            + "]<stdout>:rank 0 pid \\d+ rendezvous (\\S+) mark (\\S+)"), 40_000);
        assertEquals("m-" + ID, rv.group(2), "-x IT_MARK reached rank 0");
        final String firstRendezvous = rv.group(1).split(",")[0];
        assertTrue(firstRendezvous.startsWith(NET + "1:"), "the address that routes to the host comes first: "
            + rv.group(1));
        final int rvPort = Integer.parseInt(firstRendezvous.substring(firstRendezvous.lastIndexOf(':') + 1));
        List<Integer> rankPorts = listeningPorts(1);
        for (int i = 0; i < 100 && rankPorts.size() < 2; i++) { // ranks 0 and 1 bind before the rendezvous
            Thread.sleep(50);
            rankPorts = listeningPorts(1);
        }
        assertEquals(2, rankPorts.size(), "ranks 0 and 1 listen on host 1 while rank 3 is delayed: " + rankPorts);
        final List<Integer> ports = rankPorts;
        final CompletableFuture<String> atRank = CompletableFuture.supplyAsync(() -> strangerAtRank(ports));
        assertEquals("", strangerAtRendezvous(NET + "1", rvPort));

        final Job.Ended end = job.await(60_000);
        assertEquals(0, end.status, end.out + end.err);
        assertTrue(end.out.contains("[1,0][" + HOST1 + "]<stdout>:cluster OK on 4 ranks"), end.out);
        for (int r = 0; r < 4; r++) {
            assertTrue(end.out.contains("[1," + r + "][" + (r < 2 ? HOST1 : HOST2) + "]<stdout>:rank " + r + " pid"),
                "rank " + r + " tagged with its host: " + end.out);
        }
        assertEquals("", atRank.get(30, TimeUnit.SECONDS));
    }

    /** kill -9 of a rank on host 2 ends the job within 5 s, naming the rank and the host. */
    @Test
    void shouldEndTheJobWhenARankOnAnotherHostIsKilled() throws Exception {
        final Job job = Job.start(args("hold"));
        final Matcher pid = job.await(Pattern.compile("\\[1,3]\\[" + Pattern.quote(HOST2)
            + "]<stdout>:rank 3 pid (\\d+)"), 40_000);
        job.await(Pattern.compile("\\[1,3][^\\n]*<stdout>:holding"), 40_000);
        job.await(Pattern.compile("\\[1,0][^\\n]*<stdout>:holding"), 10_000);
        final long killed = System.nanoTime();
        assertEquals(0, quiet("kill", "-9", pid.group(1)));
        final Job.Ended end = job.await(30_000);
        final long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed);
        assertNotEquals(0, end.status);
        final String line = end.err.lines().filter(l -> l.startsWith("tutti run: ")).findFirst().orElse(end.err);
        assertTrue(line.contains("rank 3") && line.contains(HOST2), line);
        assertTrue(ms < 5_000, "the job ended " + ms + " ms after the kill");
    }

    /**
     * Open MPI's {@code mpirun --host h1:2,h2:2} starts the ranks through its own daemons over ssh to the namespace
     * hosts; they find themselves in Open MPI's variables and meet at the rendezvous given with {@code -x} on rank
     * 0's host. The collectives run node-aware across the hosts and splitType(SHARED) finds each host's two ranks.
     */
    @Test
    void shouldRunACollectiveJobUnderMpirunAcrossHosts() throws Exception {
        Assumptions.assumeTrue(0 == quiet("sh", "-c", "command -v mpirun"), "mpirun is not installed (it/setup.sh "
            + "installs openmpi-bin): the job under Open MPI's launcher across hosts is skipped");
        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        final List<String> cmd = new ArrayList<>(List.of("timeout", "80", "mpirun", "--allow-run-as-root",
            "--oversubscribe", "-n", "4", "--host", HOST1 + ":2," + HOST2 + ":2",
            "--mca", "plm_rsh_agent", "ssh -F /tmp/tutti-cluster" + ID + "/ssh_config",
            "--mca", "rtc_hwloc_vmhole", "none", // see it/bench-cluster.sh: the remote daemon may crash otherwise
            "--mca", "oob_tcp_if_include", NET + "0/24", "--mca", "btl_tcp_if_include", NET + "0/24",
            "-x", Settings.RENDEZVOUS.envName() + "=tcp://" + HOST1 + ":" + (20_000 + ID), java));
        for (final String jvm : RANK_JVM) {
            cmd.add(jvm.substring(2)); // -J-Xmx128m: tutti run's form
        }
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), ClusterRank.class.getName(), "check"));
        final ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().keySet().removeIf(k -> null != Settings.find(k) && !Settings.find(k).isProperty()
            || k.startsWith("SLURM_") || k.startsWith("OMPI_") || k.startsWith("PMI"));
        final Process p = pb.start();
        final String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), out);
        assertTrue(out.contains("cluster OK on 4 ranks"), out);
    }

    private static String[] args(final String... program) {
        final List<String> a = new ArrayList<>(List.of("run", "-n", "4", "-H", HOST1 + ":2," + HOST2 + ":2",
            "--rsh", "ssh -F /tmp/tutti-cluster" + ID + "/ssh_config", "--tag-output", "-x", "IT_MARK=m-" + ID));
        a.addAll(List.of(RANK_JVM));
        a.addAll(List.of("-cp", System.getProperty("java.class.path"), ClusterRank.class.getName()));
        a.addAll(List.of(program));
        return a.toArray(new String[0]);
    }

    /**
     * Speaks the rendezvous protocol as a client that does not know the secret (a zero MAC): the server must close
     * the connection after its challenge without a word. Returns what it sent after the challenge (expected empty).
     */
    private static String strangerAtRendezvous(final String host, final int port) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host, port), 5_000);
            s.setSoTimeout(15_000);
            final DataInputStream in = new DataInputStream(s.getInputStream());
            final DataOutputStream out = new DataOutputStream(s.getOutputStream());
            assertEquals(0x54525653, in.readInt(), "rendezvous magic");
            in.readInt();
            in.readFully(new byte[32]);
            out.writeInt(0x54525643);
            out.writeInt(1);
            out.writeInt(3);
            out.writeInt(4);
            out.write(new byte[32]);
            final byte[] endpoint = "10.0.0.66:6666".getBytes(StandardCharsets.UTF_8);
            out.writeShort(endpoint.length);
            out.write(endpoint);
            out.write(new byte[32]);
            out.flush();
            return rest(s.getInputStream());
        }
    }

    /** Connects to every port a rank of host 1 listens on (all before the wiring starts), answers each challenge
     *  without the secret, and returns what came back after the challenges (expected: nothing, each closed). */
    private static String strangerAtRank(final List<Integer> ports) {
        final List<CompletableFuture<String>> each = new ArrayList<>();
        for (final int port : ports) {
            final Socket s = new Socket();
            try {
                s.connect(new InetSocketAddress(HOST1, port), 5_000);
            } catch (final IOException e) {
                each.add(CompletableFuture.completedFuture("port " + port + ": " + e + "; "));
                continue;
            }
            each.add(CompletableFuture.supplyAsync(() -> answerWithoutSecret(s, port)));
        }
        return each.stream().map(CompletableFuture::join).reduce("", String::concat);
    }

    private static String answerWithoutSecret(final Socket socket, final int port) {
        try (Socket s = socket) {
            s.setSoTimeout(40_000);
            final DataInputStream in = new DataInputStream(s.getInputStream());
            final byte[] hello = new byte[44];
            in.readFully(hello); // the acceptor's challenge: magic, version, its rank, nonce
            final ByteBuffer h = ByteBuffer.wrap(hello).order(ByteOrder.LITTLE_ENDIAN);
            if (0x54555041 != h.getInt()) {
                return "port " + port + " is not a rank's listener; ";
            }
            h.getInt();
            final int acceptor = h.getInt();
            final ByteBuffer c = ByteBuffer.allocate(80).order(ByteOrder.LITTLE_ENDIAN);
            c.putInt(0x54555043).putInt(1).putInt(3).putInt(acceptor); // then a zero nonce and a zero MAC
            s.getOutputStream().write(c.array());
            s.getOutputStream().flush();
            return rest(s.getInputStream());
        } catch (final IOException e) {
            return "port " + port + ": " + e + "; ";
        }
    }

    /** What a stream sends until it closes, as hex. */
    private static String rest(final InputStream in) throws IOException {
        final StringBuilder b = new StringBuilder();
        for (int c = in.read(); c >= 0; c = in.read()) {
            b.append(String.format("%02x", c));
        }
        return b.toString();
    }

    /** TCP ports listened on in host i other than ssh's. */
    private static List<Integer> listeningPorts(final int host) throws Exception {
        final ItScript.Result r = script("run", String.valueOf(host), "ss", "-ltnH");
        assertEquals(0, r.status(), r.output());
        final List<Integer> ports = new ArrayList<>();
        for (final String line : r.output().split("\n")) {
            final String[] f = line.trim().split("\\s+");
            if (f.length >= 4) {
                final int port = Integer.parseInt(f[3].substring(f[3].lastIndexOf(':') + 1));
                if (22 != port) {
                    ports.add(port);
                }
            }
        }
        return ports;
    }

    private static ItScript.Result script(final String... args) throws Exception {
        return ItScript.run(SCRIPT, Map.of("TUTTI_CLUSTER_ID", String.valueOf(ID)), args);
    }

    private static int quiet(final String... cmd) throws Exception {
        final Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(
            ProcessBuilder.Redirect.DISCARD).start();
        return p.waitFor();
    }

    /** {@code tutti run} on a thread of its own, its output readable while it runs. */
    private static final class Job {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();
        private final ByteArrayOutputStream err = new ByteArrayOutputStream();
        private final CompletableFuture<Integer> status = new CompletableFuture<>();

        record Ended(int status, String out, String err) {
        }

        static Job start(final String[] argv) {
            final Job j = new Job();
            Thread.ofPlatform().daemon().name("tutti-run").start(() -> {
                try {
                    j.status.complete(TuttiCommand.newCommandLine(new RunCommand(RendezvousService.tutti(),
                        new PrintStream(j.synced(j.out), true, StandardCharsets.UTF_8),
                        new PrintStream(j.synced(j.err), true, StandardCharsets.UTF_8))).execute(argv));
                } catch (final RuntimeException e) {
                    j.status.completeExceptionally(e);
                }
            });
            return j;
        }

        private OutputStream synced(final ByteArrayOutputStream to) {
            return new OutputStream() {
                @Override
                public void write(final int b) {
                    synchronized (Job.this) {
                        to.write(b);
                    }
                }

                @Override
                public void write(final byte[] b, final int off, final int len) {
                    synchronized (Job.this) {
                        to.write(b, off, len);
                    }
                }
            };
        }

        private synchronized String text(final ByteArrayOutputStream s) {
            return s.toString(StandardCharsets.UTF_8);
        }

        Matcher await(final Pattern p, final long ms) throws InterruptedException {
            final long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
            while (System.nanoTime() - end < 0) {
                final Matcher m = p.matcher(text(out));
                if (m.find()) {
                    return m;
                }
                if (status.isDone()) {
                    break;
                }
                Thread.sleep(20);
            }
            throw new AssertionError("no line matching " + p + " within " + ms + " ms; stdout:\n" + text(out)
                + "\nstderr:\n" + text(err));
        }

        Ended await(final long ms) throws Exception {
            final int s = status.get(ms, TimeUnit.MILLISECONDS);
            return new Ended(s, text(out), text(err));
        }
    }
}
