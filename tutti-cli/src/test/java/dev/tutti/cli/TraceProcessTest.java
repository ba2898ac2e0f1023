package dev.tutti.cli;

import dev.tutti.cli.testranks.SitesRank;
import dev.tutti.cli.testranks.TracedRank;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code tutti run --jfr}, {@code --profile} and {@code --trace} on a 4-rank job of {@link TracedRank} (collectives,
 * point-to-point, a channel, a persistent collective), over shm and over tcp: each rank's recording holds Tutti's
 * events with their fields, and no wait event inside a blocking collective; the merged trace is valid trace-event JSON (required fields, complete events with
 * durations, timestamps that never go back on a track, every collective call on every rank); the profile's totals
 * are the trace's. Over shm every call takes its stack ({@code tutti.jfr.stacks=on}) and the call sites are exact;
 * over tcp the default samples them. A program of two call sites of different counts, with sampled stacks, has its
 * sites' shares estimated within a stated tolerance.
 */
@Tag("process")
@Timeout(120)
class TraceProcessTest {
    private static final int N = 4;

    private static final String COLLECTIVE = "dev.tutti.Collective";
    private static final String COLLECTIVE_STACKED = "dev.tutti.CollectiveWithStack";
    private static final String P2P = "dev.tutti.P2p";
    private static final String P2P_STACKED = "dev.tutti.P2pWithStack";

    @Test
    void shouldRecordTraceAndProfileOverShm(@TempDir final Path dir) throws IOException {
        check(dir, "shm", true);
    }

    @Test
    void shouldRecordTraceAndProfileOverTcp(@TempDir final Path dir) throws IOException {
        check(dir, "tcp", false);
    }

    /**
     * Two call sites in one loop, three calls of 8 B at one for each of 1 KiB at the other, stacks sampled: the
     * profile's estimated counts give the large site its quarter of the calls within 0.1 (250 samples or so: about
     * four standard deviations; the sampling is seeded, so a run is repeatable), its bytes within 2 % of their
     * true share, and the sites add up to the operation.
     */
    @Test
    void shouldEstimateCallSitesFromSampledStacks(@TempDir final Path dir) throws IOException {
        final Path profile = dir.resolve("profile.json");
        final List<String> a = new ArrayList<>(List.of("run", "-n", "2"));
        a.addAll(List.of(ProcessJobTest.RANK_JVM));
        a.addAll(List.of("--transport", "shm", "--profile=" + profile, "-cp", System.getProperty("java.class.path"),
            SitesRank.class.getName()));
        final ProcessJobTest.Run r = ProcessJobTest.tutti(a.toArray(new String[0]));
        assertEquals(0, r.status(), r.out() + r.err());
        assertTrue(r.out().contains("sites OK on 2 ranks"), r.out() + r.err());
        @SuppressWarnings("unchecked")
        final Map<String, Object> p = (Map<String, Object>) StrictJson.parse(Files.readString(profile));
        assertEquals(BigDecimal.valueOf(64), p.get("sites_estimated_from_1_in"));
        long opCount = 0;
        long opBytes = 0;
        for (final Object o : (List<?>) p.get("operations")) {
            final Map<?, ?> row = (Map<?, ?>) o;
            if ("allreduce".equals(row.get("operation"))) {
                opCount = ((BigDecimal) row.get("count")).longValueExact();
                opBytes = ((BigDecimal) row.get("bytes")).longValueExact();
            }
        }
        final long calls = 2L * SitesRank.ROUNDS * (SitesRank.SMALL + 1);
        assertEquals(calls, opCount, "the operation's count is exact");
        final Map<String, long[]> sites = new TreeMap<>();
        for (final Object o : (List<?>) p.get("sites")) {
            final Map<?, ?> row = (Map<?, ?>) o;
            if ("allreduce".equals(row.get("operation"))) {
                final String site = (String) row.get("site");
                sites.put(site.substring(0, Math.max(0, site.indexOf(':'))), new long[] {
                    ((BigDecimal) row.get("count")).longValueExact(),
                    ((BigDecimal) row.get("bytes")).longValueExact()});
            }
        }
        assertEquals(Set.of("SitesRank.small", "SitesRank.large"), sites.keySet(), "the allreduce's sites");
        final long[] small = sites.get("SitesRank.small");
        final long[] large = sites.get("SitesRank.large");
        assertTrue(Math.abs(small[0] + large[0] - calls) <= 2, "the sites add up to the operation: " + small[0]
            + " + " + large[0] + " of " + calls);
        final double share = (double) large[0] / calls;
        assertTrue(Math.abs(share - 1.0 / (SitesRank.SMALL + 1)) < 0.1, "the large site's estimated share of the "
            + "calls: " + share);
        final double bytes = (double) large[1] / opBytes;
        final double trueBytes = 1024.0 / (1024 + SitesRank.SMALL * 8);
        assertTrue(Math.abs(bytes - trueBytes) < 0.02, "the large site's estimated share of the bytes: " + bytes
            + ", true " + trueBytes);
    }

    @Test
    void shouldRecordNoStacksWhenTheSettingSaysOff(@TempDir final Path dir) throws IOException {
        final Path jfr = dir.resolve("jfr");
        final List<String> a = new ArrayList<>(List.of("run", "-n", "2"));
        a.addAll(List.of(ProcessJobTest.RANK_JVM));
        a.addAll(List.of("-J-Dtutti.jfr.stacks=off", "--jfr=" + jfr, "-cp", System.getProperty("java.class.path"),
            TracedRank.class.getName()));
        final ProcessJobTest.Run r = ProcessJobTest.tutti(a.toArray(new String[0]));
        assertEquals(0, r.status(), r.out() + r.err());
        int collectives = 0;
        for (final RecordedEvent e : RecordingFile.readAllEvents(jfr.resolve("rank-1.jfr"))) {
            final String type = e.getEventType().getName();
            assertFalse(COLLECTIVE_STACKED.equals(type) || P2P_STACKED.equals(type), "no event with stack: " + e);
            if (COLLECTIVE.equals(type) || P2P.equals(type)) {
                collectives += COLLECTIVE.equals(type) ? 1 : 0;
                assertEquals(null, e.getStackTrace(), e.toString());
            }
        }
        assertTrue(collectives >= TracedRank.ALLREDUCES, "collective events: " + collectives);
    }

    /** @param everyStack whether every call takes its stack ({@code tutti.jfr.stacks=on}), else the default */
    private static void check(final Path dir, final String transport, final boolean everyStack) throws IOException {
        final Path jfr = dir.resolve("jfr");
        final Path trace = dir.resolve("trace.json");
        final Path profile = dir.resolve("profile.json");
        final List<String> a = new ArrayList<>(List.of("run", "-n", String.valueOf(N)));
        a.addAll(List.of(ProcessJobTest.RANK_JVM));
        if (everyStack) {
            a.add("-J-Dtutti.jfr.stacks=on");
        }
        a.addAll(List.of("--transport", transport, "--jfr=" + jfr, "--profile=" + profile, "--trace",
            trace.toString(), "-cp", System.getProperty("java.class.path"), TracedRank.class.getName()));
        final ProcessJobTest.Run r = ProcessJobTest.tutti(a.toArray(new String[0]));
        assertEquals(0, r.status(), r.out() + r.err());
        assertTrue(r.out().contains("traced OK on " + N + " ranks"), r.out() + r.err());
        for (int rank = 0; rank < N; rank++) {
            checkRecording(jfr.resolve("rank-" + rank + ".jfr"), rank, "shm".equals(transport), everyStack);
        }
        final Map<String, Long> traced = checkTrace(trace);
        checkProfile(profile, traced, everyStack);
    }

    /**
     * The rank's own recording: Tutti's events, with the fields of the calls the program made, each call once under
     * one of its event's two types, the stack under the type with stack only (every call's with {@code everyStack}).
     */
    private static void checkRecording(final Path file, final int rank, final boolean shm, final boolean everyStack)
        throws IOException {
        assertTrue(Files.isRegularFile(file), "no recording " + file);
        int allreduces = 0;
        int persistent = 0;
        int slots = 0;
        int sends = 0;
        int exchanges = 0;
        int clocks = 0;
        boolean jvm = false;
        final List<RecordedEvent> blocking = new ArrayList<>();
        final List<RecordedEvent> waits = new ArrayList<>();
        int recordings = 0;
        for (final RecordedEvent e : RecordingFile.readAllEvents(file)) {
            final String type = e.getEventType().getName();
            if (COLLECTIVE.equals(type) || P2P.equals(type) || COLLECTIVE_STACKED.equals(type)
                || P2P_STACKED.equals(type)) {
                assertEquals(type.endsWith("WithStack"), null != e.getStackTrace(), "the stack under the type "
                    + "with stack only: " + e);
                assertFalse(everyStack && !type.endsWith("WithStack"), "with tutti.jfr.stacks=on every call's "
                    + "event has its stack: " + e);
            }
            switch (type.endsWith("WithStack") ? type.substring(0, type.length() - "WithStack".length()) : type) {
                case "dev.tutti.Recording" -> {
                    recordings++;
                    assertEquals(rank, e.getInt("rank"));
                    assertEquals(everyStack ? "on" : "sampled", e.getString("stacks"));
                    assertEquals(everyStack ? 1 : 64, e.getInt("stackSample"));
                }
                case "dev.tutti.Collective" -> {
                    assertEquals(rank, e.getInt("rank"));
                    if ("blocking".equals(e.getString("variant"))) {
                        blocking.add(e);
                    }
                    if ("allreduce".equals(e.getString("op")) && "blocking".equals(e.getString("variant"))
                        && "WORLD".equals(e.getString("comm"))) {
                        allreduces++;
                        assertEquals(8, e.getLong("bytes"));
                        assertEquals(N, e.getInt("size"));
                        assertFalse(e.getString("algorithm").isEmpty(), e.toString());
                        // Over shm the communicator's on-host region runs a small blocking call; over tcp, messages.
                        assertEquals(shm ? "region" : "messages", e.getString("road"), e.toString());
                    }
                    if ("allreduce".equals(e.getString("op")) && "persistent".equals(e.getString("variant"))) {
                        persistent++;
                        slots += "slots".equals(e.getString("road")) || "region".equals(e.getString("road")) ? 1 : 0;
                    }
                    if ("bcast".equals(e.getString("op"))) {
                        assertEquals(1, e.getInt("root"));
                    }
                }
                case "dev.tutti.P2p" -> {
                    if ("send".equals(e.getString("op"))) {
                        sends++;
                        assertEquals((rank + 1) % N, e.getInt("peer"));
                        assertEquals(7, e.getInt("tag"));
                        assertEquals(64, e.getLong("bytes"));
                    }
                }
                case "dev.tutti.ChannelExchange" -> {
                    if ("traced".equals(e.getString("channel"))) {
                        exchanges++;
                        assertEquals(16L * Integer.BYTES * N, e.getLong("bytes"));
                    }
                }
                case "dev.tutti.ClockOffset" -> {
                    clocks++;
                    assertEquals(rank, e.getInt("rank"));
                    assertEquals(N, e.getInt("size"));
                    assertTrue(0 == rank ? 0 == e.getLong("offset") : e.getLong("roundTrip") > 0, e.toString());
                }
                case "dev.tutti.Wait" -> waits.add(e);
                default -> jvm |= e.getEventType().getName().startsWith("jdk.");
            }
        }
        for (final RecordedEvent w : waits) {
            for (final RecordedEvent c : blocking) {
                assertFalse(w.getThread().getJavaThreadId() == c.getThread().getJavaThreadId()
                    && !w.getStartTime().isBefore(c.getStartTime()) && !w.getEndTime().isAfter(c.getEndTime()),
                    "rank " + rank + ": a wait inside a blocking collective is no event of its own (the "
                        + "collective's spans it): " + w + " inside " + c);
            }
        }
        assertEquals(TracedRank.ALLREDUCES, allreduces, "rank " + rank + ": blocking allreduces on WORLD");
        assertEquals(TracedRank.PERSISTENT, persistent, "rank " + rank + ": persistent starts");
        assertTrue(shm ? slots > 0 : 0 == slots, "rank " + rank + ": persistent starts through shared memory (the "
            + "on-host region or slots): " + slots + " (shm: some, tcp: none)");
        assertEquals(TracedRank.RING, sends, "rank " + rank + ": sends");
        assertEquals(TracedRank.EXCHANGES, exchanges, "rank " + rank + ": channel exchanges");
        assertEquals(1, clocks, "rank " + rank + ": clock offsets");
        assertEquals(1, recordings, "rank " + rank + ": the recording's own event");
        assertTrue(jvm, "rank " + rank + ": the JVM's own events are recorded beside Tutti's");
    }

    /**
     * The merged trace, read with a strict JSON reader.
     *
     * @return the total duration (ns) of the program's calls (depth 0) per operation, to compare with the profile
     */
    @SuppressWarnings("unchecked")
    private static Map<String, Long> checkTrace(final Path file) throws IOException {
        final Map<String, Object> root = (Map<String, Object>) StrictJson.parse(Files.readString(file));
        final List<Object> events = (List<Object>) root.get("traceEvents");
        assertNotNull(events, "traceEvents");
        final Set<Integer> named = new TreeSet<>();
        final Map<String, BigDecimal> lastTs = new HashMap<>();
        final Map<String, Map<Integer, String>> calls = new TreeMap<>();
        final Map<String, Map<Integer, BigDecimal>> starts = new TreeMap<>();
        final Map<String, Set<Object>> lastIn = new TreeMap<>();
        final Map<String, Long> totals = new TreeMap<>();
        final Map<Integer, Integer> exchanges = new TreeMap<>();
        int complete = 0;
        for (final Object o : events) {
            final Map<String, Object> e = (Map<String, Object>) o;
            for (final String field : List.of("name", "ph", "pid", "tid", "ts")) {
                assertTrue(e.containsKey(field), "event without " + field + ": " + e);
            }
            assertTrue(e.get("name") instanceof String, e.toString());
            final String ph = (String) e.get("ph");
            final int pid = ((BigDecimal) e.get("pid")).intValueExact();
            final BigDecimal tid = (BigDecimal) e.get("tid");
            if ("M".equals(ph)) {
                if ("process_name".equals(e.get("name"))) {
                    named.add(pid);
                }
                continue;
            }
            assertEquals("X", ph, "only complete events: " + e);
            complete++;
            final BigDecimal ts = (BigDecimal) e.get("ts");
            final BigDecimal dur = (BigDecimal) e.get("dur");
            assertNotNull(dur, "a complete event has a duration: " + e);
            assertTrue(dur.signum() >= 0 && ts.signum() >= 0, e.toString());
            final String track = pid + "/" + tid;
            final BigDecimal before = lastTs.put(track, ts);
            assertTrue(null == before || before.compareTo(ts) <= 0, "track " + track + " goes back at " + e);
            final Map<String, Object> args = (Map<String, Object>) e.get("args");
            final int depth = ((BigDecimal) args.get("depth")).intValueExact();
            if (0 == depth) {
                totals.merge((String) e.get("name"), ts.add(dur).subtract(ts).movePointRight(3).longValueExact(),
                    Long::sum);
            }
            if ("collective".equals(e.get("cat"))) {
                final String call = args.get("context") + "#" + args.get("call");
                final String before2 = calls.computeIfAbsent(call, k -> new TreeMap<>()).put(pid,
                    (String) e.get("name"));
                assertTrue(null == before2, "rank " + pid + " has call " + call + " twice");
                starts.computeIfAbsent(call, k -> new TreeMap<>()).put(pid, ts);
                lastIn.computeIfAbsent(call, k -> new java.util.HashSet<>()).add(args.get("last_in"));
                assertEquals(BigDecimal.valueOf(N), args.get("size"), e.toString());
            }
            if ("channel".equals(e.get("cat"))) {
                exchanges.merge(pid, 1, Integer::sum);
            }
        }
        assertEquals(Set.of(0, 1, 2, 3), named, "one process track per rank");
        assertTrue(complete > N * (TracedRank.ALLREDUCES + TracedRank.PERSISTENT), "events: " + complete);
        assertTrue(calls.size() >= TracedRank.ALLREDUCES + TracedRank.PERSISTENT + 3, "calls: " + calls.keySet());
        for (final Map.Entry<String, Map<Integer, String>> c : calls.entrySet()) {
            assertEquals(Set.of(0, 1, 2, 3), c.getValue().keySet(), "collective call " + c.getKey() + " on ranks "
                + c.getValue());
            assertEquals(1, Set.copyOf(c.getValue().values()).size(), "collective call " + c.getKey() + " is one "
                + "operation on every rank: " + c.getValue());
            final Map<Integer, BigDecimal> at = starts.get(c.getKey());
            final int last = at.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
            assertEquals(Set.of(BigDecimal.valueOf(last)), lastIn.get(c.getKey()), "call " + c.getKey()
                + ": every rank names the rank that started it last, " + at);
        }
        assertEquals(Map.of(0, TracedRank.EXCHANGES, 1, TracedRank.EXCHANGES, 2, TracedRank.EXCHANGES, 3,
            TracedRank.EXCHANGES), exchanges);
        return totals;
    }

    /**
     * The profile's totals per operation are the trace's, and its call sites are the program's lines: exact with
     * {@code everyStack}, else estimated, whose counts add up to the operation's.
     */
    @SuppressWarnings("unchecked")
    private static void checkProfile(final Path file, final Map<String, Long> traced, final boolean everyStack)
        throws IOException {
        final Map<String, Object> p = (Map<String, Object>) StrictJson.parse(Files.readString(file));
        assertEquals(BigDecimal.valueOf(N), p.get("size"));
        final Map<String, Long> totals = new TreeMap<>();
        for (final Object o : (List<Object>) p.get("operations")) {
            final Map<String, Object> row = (Map<String, Object>) o;
            totals.put((String) row.get("operation"), ((BigDecimal) row.get("total_ns")).longValueExact());
        }
        assertEquals(traced, totals, "the profile's totals per operation are the trace's");
        assertEquals(BigDecimal.valueOf(everyStack ? 0 : 64), p.get("sites_estimated_from_1_in"));
        boolean allreduceSite = false;
        long allreduces = 0;
        for (final Object o : (List<Object>) p.get("sites")) {
            final Map<String, Object> row = (Map<String, Object>) o;
            if (!"allreduce".equals(row.get("operation"))) {
                continue;
            }
            final String site = (String) row.get("site");
            assertTrue(site.startsWith("TracedRank.main:") || !everyStack && site.isEmpty(), row.toString());
            allreduces += ((BigDecimal) row.get("count")).longValueExact();
            if (site.startsWith("TracedRank.main:")
                && BigDecimal.valueOf((long) N * TracedRank.ALLREDUCES).equals(row.get("count"))) {
                allreduceSite = true;
                assertTrue(((BigDecimal) row.get("max_over_mean")).doubleValue() >= 1.0, row.toString());
            }
        }
        assertEquals((long) N * TracedRank.ALLREDUCES, allreduces, "the allreduce's sites add up to its calls: "
            + p.get("sites"));
        assertTrue(allreduceSite || !everyStack, "the allreduce loop's call site, " + N * TracedRank.ALLREDUCES
            + " calls: " + p.get("sites"));
        for (final Object o : (List<Object>) p.get("ranks")) {
            final Map<String, Object> row = (Map<String, Object>) o;
            final long comm = ((BigDecimal) row.get("comm_ns")).longValueExact();
            final long wall = ((BigDecimal) row.get("wall_ns")).longValueExact();
            assertTrue(comm > 0 && comm <= wall, row.toString());
        }
    }
}
