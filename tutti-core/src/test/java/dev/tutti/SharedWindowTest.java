package dev.tutti;

import dev.tutti.check.CheckerTest;
import dev.tutti.testkit.ShmJob;
import dev.tutti.testkit.TcpJob;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link SharedWindow}: every rank reaches every other rank's block with plain loads and stores, over shm and between
 * threads of one JVM; blocks of different sizes; none over tcp or with the checker on (on every rank); bad input
 * refused before anything is sent; a retired window's blocks back in the arena once every rank retired it.
 */
@Timeout(60)
class SharedWindowTest {
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    /**
     * Each rank writes a stamp into its right neighbour's block, then raises a flag there (release); each reads its
     * own block once its flag is up (acquire): the stamp is its left neighbour's. Rounds reuse the blocks.
     */
    private static void ring(final Communicator w, final SharedWindow win, final int rounds) {
        final int me = w.rank();
        final int n = w.size();
        final int right = (me + 1) % n;
        final int left = (me + n - 1) % n;
        assertEquals(n, win.size());
        assertEquals(64 + 8L * me, win.bytes(me), "each rank's own size");
        for (int k = 1; k <= rounds; k++) {
            final MemorySegment there = win.segment(right);
            for (int i = 1; i < 8; i++) {
                there.setAtIndex(ValueLayout.JAVA_LONG, i, k * 1_000L + me * 10L + i);
            }
            LONG.setRelease(there, 0L, (long) k);
            final MemorySegment mine = win.segment(me);
            for (int spins = 0; (long) LONG.getAcquire(mine, 0L) != k; spins++) {
                win.idle(spins);
                if (0 == (spins & 63)) {
                    win.progress();
                    assertNull(win.failureOf(left));
                }
            }
            for (int i = 1; i < 8; i++) {
                assertEquals(k * 1_000L + left * 10L + i, mine.getAtIndex(ValueLayout.JAVA_LONG, i), "round " + k);
            }
            w.barrier(); // nobody writes round k + 1 into a block before its owner read round k
        }
    }

    @Test
    void shouldReachEveryRanksBlockOverShm() {
        ShmJob.run(3, (world, shm) -> {
            world.barrier(); // the world's on-host region (coll.host), which stays as long as the world, is made here
            final long free = shm.sharedFreeBytes();
            final SharedWindow win = SharedWindow.allocate(world, 64 + 8L * world.rank()).orElseThrow();
            ring(world, win, 200);
            win.retire();
            win.retire(); // twice: nothing more
            world.barrier(); // every rank retired: the blocks are back (an allocation sweeps them first)
            final MemorySegment all = SharedMemory.of(world).orElseThrow().tryAllocate(free);
            assertNotNull(all, "the window's blocks went back to the arena");
            shm.freeShared(all);
            assertEquals(free, shm.sharedFreeBytes(), "every byte of the window's blocks went back to the arena");
        });
    }

    @Test
    void shouldReachEveryRanksBlockBetweenThreadsOfOneJvm() {
        Tutti.runLocal(4, Tutti.Options.defaults().timeout(Duration.ofSeconds(30)), w -> {
            final SharedWindow win = SharedWindow.allocate(w, 64 + 8L * w.rank()).orElseThrow();
            ring(w, win, 200);
            win.retire();
        });
    }

    @Test
    void shouldGiveOneRankItsOwnBlock() {
        Tutti.runLocal(1, Tutti.Options.defaults().timeout(Duration.ofSeconds(30)), w -> {
            final SharedWindow win = SharedWindow.allocate(w, 24).orElseThrow();
            assertEquals(24, win.segment(0).byteSize());
            win.segment(0).set(ValueLayout.JAVA_LONG, 16, 7L);
            assertEquals(7L, win.segment(0).get(ValueLayout.JAVA_LONG, 16));
            win.retire();
        });
    }

    @Test
    void shouldBeEmptyOnEveryRankOverTcp() {
        TcpJob.run(2, 4096, (world, tcp) -> {
            final Optional<SharedWindow> win = SharedWindow.allocate(world, 128);
            assertTrue(win.isEmpty(), "no shared memory between tcp ranks");
            world.barrier(); // the communicator is still in step
        });
    }

    /** With the checker on there is no window: waits on plain stores would be out of its sight. */
    @Test
    void shouldBeEmptyWithTheCheckerOn() {
        Tutti.runLocal(2, CheckerTest.CHECKED, w -> {
            assertTrue(SharedWindow.allocate(w, 64).isEmpty());
            w.barrier();
        });
    }

    @Test
    void shouldRefuseBadInputBeforeAnythingIsSent() {
        Tutti.runLocal(2, Tutti.Options.defaults().timeout(Duration.ofSeconds(30)), w -> {
            final TuttiException negative = assertThrows(TuttiException.class, () -> SharedWindow.allocate(w, -1));
            assertEquals(ErrorClass.ARG, negative.errorClass());
            assertTrue(negative.getMessage().contains("SharedWindow.allocate") && negative.getMessage().contains(
                "bytes=-1"), negative.getMessage());
            final TuttiException none = assertThrows(TuttiException.class, () -> SharedWindow.allocate(null, 8));
            assertEquals(ErrorClass.COMM, none.errorClass());
            final SharedWindow win = SharedWindow.allocate(w, 8).orElseThrow(); // the communicator still works
            final TuttiException rank = assertThrows(TuttiException.class, () -> win.segment(2));
            assertEquals(ErrorClass.RANK, rank.errorClass());
            assertTrue(rank.getMessage().contains("SharedWindow.segment"), rank.getMessage());
            final TuttiException level = assertThrows(TuttiException.class, () -> win.prioritize(0, () -> true,
                () -> 0));
            assertEquals(ErrorClass.ARG, level.errorClass());
            assertTrue(level.getMessage().contains("SharedWindow.prioritize") && level.getMessage().contains(
                "level=0"), level.getMessage());
            assertThrows(TuttiException.class, () -> win.prioritize(1, null, () -> 0));
            assertThrows(TuttiException.class, () -> win.prioritize(1, () -> true, null));
            assertFalse(win.outranked(0), "a refused registration left nothing behind");
            win.retire();
        });
    }

    /**
     * A protocol registered at a priority outranks lower levels while it says it is in flight, is advanced by the
     * rank's progress (and by a wait on a lower-priority collective), and is gone once its registration is closed.
     */
    @Test
    void shouldPutARegisteredProtocolInTheRanksPriorityOrder() {
        Tutti.runLocal(2, Tutti.Options.defaults().timeout(Duration.ofSeconds(30)), w -> {
            final SharedWindow win = SharedWindow.allocate(w, 8).orElseThrow();
            final java.util.concurrent.atomic.AtomicBoolean busy = new java.util.concurrent.atomic.AtomicBoolean(true);
            final java.util.concurrent.atomic.AtomicInteger advanced = new java.util.concurrent.atomic.AtomicInteger();
            try (SharedWindow.Registration r = win.prioritize(5, busy::get, advanced::incrementAndGet)) {
                assertTrue(win.outranked(0));
                assertTrue(win.outranked(4));
                assertFalse(win.outranked(5), "only higher levels outrank");
                win.progress();
                assertTrue(advanced.get() > 0, "the rank's progress advances it");
                final int before = advanced.get();
                w.barrier(); // a wait on a collective of level 0 runs the rank's progress too
                assertTrue(advanced.get() > before, "a wait advances it");
                busy.set(false);
                assertFalse(win.outranked(0), "nothing in flight: it outranks nothing");
                busy.set(true);
                r.close();
                r.close(); // twice: nothing more
                assertFalse(win.outranked(0), "closed: out of the order");
            }
            win.retire();
        });
    }

    /** A rank that left is named by {@link SharedWindow#failureOf}. */
    @Test
    void shouldNameARankThatLeft() {
        Tutti.runLocal(2, Tutti.Options.defaults().timeout(Duration.ofSeconds(30)), w -> {
            final SharedWindow win = SharedWindow.allocate(w, 8).orElseThrow();
            if (1 == w.rank()) {
                return;
            }
            TuttiException gone = null;
            for (int spins = 0; null == gone; spins++) {
                win.idle(spins);
                win.progress();
                gone = win.failureOf(1);
            }
            assertEquals(ErrorClass.PROC_FAILED, gone.errorClass(), gone.getMessage());
            assertTrue(gone.getMessage().contains("rank 1"), gone.getMessage());
        });
    }
}
