package dev.tutti.job;

import dev.tutti.Buf;
import dev.tutti.calls.CommImpl;
import dev.tutti.testkit.ShmJob;
import dev.tutti.testkit.TcpJob;
import dev.tutti.testkit.Worlds;
import dev.tutti.trace.ClockOffsetEvent;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The clock measurement of a job that records its events ({@link ClockSync}): every rank records one offset to
 * rank 0 (ranks of one JVM share one clock, so each offset is within its round trip of zero), and its ping-pongs
 * leave nothing behind: the program's first messages, of any tag, meet none of them.
 */
@Timeout(60)
class ClockSyncTest {
    private static final int N = 4;

    @Test
    void shouldRecordEveryRanksOffsetOverShm(@TempDir final Path dir) throws Exception {
        check(dir, true);
    }

    @Test
    void shouldRecordEveryRanksOffsetOverTcp(@TempDir final Path dir) throws Exception {
        check(dir, false);
    }

    private static void check(final Path dir, final boolean shm) throws Exception {
        final Path file = dir.resolve("clock.jfr");
        try (Recording rec = new Recording()) {
            rec.enable(ClockOffsetEvent.NAME);
            rec.start();
            if (shm) {
                ShmJob.run(N, (world, t) -> measureThenTalk(world));
            } else {
                TcpJob.run(N, 64 * 1024, (world, t) -> measureThenTalk(world));
            }
            rec.stop();
            rec.dump(file);
        }
        final Map<Integer, RecordedEvent> byRank = new TreeMap<>();
        final List<RecordedEvent> all = RecordingFile.readAllEvents(file);
        for (final RecordedEvent e : all) {
            if (ClockOffsetEvent.NAME.equals(e.getEventType().getName())) {
                assertEquals(null, byRank.put(e.getInt("rank"), e), "rank " + e.getInt("rank") + " twice");
            }
        }
        assertEquals(List.of(0, 1, 2, 3), List.copyOf(byRank.keySet()), all.toString());
        assertEquals(0, byRank.get(0).getLong("offset"));
        for (int r = 1; r < N; r++) {
            final RecordedEvent e = byRank.get(r);
            assertEquals(N, e.getInt("size"));
            final long rtt = e.getLong("roundTrip");
            assertTrue(rtt > 0, e.toString());
            assertTrue(Math.abs(e.getLong("offset")) <= rtt, "one clock: the offset is within the round trip, " + e);
        }
    }

    /** The measurement, then a ring of messages under the measurement's own tag range and any tag. */
    private static void measureThenTalk(final dev.tutti.Communicator world) {
        final CommImpl impl = Worlds.impl(world);
        ClockSync.measure(impl.engine(), TuttiImpl.WORLD_P2P_CONTEXT, impl.view());
        final int r = world.rank();
        final long[] got = new long[1];
        final dev.tutti.Request q = world.irecv(Buf.of(got), dev.tutti.Comm.ANY_SOURCE, dev.tutti.Comm.ANY_TAG);
        world.send(Buf.of(new long[] {1000 + r}), (r + 1) % N, Integer.MAX_VALUE - 45);
        q.waitFor();
        assertEquals(1000 + (r + N - 1) % N, got[0], "the program's first message, not a ping-pong's");
        world.barrier();
    }
}
