package dev.tutti.channel;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Datatype;
import dev.tutti.ErrorClass;
import dev.tutti.Intercommunicator;
import dev.tutti.Op;
import dev.tutti.Tutti;
import dev.tutti.TuttiException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Bad input is refused before anything is sent, with a message naming the operation, the channel and the value,
 * and the communicator stays usable; close never hangs; a rank that dies fails the waiting channel operations.
 */
// Runs alone (@Isolated): it asserts how soon a failure is noticed, which another job on these 2 cores would delay.
@Isolated
@Timeout(60)
class ChannelMisuseTest {

    private static TuttiException refused(final ErrorClass errorClass, final Executable call, final String... parts) {
        final TuttiException e = assertThrows(TuttiException.class, call);
        assertEquals(errorClass, e.errorClass(), e.getMessage());
        for (final String part : parts) {
            assertTrue(e.getMessage().contains(part), "\"" + part + "\" missing in: " + e.getMessage());
        }
        return e;
    }

    /** The communicator still runs a collective after the refusals. */
    private static void stillUsable(final Communicator w) {
        final int[] x = {1};
        w.allreduce(Buf.IN_PLACE, Buf.of(x), Op.SUM);
        assertEquals(w.size(), x[0]);
    }

    @Test
    void shouldRefuseBadCreationArguments() {
        Tutti.runLocal(2, AlltoallChannelTest.OPTS, w -> {
            final String op = "AlltoallChannel.create";
            refused(ErrorClass.ARG, () -> AlltoallChannel.create(w, "d", Datatype.INT, 4, 0), op, "channel=d",
                "depth=0", ">= 1");
            refused(ErrorClass.COUNT, () -> AlltoallChannel.create(w, "b", Datatype.INT, 0, 2), op, "blockCount=0");
            refused(ErrorClass.COUNT, () -> AlltoallChannel.create(w, "b", Datatype.INT, Integer.MAX_VALUE, 2),
                "blockCount=" + Integer.MAX_VALUE);
            refused(ErrorClass.ARG, () -> AlltoallChannel.create(w, " ", Datatype.INT, 4, 2), "name=\" \"");
            refused(ErrorClass.ARG, () -> AlltoallChannel.create(w, null, Datatype.INT, 4, 2), "name=null");
            refused(ErrorClass.TYPE, () -> AlltoallChannel.create(w, "t", Datatype.OBJECT, 4, 2), "type=OBJECT");
            refused(ErrorClass.ARG, () -> AlltoallChannel.create(w, "q", Datatype.INT, 4, 2, null), "qos=null");
            refused(ErrorClass.ARG, () -> ChannelQos.timeDriven(Duration.ZERO, Duration.ZERO), "period=PT0S");
            refused(ErrorClass.ARG, () -> ChannelQos.timeDriven(Duration.ofMillis(5), Duration.ofMillis(6)),
                "deadline=PT0.006S", "period=PT0.005S");
            refused(ErrorClass.ARG, () -> ChannelQos.timeDriven(Duration.ofMillis(-5), Duration.ofMillis(1)),
                "period=PT-0.005S");
            refused(ErrorClass.ARG, () -> ChannelQos.priority(0), "level=0", "1.." + ChannelQos.MAX_PRIORITY);
            try (AlltoallChannel ch = AlltoallChannel.create(w, "twice", Datatype.INT, 4, 2)) {
                refused(ErrorClass.ARG, () -> AlltoallChannel.create(w, "twice", Datatype.INT, 4, 2), op,
                    "name=twice", "no open channel");
                assertEquals("twice", ch.name());
            }
            stillUsable(w);
        });
    }

    @Test
    void shouldRefuseBadBipartiteCounts() {
        Tutti.runLocal(2, AlltoallChannelTest.OPTS, w -> {
            final Intercommunicator inter = BipartiteChannelTest.split(w, 1);
            final String op = "AlltoallChannel.bipartite";
            refused(ErrorClass.COUNT, () -> AlltoallChannel.bipartite(inter, "z", Datatype.INT, 0, 0, 2,
                ChannelQos.bestEffort()), op, "sendBlockCount=0 and recvBlockCount=0");
            refused(ErrorClass.COUNT, () -> AlltoallChannel.bipartite(inter, "z", Datatype.INT, -1, 3, 2,
                ChannelQos.bestEffort()), "sendBlockCount=-1");
            stillUsable(w);
        });
    }

    /** Ranks whose block sizes differ are refused on every rank, naming the rank that differs. */
    @Test
    void shouldRefuseRanksThatDisagree() {
        final AtomicReferenceArray<String> seen = new AtomicReferenceArray<>(3);
        Tutti.runLocal(3, AlltoallChannelTest.OPTS, w -> {
            final int block = 2 == w.rank() ? 5 : 4;
            final TuttiException e = refused(ErrorClass.ARG, () -> AlltoallChannel.create(w, "m", Datatype.INT,
                block, 2), "AlltoallChannel.create", "channel=m");
            seen.set(w.rank(), e.getMessage());
            assertTrue(AlltoallChannel.lookup(w, "m").isEmpty());
            stillUsable(w);
        });
        assertTrue(seen.get(0).contains("rank=2 sent send block=5"), seen.get(0));
        assertTrue(seen.get(2).contains("rank=0 sent send block=4"), seen.get(2));
    }

    @Test
    void shouldRefuseBuffersNotHeldFromThisChannel() {
        Tutti.runLocal(2, AlltoallChannelTest.OPTS, w -> {
            try (AlltoallChannel ch = AlltoallChannel.create(w, "own", Datatype.INT, 2, 2);
                 AlltoallChannel other = AlltoallChannel.create(w, "other", Datatype.INT, 2, 2)) {
                final ChannelBuffer foreign = other.takeSend();
                refused(ErrorClass.BUFFER, () -> ch.submit(foreign), "submit (channel=own", "channel=other",
                    "expected one of this channel");
                refused(ErrorClass.BUFFER, () -> ch.submit(null), "submit (channel=own", "buffer=null");
                final ChannelBuffer out = ch.takeSend();
                ch.submit(out);
                refused(ErrorClass.BUFFER, () -> ch.submit(out), "submit (channel=own", "submitted twice");
                refused(ErrorClass.BUFFER, out::buf, "ChannelBuffer.buf (channel=own", "the send buffer is");
                refused(ErrorClass.BUFFER, () -> ch.release(out), "release (channel=own", "a send buffer",
                    "expected a receive buffer");
                final ChannelBuffer in = ch.takeReceive();
                refused(ErrorClass.BUFFER, () -> ch.submit(in), "a receive buffer, expected a send buffer");
                refused(ErrorClass.TYPE, in::doubles, "datatype=INT");
                refused(ErrorClass.RANK, () -> in.block(2), "rank=2 is out of range");
                ch.release(in);
                refused(ErrorClass.BUFFER, () -> ch.release(in), "release (channel=own", "released twice");
                refused(ErrorClass.BUFFER, in::ints, "ChannelBuffer.ints", "receive buffer is FREE");
                other.submit(foreign);
                other.release(other.takeReceive());
            }
            stillUsable(w);
        });
    }

    @Test
    void shouldRefuseUseAfterClose() {
        Tutti.runLocal(2, AlltoallChannelTest.OPTS, w -> {
            final AlltoallChannel ch = AlltoallChannel.create(w, "gone", Datatype.INT, 2, 1);
            final ChannelBuffer out = ch.takeSend();
            ch.close();
            ch.close(); // twice is harmless
            refused(ErrorClass.REQUEST, ch::takeSend, "takeSend (channel=gone", "closed");
            refused(ErrorClass.REQUEST, () -> ch.submit(out), "submit (channel=gone", "closed");
            refused(ErrorClass.REQUEST, ch::takeReceive, "takeReceive (channel=gone", "closed");
            refused(ErrorClass.BUFFER, out::buf, "CLOSED");
            stillUsable(w);
        });
    }

    /**
     * Rank 1 never submits: rank 0's exchange cannot complete, and its close gives up after the drain time,
     * counting the exchange abandoned; a thread waiting in takeReceive fails when the channel closes.
     */
    @Test
    void shouldCloseWithinTheDrainTimeWhenAnExchangeCannotComplete() {
        Tutti.runLocal(2, AlltoallChannelTest.OPTS, w -> {
            final AlltoallChannel ch = AlltoallChannel.create(w, "stuck", Datatype.INT, 2, 2);
            if (0 == w.rank()) {
                final ChannelBuffer out = ch.takeSend();
                ch.submit(out);
                final AtomicReference<Throwable> waiting = new AtomicReference<>();
                final Thread reader = Thread.ofPlatform().start(() -> {
                    try {
                        ch.takeReceive();
                    } catch (final Throwable t) {
                        waiting.set(t);
                    }
                });
                assertEquals(null, ch.takeReceive(50, TimeUnit.MILLISECONDS));
                final long t0 = System.nanoTime();
                ch.close(Duration.ofMillis(200));
                final long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
                assertTrue(ms < 2_000, "close took " + ms + " ms");
                assertEquals(1, ch.stats().abandoned());
                reader.join(5_000);
                assertNotNull(waiting.get(), "takeReceive still waits after close");
                assertTrue(waiting.get().getMessage().contains("closed"), waiting.get().getMessage());
            } else {
                ch.close();
                assertEquals(0, ch.stats().abandoned());
            }
            stillUsable(w);
        });
    }

    /** Exchanges every rank submitted complete during close, unread. */
    @Test
    void shouldCompleteSubmittedExchangesOnClose() {
        Tutti.runLocal(3, AlltoallChannelTest.OPTS, w -> {
            final AlltoallChannel ch = AlltoallChannel.create(w, "drain", Datatype.LONG, 3, 2);
            for (int k = 0; k < 2; k++) {
                final ChannelBuffer out = ch.takeSend();
                ChannelData.fill(out, k, w.rank());
                ch.submit(out);
            }
            ch.close();
            assertEquals(0, ch.stats().abandoned());
            assertEquals(2, ch.stats().exchanges());
            stillUsable(w);
        });
    }

    /**
     * A rank that leaves fails the others' waiting channel operations, naming it and the channel: over slots (8 B
     * blocks) and the one-copy window (64 B), best effort and prioritized (level 4; 0 is best effort), shared and
     * confined (whose wait has no slices).
     */
    @ParameterizedTest(name = "{0} ints, priority {1}, confined {2}")
    @CsvSource({"2, 0, false", "16, 0, false", "2, 4, false", "16, 4, false", "2, 0, true", "16, 4, true"})
    void shouldFailWaitingOperationsWhenARankLeaves(final int block, final int level, final boolean confined) {
        final AtomicReferenceArray<TuttiException> seen = new AtomicReferenceArray<>(3);
        final ChannelQos shared = 0 == level ? ChannelQos.bestEffort() : ChannelQos.priority(level);
        final ChannelQos qos = confined ? shared.confined() : shared;
        final TuttiException job = assertThrows(TuttiException.class, () -> Tutti.runLocal(3,
            AlltoallChannelTest.OPTS, w -> {
                final AlltoallChannel ch = AlltoallChannel.create(w, "dead", Datatype.INT, block, 2, qos);
                if (1 == w.rank()) {
                    return; // leaves without taking part
                }
                ch.submit(ch.takeSend());
                try {
                    ch.takeReceive();
                } catch (final TuttiException e) {
                    seen.set(w.rank(), e);
                    refused(ErrorClass.PROC_FAILED, ch::takeSend, "takeSend (channel=dead", "rank 1");
                    throw e;
                }
            }));
        assertEquals(ErrorClass.PROC_FAILED, job.errorClass(), job.getMessage());
        for (final int r : new int[] {0, 2}) {
            final TuttiException e = seen.get(r);
            assertNotNull(e, "rank " + r + " did not fail");
            assertEquals(ErrorClass.PROC_FAILED, e.errorClass(), e.getMessage());
            assertTrue(e.getMessage().contains("takeReceive (channel=dead"), e.getMessage());
            assertTrue(e.getMessage().contains("rank 1"), e.getMessage());
        }
    }
}
