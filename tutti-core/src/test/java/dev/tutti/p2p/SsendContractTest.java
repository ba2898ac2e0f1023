package dev.tutti.p2p;

import dev.tutti.Buf;
import dev.tutti.Comm;
import dev.tutti.Communicator;
import dev.tutti.ErrorClass;
import dev.tutti.Intercommunicator;
import dev.tutti.Request;
import dev.tutti.Status;
import dev.tutti.TuttiException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The synchronous-mode send ({@link PointToPoint#ssend}, {@link PointToPoint#issend}) over every transport, written
 * once: it completes only after a receive at the destination matched its message. Order is observed through flags
 * the ranks set (the ranks of every job here are threads of this JVM) and through messages, never through timings:
 * a receiver that sleeps before it receives only gives a wrong (standard) send the time to return too early.
 */
@Timeout(60)
abstract class SsendContractTest {
    /** How long a receiver lets a sender run ahead before it receives: long enough to catch a send that returns. */
    private static final long AHEAD_MS = 200;

    @Test
    void shouldReturnOnlyAfterTheDelayedReceiveWasPosted() {
        final AtomicBoolean receiving = new AtomicBoolean();
        job(2, eager(), true, (world, abort) -> {
            final byte[] data = P2pContractTest.pattern(100, 1);
            if (0 == world.rank()) {
                world.ssend(Buf.of(data), 1, 3);
                assertTrue(receiving.get(), "ssend returned before rank 1 started to receive");
            } else {
                Thread.sleep(AHEAD_MS);
                receiving.set(true);
                final byte[] got = new byte[100];
                world.recv(Buf.of(got), 0, 3);
                assertArrayEquals(data, got);
            }
        });
    }

    @Test
    void shouldKeepAnIssendIncompleteUntilTheReceiverPosts() {
        job(2, eager(), true, (world, abort) -> {
            if (0 == world.rank()) {
                final Request r = world.issend(Buf.of(new int[] {7, 8}), 1, 1);
                for (int i = 0; i < 1000; i++) {
                    assertFalse(r.test(), "test() " + i + " was true before rank 1 posted its receive");
                }
                world.send(Buf.of(new byte[0]), 1, 2); // go: rank 1 waits for it before it receives
                r.waitFor();
                assertTrue(r.test());
            } else {
                world.recv(Buf.of(new byte[0]), 0, 2);
                final int[] got = new int[2];
                world.recv(Buf.of(got), 0, 1);
                assertArrayEquals(new int[] {7, 8}, got);
            }
        });
    }

    /** Two issends with one tag: the first receive completes the first only; the second waits for its own. */
    @Test
    void shouldCompleteEachOfTwoIssendsOfOneTagByItsOwnReceive() {
        job(2, eager(), true, (world, abort) -> {
            if (0 == world.rank()) {
                final Request a = world.issend(Buf.of(new int[] {1}), 1, 4);
                final Request b = world.issend(Buf.of(new int[] {2}), 1, 4);
                world.send(Buf.of(new byte[0]), 1, 5);
                world.recv(Buf.of(new byte[0]), 1, 6); // rank 1 received one of them, and waits for the next go
                a.waitFor();
                for (int i = 0; i < 1000; i++) {
                    assertFalse(b.test(), "the second issend completed before its receive");
                }
                world.send(Buf.of(new byte[0]), 1, 5);
                b.waitFor();
            } else {
                final int[] got = new int[1];
                world.recv(Buf.of(new byte[0]), 0, 5);
                world.recv(Buf.of(got), 0, 4);
                assertEquals(1, got[0]);
                world.send(Buf.of(new byte[0]), 0, 6);
                world.recv(Buf.of(new byte[0]), 0, 5);
                world.recv(Buf.of(got), 0, 4);
                assertEquals(2, got[0]);
            }
        });
    }

    @Test
    void shouldCompleteWhenTheReceiveWasPostedFirst() {
        job(2, eager(), true, (world, abort) -> {
            final byte[] data = P2pContractTest.pattern(3000, 2);
            if (0 == world.rank()) {
                world.recv(Buf.of(new byte[0]), 1, 8); // rank 1's receive is posted
                world.ssend(Buf.of(data), 1, 7);
            } else {
                final byte[] got = new byte[3000];
                final Request r = world.irecv(Buf.of(got), 0, 7);
                world.send(Buf.of(new byte[0]), 0, 8);
                r.waitFor();
                assertArrayEquals(data, got);
            }
        });
    }

    @Test
    void shouldNotCompleteOnAProbeButOnTheReceiveAfterIt() {
        final AtomicBoolean receiving = new AtomicBoolean();
        job(2, eager(), true, (world, abort) -> {
            if (0 == world.rank()) {
                world.ssend(Buf.of(new long[] {5, 6, 7}), 1, 9);
                assertTrue(receiving.get(), "ssend returned on the probe, before the receive");
            } else {
                final Status s = world.probe(Communicator.ANY_SOURCE, Communicator.ANY_TAG);
                assertNotNull(s);
                assertEquals(3, s.count());
                Thread.sleep(AHEAD_MS);
                receiving.set(true);
                final long[] got = new long[3];
                world.recv(Buf.of(got), s.source(), s.tag());
                assertArrayEquals(new long[] {5, 6, 7}, got);
            }
        });
    }

    @Test
    void shouldCompleteOnAnyOfSourceReceives() {
        final AtomicInteger receives = new AtomicInteger();
        job(3, eager(), true, (world, abort) -> {
            if (0 != world.rank()) {
                world.ssend(Buf.of(new int[] {world.rank(), 10 * world.rank()}), 0, 11);
                assertTrue(receives.get() > 0, "rank " + world.rank() + "'s ssend returned before any receive");
            } else {
                Thread.sleep(AHEAD_MS);
                final boolean[] seen = new boolean[3];
                for (int i = 0; i < 2; i++) {
                    receives.incrementAndGet();
                    final int[] got = new int[2];
                    final Status s = world.recv(Buf.of(got), Communicator.ANY_SOURCE, Communicator.ANY_TAG);
                    assertEquals(s.source(), got[0]);
                    assertEquals(10 * s.source(), got[1]);
                    assertEquals(11, s.tag());
                    seen[s.source()] = true;
                }
                assertTrue(seen[1] && seen[2]);
            }
        });
    }

    @Test
    void shouldCompleteAtOnceToProcNull() {
        job(2, eager(), true, (world, abort) -> {
            world.ssend(Buf.of(new int[3]), Comm.PROC_NULL, 1);
            final Request r = world.issend(Buf.of(new int[3]), Comm.PROC_NULL, 1);
            assertTrue(r.test());
        });
    }

    /** Sizes 0, 1, around the eager limit and 1 MiB, blocking and nonblocking, byte for byte. */
    @Test
    void shouldCarryEverySizeIntact() {
        final int e = eager();
        final int[] sizes = {0, 1, e - 1, e, e + 1, 1 << 20};
        job(2, e, true, (world, abort) -> {
            for (int i = 0; i < sizes.length; i++) {
                final byte[] data = P2pContractTest.pattern(sizes[i], 40 + i);
                if (0 == world.rank()) {
                    world.ssend(Buf.of(data), 1, i);
                    world.issend(Buf.of(data), 1, 100 + i).waitFor();
                } else {
                    final byte[] got = new byte[sizes[i]];
                    assertEquals(sizes[i], world.recv(Buf.of(got), 0, i).count());
                    assertArrayEquals(data, got, "ssend of " + sizes[i] + " bytes");
                    final byte[] again = new byte[sizes[i]];
                    world.irecv(Buf.of(again), 0, 100 + i).waitFor();
                    assertArrayEquals(data, again, "issend of " + sizes[i] + " bytes");
                }
            }
        });
    }

    /** On a duplicate and on an intercommunicator (other contexts than the world's), and freed afterwards. */
    @Test
    void shouldSsendOnOtherCommunicators() {
        job(2, eager(), true, (world, abort) -> {
            final Communicator dup = world.dup();
            final Communicator half = world.split(world.rank(), 0);
            final Intercommunicator inter = half.createIntercomm(0, world, 1 - world.rank(), 99);
            for (final Comm c : new Comm[] {dup, inter}) {
                final int peer = c == dup ? 1 - world.rank() : 0;
                if (0 == world.rank()) {
                    final Request r = c.issend(Buf.of(new int[] {3}), peer, 5);
                    for (int i = 0; i < 500; i++) {
                        assertFalse(r.test(), "complete before rank 1 received, on " + c);
                    }
                    world.send(Buf.of(new byte[0]), 1, 6);
                    r.waitFor();
                } else {
                    world.recv(Buf.of(new byte[0]), 0, 6);
                    final int[] got = new int[1];
                    c.recv(Buf.of(got), peer, 5);
                    assertEquals(3, got[0]);
                }
            }
            inter.free();
            half.free();
            dup.free();
        });
    }

    /** A synchronous send to oneself completes when one's own receive takes it. */
    @Test
    void shouldSsendToSelf() {
        job(2, eager(), true, (world, abort) -> {
            final Request r = world.issend(Buf.of(new int[] {world.rank()}), world.rank(), 3);
            assertFalse(r.test());
            final int[] got = new int[1];
            world.recv(Buf.of(got), world.rank(), 3);
            r.waitFor();
            assertEquals(world.rank(), got[0]);
        });
    }

    /** The destination leaves without receiving: the send fails, naming it, instead of hanging. */
    @Test
    void shouldFailWhenTheReceiverDies() {
        job(2, eager(), false, (world, abort) -> {
            if (0 == world.rank()) {
                final Request r = world.issend(Buf.of(new int[] {1}), 1, 0);
                world.send(Buf.of(new byte[0]), 1, 99); // rank 1 may die now
                final TuttiException f = assertThrows(TuttiException.class, () -> r.waitFor(20, TimeUnit.SECONDS));
                assertEquals(ErrorClass.PROC_FAILED, f.errorClass());
                assertTrue(f.getMessage().contains("ssend") && f.getMessage().contains("rank 1"), f.getMessage());
            } else {
                world.recv(Buf.of(new byte[0]), 0, 99);
                abort.run();
            }
        });
    }

    /** @return the eager limit the size test straddles */
    abstract int eager();

    /**
     * Runs a job of {@code n} ranks over the transport under test.
     *
     * @param n             ranks
     * @param eagerLimit    the transport's eager limit
     * @param finalizeAtEnd whether every rank closes normally at the end (false when the body kills a rank)
     * @param body          what each rank runs
     */
    abstract void job(int n, int eagerLimit, boolean finalizeAtEnd, P2pContractTest.Body body);
}
