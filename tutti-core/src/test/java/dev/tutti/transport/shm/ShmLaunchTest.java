package dev.tutti.transport.shm;

import dev.tutti.testkit.TcpJob;
import dev.tutti.testkit.TcpProcesses;

import dev.tutti.runtime.Configuration;
import dev.tutti.runtime.RendezvousServer;
import dev.tutti.transport.shm.ShmTransport;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link Tutti#init()} end to end over shared memory: ranks as real processes on this host, which select shm for
 * each other (forced, and automatically), a process that dies is noticed by its peer, and the job file it leaves
 * behind is recognized as stale and removed.
 */
@Tag("process")
@Timeout(90)
class ShmLaunchTest {

    @Test
    void shouldRunAJobOfProcessesOverShmThroughInit() throws Exception {
        final Job job = launch(3, "shm", "ok");
        for (int r = 0; r < job.ranks.length; r++) {
            final String out = job.await(r);
            assertEquals(0, job.ranks[r].exitValue(), "rank " + r + " failed: " + out);
            assertTrue(out.contains("rank " + r + " of 3 ok over"), out);
        }
        assertFalse(Files.exists(job.file), "the last rank deletes " + job.file);
    }

    @Test
    void shouldSelectShmAutomaticallyForRanksOnThisHost() throws Exception {
        final Job job = launch(2, "auto", "ok");
        for (int r = 0; r < job.ranks.length; r++) {
            final String out = job.await(r);
            assertEquals(0, job.ranks[r].exitValue(), "rank " + r + " failed: " + out);
            assertTrue(out.contains("shm("), out);
        }
        assertFalse(Files.exists(job.file), "the last rank deletes " + job.file);
    }

    @Test
    void shouldFailWaitsOnAPeerProcessThatDiesAndCleanUpItsFile() throws Exception {
        final Job job = launch(2, "shm", "die");
        final String out0 = rank0AfterRank1Halts(job);
        assertTrue(out0.contains("rank 0 saw: rank 1 failed"), out0);
        assertTrue(Files.exists(job.file), "rank 1 died registered, so the file outlives rank 0");
        assertTrue(ShmJobFiles.isStale(job.file), "no live process is attached to " + job.file);
        assertTrue(ShmJobFiles.removeStale(job.file.getParent()).contains(job.file));
        assertFalse(Files.exists(job.file));
    }

    @Test
    void shouldFailAPersistentCollectiveWhoseShmPeerDiesInsteadOfWaitingOnItsSlot() throws Exception {
        final Job job = launch(2, "shm", "die-persistent");
        final String out0 = rank0AfterRank1Halts(job);
        assertTrue(out0.contains("rank 0 saw: ") && out0.contains("rank 1"), out0);
        ShmJobFiles.removeStale(job.file.getParent());
    }

    @Test
    void shouldFailAnOnHostCollectiveWhosePeerDiesInsteadOfWaitingOnItsFlag() throws Exception {
        final Job job = launch(2, "shm", "die-host");
        final String out0 = rank0AfterRank1Halts(job);
        assertTrue(out0.contains("rank 0 saw: allreduce (comm=WORLD, rank=0): cannot complete: rank 1 failed"), out0);
        ShmJobFiles.removeStale(job.file.getParent());
    }

    @Test
    void shouldFailAPersistentStartOnTheRegionWhosePeerDies() throws Exception {
        final Job job = launch(2, "shm", "die-host-persistent");
        final String out0 = rank0AfterRank1Halts(job);
        assertTrue(out0.contains("rank 0 saw: allreduce (comm=WORLD, rank=0): cannot complete: rank 1 failed"), out0);
        assertTrue(out0.contains("rank 0 then saw: bcast (comm=WORLD, rank=0): cannot complete: rank 1 failed"), out0);
        ShmJobFiles.removeStale(job.file.getParent());
    }

    /** Awaits a job whose rank 1 halts (exit status 3) and whose rank 0 ends normally; returns rank 0's output. */
    private static String rank0AfterRank1Halts(final Job job) throws Exception {
        final String out0 = job.await(0);
        final String out1 = job.await(1);
        assertEquals(3, job.ranks[1].exitValue(), "rank 1 halts: " + out1);
        assertEquals(0, job.ranks[0].exitValue(), "rank 0: " + out0);
        return out0;
    }

    private record Job(Process[] ranks, Path[] outputs, Path file, RendezvousServer server) {
        String await(final int r) throws Exception {
            try {
                final boolean ended = ranks[r].waitFor(60, TimeUnit.SECONDS);
                final String out = Files.readString(outputs[r], StandardCharsets.UTF_8);
                assertTrue(ended, "rank " + r + " did not finish: " + out);
                return out;
            } finally {
                if (r == ranks.length - 1) {
                    close();
                }
            }
        }

        void close() throws IOException {
            server.close();
            for (int r = 0; r < ranks.length; r++) {
                ranks[r].destroyForcibly();
                Files.deleteIfExists(outputs[r]);
            }
        }
    }

    private static Job launch(final int n, final String transport, final String scenario) throws IOException {
        final String secret = HexFormat.of().formatHex(TcpJob.randomBytes(16));
        final String jobId = "shm-launch-" + ProcessHandle.current().pid();
        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        final RendezvousServer server = RendezvousServer.start("127.0.0.1", n, secret);
        final Process[] ranks = new Process[n];
        final Path[] outputs = new Path[n];
        for (int r = 0; r < n; r++) {
            outputs[r] = Files.createTempFile("tutti-shm-rank" + r + "-", ".log");
            // the slot road is a communicator's without an on-host region: the scenario that fails on it has none
            final String hostLimit = "-Dtutti.coll.hostLimit=" + ("die-persistent".equals(scenario) ? 0 : -1);
            final ProcessBuilder pb = new ProcessBuilder(List.of(java, "-Dtutti.shm.arenaMiB=4",
                "-Dtutti.coll.directLimit=16384", hostLimit, "-cp", System.getProperty("java.class.path"),
                ShmInitMain.class.getName(), scenario));
            TcpProcesses.launchEnvironment(pb.environment(), r, n, server.port(), secret, jobId, transport);
            pb.redirectErrorStream(true).redirectOutput(outputs[r].toFile());
            ranks[r] = pb.start();
        }
        return new Job(ranks, outputs, Configuration.shmFile(jobId, secret), server);
    }
}
