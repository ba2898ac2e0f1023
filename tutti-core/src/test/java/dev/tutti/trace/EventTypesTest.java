package dev.tutti.trace;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The two types of each sampled event: the same fields under both names, the stack under the one with stack only;
 * and the recording's own event, which says how stacks were taken.
 */
class EventTypesTest {
    @Test
    void shouldRecordTheSameFieldsWithAndWithoutTheStack(@TempDir final Path dir) throws IOException {
        final Path file = dir.resolve("events.jfr");
        try (Recording r = new Recording()) {
            r.enable(P2pEvent.NAME);
            r.enable(P2pEvent.STACKED);
            r.enable(CollectiveEvent.NAME);
            r.enable(CollectiveEvent.STACKED);
            r.enable(RecordingEvent.NAME);
            r.start();
            for (final P2pEvent e : List.of(new P2pEvent.Plain(), new P2pEvent.Stacked())) {
                e.begin();
                Trace.p2p(e, "send", 3, "WORLD", 1, 7, 64, null);
            }
            for (final CollectiveEvent e : List.of(new CollectiveEvent.Plain(), new CollectiveEvent.Stacked())) {
                e.begin();
                if (Trace.end(e)) {
                    Trace.commit(e, new Call(), null);
                }
            }
            Trace.recording(3);
            r.stop();
            r.dump(file);
        }
        final Map<String, RecordedEvent> byType = new HashMap<>();
        for (final RecordedEvent e : RecordingFile.readAllEvents(file)) {
            byType.put(e.getEventType().getName(), e);
        }
        for (final String type : List.of(P2pEvent.NAME, P2pEvent.STACKED)) {
            final RecordedEvent e = byType.get(type);
            assertNotNull(e, type + " in " + byType.keySet());
            assertEquals("send", e.getString("op"), type);
            assertEquals(3, e.getInt("rank"), type);
            assertEquals("WORLD", e.getString("comm"), type);
            assertEquals(1, e.getInt("peer"), type);
            assertEquals(7, e.getInt("tag"), type);
            assertEquals(64, e.getLong("bytes"), type);
        }
        for (final String type : List.of(CollectiveEvent.NAME, CollectiveEvent.STACKED)) {
            final RecordedEvent e = byType.get(type);
            assertNotNull(e, type + " in " + byType.keySet());
            assertEquals("allreduce", e.getString("op"), type);
            assertEquals("blocking", e.getString("variant"), type);
            assertEquals(5, e.getInt("context"), type);
            assertEquals(1024, e.getLong("bytes"), type);
            assertEquals("ring", e.getString("algorithm"), type);
        }
        assertNull(byType.get(P2pEvent.NAME).getStackTrace());
        assertNull(byType.get(CollectiveEvent.NAME).getStackTrace());
        assertNotNull(byType.get(P2pEvent.STACKED).getStackTrace());
        assertNotNull(byType.get(CollectiveEvent.STACKED).getStackTrace());
        final RecordedEvent rec = byType.get(RecordingEvent.NAME);
        assertEquals(3, rec.getInt("rank"));
        assertEquals(StackSampling.EVERY, rec.getInt("stackSample"));
    }

    /** A collective's fields. */
    private static final class Call implements Trace.Collective {
        @Override
        public String op() {
            return "allreduce";
        }

        @Override
        public String variant() {
            return "blocking";
        }

        @Override
        public int worldRank() {
            return 3;
        }

        @Override
        public String comm() {
            return "WORLD";
        }

        @Override
        public int context() {
            return 5;
        }

        @Override
        public int size() {
            return 4;
        }

        @Override
        public int root() {
            return -1;
        }

        @Override
        public long bytes() {
            return 1024;
        }

        @Override
        public String algorithm() {
            return "ring";
        }

        @Override
        public String road() {
            return "messages";
        }
    }
}
