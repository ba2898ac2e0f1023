package dev.tutti.cli;

import dev.tutti.cli.testranks.DeadlockRank;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The correctness checker over real processes ({@code tutti run --check}, shm between the ranks of this host): a job
 * that deadlocks ends within seconds with the checker's report, where the unchecked job hangs until its timeout.
 */
@Tag("process")
@Timeout(60)
class CheckProcessTest {
    private static ProcessJobTest.Run tutti(final List<String> options, final String... programArgs) {
        final List<String> a = new ArrayList<>(List.of("run", "-n", "3"));
        a.addAll(List.of(ProcessJobTest.RANK_JVM));
        a.addAll(options);
        a.addAll(List.of("-cp", System.getProperty("java.class.path"), DeadlockRank.class.getName()));
        a.addAll(List.of(programArgs));
        return ProcessJobTest.tutti(a.toArray(new String[0]));
    }

    @Test
    void shouldEndADeadlockedCheckedJobWithTheReport(@org.junit.jupiter.api.io.TempDir final java.nio.file.Path dir)
        throws java.io.IOException {
        final java.nio.file.Path json = dir.resolve("check.jsonl");
        final ProcessJobTest.Run r = tutti(List.of("--check-report", json.toString(), "--timeout", "60"));
        assertNotEquals(0, r.status(), r.out() + r.err());
        assertTrue(r.err().contains("DeadlockException: deadlock: every live rank has been blocked for over 1000 ms"),
            r.err());
        assertTrue(r.err().contains("rank 0 waits in recv from rank 1, tag 7 on 'WORLD' at DeadlockRank.java:"),
            r.err());
        assertTrue(r.err().contains("cycle: rank 0 -> rank 1 -> rank 2 -> rank 0"), r.err());
        assertTrue(r.millis() < 30_000, "took " + r.millis() + " ms: not before the job's timeout");
        final List<String> lines = java.nio.file.Files.readAllLines(json);
        assertTrue(lines.size() == 1 && lines.getFirst().startsWith("{\"kind\":\"deadlock\",\"rank\":0,\"message\":"
            + "\"deadlock: every live rank") && lines.getFirst().endsWith("-> rank 0\"}"), lines.toString());
    }

    @Test
    void shouldEndADeadlockOfWildcardReceivesAndHangWithoutTheChecker() {
        // The two jobs run side by side: the unchecked one only waits for its timeout.
        final java.util.concurrent.CompletableFuture<ProcessJobTest.Run> hanging = java.util.concurrent
            .CompletableFuture.supplyAsync(() -> tutti(List.of("--timeout", "6"), "wildcard"));
        final ProcessJobTest.Run checked = tutti(List.of("--check", "--timeout", "30"), "wildcard");
        assertTrue(checked.err().contains("ranks 0-2 wait in recv from any source, tag 7 on 'WORLD' at "
            + "DeadlockRank.java:"), checked.err());
        final ProcessJobTest.Run unchecked = hanging.join();
        assertNotEquals(0, unchecked.status());
        assertTrue(unchecked.millis() >= 6_000, "ended after " + unchecked.millis() + " ms");
        assertTrue(checked.millis() < unchecked.millis(), checked.millis() + " vs " + unchecked.millis());
    }

    @Test
    void shouldReportASendSendRingUnderStrictOnlyAndPassItsCorrectTwin() {
        final ProcessJobTest.Run checked = tutti(List.of("--check", "--timeout", "30"), "sendsend");
        assertEquals(0, checked.status(), checked.out() + checked.err());
        final ProcessJobTest.Run strict = tutti(List.of("--check=strict", "--timeout", "30"), "sendsend");
        assertNotEquals(0, strict.status(), strict.out() + strict.err());
        assertTrue(strict.err().contains("rank 0 waits in send to world rank 1, tag 7 (unbuffered under "
            + "--check=strict"), strict.err());
        assertTrue(strict.err().contains("cycle: rank 0 -> rank 1 -> rank 2 -> rank 0"), strict.err());
        assertTrue(strict.millis() < 25_000, "took " + strict.millis() + " ms: not before the job's timeout");
        final ProcessJobTest.Run twin = tutti(List.of("--check=strict", "--timeout", "30"), "ordered");
        assertEquals(0, twin.status(), twin.out() + twin.err());
        assertTrue(twin.out().contains("rank 0 got 2"), twin.out());
    }

    @Test
    void shouldEndADeadlockedCheckedJobOverTcp() {
        final ProcessJobTest.Run r = tutti(List.of("--transport", "tcp", "--check", "--timeout", "60"));
        assertNotEquals(0, r.status(), r.out() + r.err());
        assertTrue(r.err().contains("rank 0 waits in recv from rank 1, tag 7 on 'WORLD' at DeadlockRank.java:"),
            r.err());
        assertTrue(r.err().contains("cycle: rank 0 -> rank 1 -> rank 2 -> rank 0"), r.err());
        assertTrue(r.millis() < 30_000, "took " + r.millis() + " ms: not before the job's timeout");
        final ProcessJobTest.Run twin = tutti(List.of("--transport", "tcp", "--check=strict", "--timeout", "60"),
            "ordered");
        assertEquals(0, twin.status(), twin.out() + twin.err());
    }

    private static ProcessJobTest.Run ownership(final List<String> options, final String mode) {
        final List<String> a = new ArrayList<>(List.of("run", "-n", "3"));
        a.addAll(List.of(ProcessJobTest.RANK_JVM));
        a.addAll(options);
        a.addAll(List.of("-cp", System.getProperty("java.class.path"),
            dev.tutti.cli.testranks.OwnershipRank.class.getName(), mode));
        return ProcessJobTest.tutti(a.toArray(new String[0]));
    }

    @Test
    void shouldFailACheckedJobThatLeavesARequestBehindAndReportItInJson(
        @org.junit.jupiter.api.io.TempDir final java.nio.file.Path dir) throws java.io.IOException {
        final java.nio.file.Path json = dir.resolve("check.jsonl");
        final ProcessJobTest.Run r = ownership(List.of("--check-report", json.toString(), "--timeout", "60"), "leak");
        assertEquals(1, r.status(), r.out() + r.err());
        assertTrue(r.err().contains("nonblocking collective never completed: ibarrier() on 'WORLD', started at "
            + "OwnershipRank.java:"), r.err());
        assertTrue(r.err().contains("CheckFailedException: check: rank "), r.err());
        assertTrue(r.out().contains("sum 6"), r.out());
        final List<String> lines = java.nio.file.Files.readAllLines(json);
        assertEquals(3, lines.size(), lines.toString());
        assertTrue(lines.stream().allMatch(l -> l.startsWith("{\"kind\":\"leak\",\"rank\":") && l.contains(
            "nonblocking collective never completed: ibarrier() on 'WORLD', started at OwnershipRank.java:")),
            lines.toString());
    }

    @Test
    void shouldFailACheckedJobThatWritesASendBufferInFlightAndKeepTheStatusUnderWarn() {
        final ProcessJobTest.Run r = ownership(List.of("--check", "--timeout", "60"), "write");
        assertEquals(1, r.status(), r.out() + r.err());
        assertTrue(r.err().contains("tutti check: rank 1: the send buffer of iallreduce(op=SUM, 1 x int) on 'WORLD', "
            + "started at OwnershipRank.java:"), r.err());
        final ProcessJobTest.Run warn = ownership(List.of("--check=warn", "--timeout", "60"), "write");
        assertEquals(0, warn.status(), warn.out() + warn.err());
        assertTrue(warn.err().contains("tutti check: rank 1: the send buffer of iallreduce"), warn.err());
        final ProcessJobTest.Run twin = ownership(List.of("--check", "--timeout", "60"), "ok");
        assertEquals(0, twin.status(), twin.out() + twin.err());
        assertTrue(twin.out().contains("sum 6"), twin.out());
        assertTrue(!twin.err().contains("tutti check"), twin.err());
    }
}
