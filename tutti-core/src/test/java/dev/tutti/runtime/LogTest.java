package dev.tutti.runtime;

import dev.tutti.internal.Settings;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

import java.lang.System.Logger.Level;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Tutti's log records: one line naming the rank, and only as severe as {@code tutti.log.level} lets through. */
// Runs alone (@Isolated): it sets System properties that the jobs of other tests would read.
@Isolated
class LogTest {
    @AfterEach
    void clear() {
        System.clearProperty(Settings.LOG_LEVEL.name());
    }

    @Test
    void shouldHideInformationByDefault() {
        assertTrue(Log.passes(Level.WARNING));
        assertTrue(Log.passes(Level.ERROR));
        assertFalse(Log.passes(Level.INFO));
        assertFalse(Log.passes(Level.DEBUG));
    }

    @Test
    void shouldFollowTheSetting() {
        System.setProperty(Settings.LOG_LEVEL.name(), "debug");
        assertTrue(Log.passes(Level.DEBUG));
        assertFalse(Log.passes(Level.TRACE));
        System.setProperty(Settings.LOG_LEVEL.name(), "off");
        assertFalse(Log.passes(Level.ERROR));
    }

    @Test
    void shouldGiveJavaUtilLoggingOneLineUnlessTheProgramChoseAFormat() {
        final String before = System.getProperty(Log.JUL_FORMAT_PROPERTY);
        try {
            System.clearProperty(Log.JUL_FORMAT_PROPERTY);
            Log.oneLinePerRecord();
            assertEquals(Log.ONE_LINE, System.getProperty(Log.JUL_FORMAT_PROPERTY));
            System.setProperty(Log.JUL_FORMAT_PROPERTY, "%5$s%n");
            Log.oneLinePerRecord();
            assertEquals("%5$s%n", System.getProperty(Log.JUL_FORMAT_PROPERTY), "the program's own format wins");
        } finally {
            if (null == before) {
                System.clearProperty(Log.JUL_FORMAT_PROPERTY);
            } else {
                System.setProperty(Log.JUL_FORMAT_PROPERTY, before);
            }
        }
    }

    @Test
    void shouldLetTheDefaultBackendPassDebugRecordsWhenTheLevelAsksForThem() {
        final java.util.logging.Logger origin = java.util.logging.Logger.getLogger(LogTest.class.getName());
        final List<String> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        final java.util.logging.Handler capture = new java.util.logging.Handler() {
            @Override
            public void publish(final java.util.logging.LogRecord r) {
                seen.add(r.getLevel() + " " + r.getMessage());
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        origin.addHandler(capture);
        try {
            System.setProperty(Settings.LOG_LEVEL.name(), "debug");
            Log.oneLinePerRecord();
            Log.of(LogTest.class).log(Level.DEBUG, "shm: removed {0}", "f");
            assertEquals(List.of("FINE tutti: shm: removed f"), seen, "java.util.logging passes INFO and above "
                + "unless Tutti's root logger " + Log.ROOT + " was opened to every level");
            assertEquals(java.util.logging.Level.ALL, java.util.logging.Logger.getLogger(Log.ROOT).getLevel());
        } finally {
            origin.removeHandler(capture);
        }
    }

    @Test
    void shouldWriteOneLineNamingTheRankOfTheThreadAndTheThreadsItStarts() throws InterruptedException {
        assertEquals("tutti: shm: removed x", Log.line(null, "shm: removed {0}", "x"));
        assertEquals("tutti rank 3: a b", Log.line("tutti rank 3", "a\nb"));
        final AtomicReference<String> seen = new AtomicReference<>();
        final Thread rank = new Thread(() -> {
            Log.rank(3);
            final Thread io = new Thread(() -> seen.set(Log.who()));
            io.start();
            try {
                io.join();
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        rank.start();
        rank.join();
        assertEquals("tutti rank 3", seen.get());
    }
}
