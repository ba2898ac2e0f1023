package dev.tutti.runtime;

import dev.tutti.ErrorClass;
import dev.tutti.TuttiException;
import dev.tutti.runtime.identity.Identities;
import dev.tutti.runtime.identity.Identity;
import dev.tutti.runtime.identity.Launch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Joining a job under another launcher: where rank 0 serves the rendezvous (derived port, tcp://, env://, file://),
 * the job secret from the per-user secret file, and real rendezvous between threads that each join as one rank of
 * a recorded launcher environment; a process with another secret file is refused.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LaunchTest {
    @TempDir
    Path dir;

    @Test
    void shouldPlanEveryRendezvousMode() {
        final Identity slurm = new Identity("slurm", 1, 4, 0, "slurm-42.0", "node07", "test");
        final Launch.Plan derived = Launch.plan(slurm, Map.of());
        assertEquals(new HostPort("node07", Launch.derivedPort("slurm-42.0")), derived.address());
        final int p = Launch.derivedPort("slurm-42.0");
        assertTrue(p >= 20_000 && p < 30_000, "port " + p);
        assertNotEquals(p, Launch.derivedPort("slurm-42.1"), "steps of a job meet at different ports");
        assertEquals(new HostPort("h", 7000), Launch.plan(slurm, Map.of("TUTTI_RENDEZVOUS", "tcp://h:7000")).address());
        assertEquals(new HostPort("m", 29500), Launch.plan(slurm, Map.of("TUTTI_RENDEZVOUS", "env://",
            "MASTER_ADDR", "m", "MASTER_PORT", "29500")).address());
        final Launch.Plan file = Launch.plan(slurm, Map.of("TUTTI_RENDEZVOUS", "file:///shared/x"));
        assertNull(file.address());
        assertEquals(Path.of("/shared/x"), file.dir());
        assertEquals("mine", Launch.plan(slurm, Map.of("TUTTI_JOB_ID", "mine")).jobId());

        final Identity spread = new Identity("openmpi", 1, 4, 0, "ompi-1", null, "test");
        final TuttiException e = assertThrows(TuttiException.class, () -> Launch.plan(spread, Map.of()));
        assertEquals(ErrorClass.ARG, e.errorClass());
        assertTrue(e.getMessage().contains("TUTTI_RENDEZVOUS unset and openmpi does not say where rank 0 runs"),
            e.getMessage());
        for (final String bad : new String[] {"env://", "file://relative", "nohost"}) {
            final TuttiException b = assertThrows(TuttiException.class,
                () -> Launch.plan(slurm, Map.of("TUTTI_RENDEZVOUS", bad)));
            assertTrue(b.getMessage().contains("TUTTI_RENDEZVOUS="), b.getMessage());
        }
    }

    @Test
    void shouldCreateTheSecretFileOwnerOnlyAndDeriveOneSecretPerJob() throws Exception {
        final Path file = dir.resolve("home/.tutti/secret");
        final List<CompletableFuture<String>> racing = new ArrayList<>();
        final ExecutorService racers = Executors.newFixedThreadPool(4);
        for (int i = 0; i < 4; i++) { // ranks of one host starting together, file missing
            racing.add(CompletableFuture.supplyAsync(() -> SecretFile.jobSecret(file, "job-a"), racers));
        }
        final String a = racing.get(0).get();
        racers.shutdown();
        for (final CompletableFuture<String> f : racing) {
            assertEquals(a, f.get(), "every rank derives the same secret");
        }
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent())));
        assertEquals(64, a.length());
        assertNotEquals(a, SecretFile.jobSecret(file, "job-b"), "another job, another secret");
        assertTrue(Files.readString(file).trim().matches("[0-9a-f]{64}"));

        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        final TuttiException open = assertThrows(TuttiException.class, () -> SecretFile.jobSecret(file, "job-a"));
        assertEquals(ErrorClass.ARG, open.errorClass());
        assertTrue(open.getMessage().contains("has mode rw-r--r--, expected rw-------"), open.getMessage());
    }

    @Test
    void shouldMeetAtTheDerivedPortWithTheSecretFile() throws Exception {
        final Map<String, String> base = new HashMap<>(Map.of("OMPI_COMM_WORLD_SIZE", "3",
            "OMPI_COMM_WORLD_LOCAL_SIZE", "3", "OMPI_MCA_ess_base_jobid", "t" + System.nanoTime()));
        assertExchange(base, dir.resolve("secret"), 3);
    }

    @Test
    void shouldMeetThroughASharedDirectory() throws Exception {
        final Map<String, String> base = new HashMap<>(Map.of("SLURM_NTASKS", "3", "SLURM_STEP_NODELIST",
            "localhost", "SLURM_JOB_ID", "9", "SLURM_STEP_ID", Long.toString(System.nanoTime()),
            "TUTTI_RENDEZVOUS", "file://" + dir));
        assertExchange(base, dir.resolve("secret"), 3);
        try (var files = Files.list(dir)) {
            assertTrue(files.noneMatch(f -> f.toString().endsWith(".rendezvous")), "rank 0 removed its address file");
        }
    }

    @Test
    void shouldRefuseARankWithAnotherSecretFile() throws Exception {
        final Map<String, String> base = new HashMap<>(Map.of("OMPI_COMM_WORLD_SIZE", "2",
            "OMPI_COMM_WORLD_LOCAL_SIZE", "2", "OMPI_MCA_ess_base_jobid", "s" + System.nanoTime()));
        try (Launch zero = Launch.join(rank(base, "OMPI_COMM_WORLD_RANK", 0), dir.resolve("mine"), 5_000)) {
            final Launch stranger = Launch.join(rank(base, "OMPI_COMM_WORLD_RANK", 1), dir.resolve("theirs"), 5_000);
            final TuttiException e = assertThrows(TuttiException.class,
                () -> RendezvousClient.exchange(stranger.info(), "x:1", 5_000));
            assertEquals(ErrorClass.ARG, e.errorClass(), e.getMessage());
            assertTrue(e.getMessage().contains("is probably wrong"), e.getMessage());
            assertEquals(zero.info().rendezvous(), stranger.info().rendezvous());
        }
    }

    @Test
    void shouldKnowTheRendezvousUpOnlyWhereRankZeroHasStartedIt() {
        final Map<String, String> derived = new HashMap<>(Map.of("OMPI_COMM_WORLD_SIZE", "2",
            "OMPI_COMM_WORLD_LOCAL_SIZE", "2", "OMPI_MCA_ess_base_jobid", "u" + System.nanoTime()));
        try (Launch one = Launch.join(rank(derived, "OMPI_COMM_WORLD_RANK", 1), dir.resolve("secret"), 5_000);
            Launch zero = Launch.join(rank(derived, "OMPI_COMM_WORLD_RANK", 0), dir.resolve("secret"), 5_000)) {
            assertFalse(one.info().rendezvousUp(), "rank 1 meets at a fixed address rank 0 may not serve yet");
            assertTrue(zero.info().rendezvousUp(), "rank 0 serves it");
        }
        final Map<String, String> shared = new HashMap<>(Map.of("SLURM_NTASKS", "2", "SLURM_STEP_NODELIST",
            "localhost", "SLURM_JOB_ID", "9", "SLURM_STEP_ID", "u" + System.nanoTime(), "TUTTI_RENDEZVOUS",
            "file://" + dir));
        try (Launch zero = Launch.join(rank(shared, "SLURM_PROCID", 0), dir.resolve("secret"), 5_000);
            Launch one = Launch.join(rank(shared, "SLURM_PROCID", 1), dir.resolve("secret"), 5_000)) {
            assertTrue(one.info().rendezvousUp(), "rank 0 wrote its address once it served");
        }
        try (Launch tutti = Launch.join(Map.of("TUTTI_RANK", "1", "TUTTI_SIZE", "2", "TUTTI_RENDEZVOUS",
            "127.0.0.1:1", "TUTTI_JOB_SECRET", "00"), dir.resolve("secret"), 5_000)) {
            assertTrue(tutti.info().rendezvousUp(), "tutti run serves it before any rank starts");
        }
    }

    @Test
    void shouldWaitForARankZeroThatStartsLateUnderAnotherLauncher() throws Exception {
        final Map<String, String> base = new HashMap<>(Map.of("OMPI_COMM_WORLD_SIZE", "2",
            "OMPI_COMM_WORLD_LOCAL_SIZE", "2", "OMPI_MCA_ess_base_jobid", "l" + System.nanoTime()));
        final Path secret = dir.resolve("secret");
        final Launch one = Launch.join(rank(base, "OMPI_COMM_WORLD_RANK", 1), secret, 5_000);
        final ExecutorService rank1 = Executors.newSingleThreadExecutor();
        try {
            // A window of 500 ms for a rendezvous known up: rank 1 must not use it, rank 0 starts 1.5 s later.
            final CompletableFuture<String[]> waiting = CompletableFuture.supplyAsync(
                () -> RendezvousClient.exchange(one.info(), "ep1", 20_000, 500), rank1);
            Thread.sleep(1_500);
            assertFalse(waiting.isDone(), "rank 1 gave up before rank 0 started: " + waiting);
            try (Launch zero = Launch.join(rank(base, "OMPI_COMM_WORLD_RANK", 0), secret, 5_000)) {
                assertArrayEquals(new String[] {"ep0", "ep1"}, RendezvousClient.exchange(zero.info(), "ep0", 20_000));
                assertArrayEquals(new String[] {"ep0", "ep1"}, waiting.get(20, TimeUnit.SECONDS));
            }
        } finally {
            rank1.shutdownNow();
            one.close();
        }
    }

    /** Joins {@code n} ranks as threads, each with its own environment, and exchanges endpoints. */
    private static void assertExchange(final Map<String, String> base, final Path secret, final int n)
        throws Exception {
        final String rankVar = base.containsKey("SLURM_NTASKS") ? "SLURM_PROCID" : "OMPI_COMM_WORLD_RANK";
        final List<CompletableFuture<String[]>> tables = new ArrayList<>();
        final List<Launch> launches = new ArrayList<>();
        final ExecutorService ranks = Executors.newFixedThreadPool(n); // one thread each: they block in the fence
        try {
            for (int r = n - 1; r >= 0; r--) { // rank 0 last: the others wait for it
                final Map<String, String> env = rank(base, rankVar, r);
                final int me = r;
                tables.add(CompletableFuture.supplyAsync(() -> {
                    final Launch l = Launch.join(env, secret, 20_000);
                    synchronized (launches) {
                        launches.add(l);
                    }
                    assertEquals(me, l.info().rank());
                    assertEquals(Identities.detect(env).chosen().jobId(), l.info().jobId());
                    return RendezvousClient.exchange(l.info(), "ep" + me, 20_000);
                }, ranks));
            }
            final String[] expected = {"ep0", "ep1", "ep2"};
            for (final CompletableFuture<String[]> t : tables) {
                assertArrayEquals(Arrays.copyOf(expected, n), t.get(30, TimeUnit.SECONDS));
            }
        } finally {
            ranks.shutdownNow();
            synchronized (launches) {
                launches.forEach(Launch::close);
            }
        }
    }

    private static Map<String, String> rank(final Map<String, String> base, final String var, final int r) {
        final Map<String, String> env = new HashMap<>(base);
        env.put(var, Integer.toString(r));
        return env;
    }
}
