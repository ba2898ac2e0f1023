package dev.tutti.transport.tcp;

import dev.tutti.Buf;
import dev.tutti.Comm;
import dev.tutti.Communicator;
import dev.tutti.Datatype;
import dev.tutti.Request;
import dev.tutti.Status;
import dev.tutti.internal.Settings;
import dev.tutti.testkit.StressPayload;
import dev.tutti.testkit.StressSizes;
import dev.tutti.testkit.TcpJob;
import dev.tutti.testkit.TcpProcesses;


import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Randomized stress of the tcp transport over real loopback connections (ranks as threads, {@link TcpJob}): every
 * message's bytes come from a seeded generator ({@link StressPayload}) and are compared whole on arrival, the
 * report naming the message, its size and its first differing offset. Sizes sit on the protocol's boundaries
 * ({@link StressSizes}), with the default and raised eager limits.
 *
 * <p>The run's seed is random and is named in every failure; {@code -Dtutti.stress.seed=N} repeats a run and
 * {@code -Dtutti.stress.messages=N} scales it (messages per sender; the default keeps the class within about a
 * minute on 2 cores).
 */
@Timeout(150)
class TcpStressTest {
    private static final long SEED = Long.getLong("tutti.stress.seed", System.nanoTime());
    private static final int MESSAGES = Integer.getInteger("tutti.stress.messages", 120);
    private static final int SENDERS = 3;
    private static final int WINDOW = 4;
    private static final int TAGS = 4096;

    /**
     * Three senders each send a plan of boundary-sized messages (a window of nonblocking sends from heap and
     * native buffers, a huge one alone) to rank 0, which receives them all with ANY_SOURCE: into one large buffer
     * (ANY_TAG; the message may arrive before or after the receive), after a probe into a buffer of exactly the
     * message's size (so it arrived first, an eager one possibly still streaming), or with one ANY_TAG receive
     * posted per sender at once. Per sender, messages must come in send order with their size, tag and bytes.
     */
    @ParameterizedTest(name = "eager limit {0}")
    @ValueSource(ints = {64 * 1024, 512 * 1024, 1 << 20, 8 << 20})
    void shouldDeliverEveryByteFromManySendersToOneWildcardReceiver(final int eagerLimit) {
        runPlans(eagerLimit, TcpStressTest::receiveAll);
    }

    /**
     * As {@link #shouldDeliverEveryByteFromManySendersToOneWildcardReceiver}, with other rendezvous prefixes than
     * the default: none (the RTS alone), one that ends inside a read of the header's buffer, and one larger than the
     * read buffer (at an eager limit whose staging buffer holds it).
     *
     * @param prefix     the most bytes of a rendezvous message that its RTS carries
     * @param eagerLimit the job's eager limit
     */
    @ParameterizedTest(name = "prefix {0}, eager limit {1}")
    @CsvSource({"0, 65536", "1000, 65536", "307200, 524288"})
    void shouldDeliverEveryByteWithOtherRendezvousPrefixes(final int prefix, final int eagerLimit) {
        final String name = Settings.TCP_RENDEZVOUS_PREFIX.name();
        final String before = System.getProperty(name);
        System.setProperty(name, Integer.toString(prefix));
        try {
            runPlans(eagerLimit, TcpStressTest::receiveAll);
        } finally {
            if (null == before) {
                System.clearProperty(name);
            } else {
                System.setProperty(name, before);
            }
        }
    }

    /**
     * As {@link #shouldDeliverEveryByteFromManySendersToOneWildcardReceiver}, but rank 0 receives with one thread per
     * sender, all waiting at once (MPI_THREAD_MULTIPLE): each thread receives its sender's messages with ANY_TAG, by
     * a blocking receive into a large buffer, a probe then a receive of exactly the message's size, or a nonblocking
     * receive and a wait, and now and then sleeps a few milliseconds before it receives, so that both the waiting
     * threads and the I/O thread read the sockets, and messages arrive both expected and unexpected.
     *
     * @param eagerLimit the job's eager limit
     */
    @ParameterizedTest(name = "eager limit {0}")
    @ValueSource(ints = {64 * 1024, 1 << 20})
    void shouldDeliverEveryByteToSeveralThreadsOfOneRankWaitingAtOnce(final int eagerLimit) {
        runPlans(eagerLimit, TcpStressTest::receiveByThreads);
    }

    /** Rank 0's side of a run: receives every sender's plan. */
    @FunctionalInterface
    interface Receiver {
        void receive(Communicator world, int[][] plans, int eagerLimit) throws Exception;
    }

    /** Draws each sender's plan, then runs the senders and rank 0's {@code receiver} over tcp. */
    static void runPlans(final int eagerLimit, final Receiver receiver) {
        final StressSizes sizes = new StressSizes(eagerLimit);
        final int[][] plans = new int[SENDERS + 1][];
        for (int s = 1; s <= SENDERS; s++) {
            plans[s] = plan(sizes, eagerLimit, s);
        }
        TcpJob.run(SENDERS + 1, eagerLimit, (world, tcp) -> {
            if (0 == world.rank()) {
                receiver.receive(world, plans, eagerLimit);
            } else {
                sendAll(world, plans[world.rank()]);
            }
        });
    }

    /**
     * {@link TcpPingPongStress} with ranks as threads, at a raised eager limit (512 KiB) and an 8 MiB one.
     *
     * @param eagerLimit the job's eager limit
     */
    @ParameterizedTest(name = "eager limit {0}")
    @ValueSource(ints = {512 * 1024, 8 << 20})
    void shouldKeepEveryByteOfLargeEagerMessagesInAPingPong(final int eagerLimit) {
        TcpJob.run(2, eagerLimit, (world, tcp) -> assertNull(TcpPingPongStress.run(world, eagerLimit, SEED, 2000)));
    }

    /**
     * {@link TcpPingPongStress} with ranks as fresh processes at raised eager limits: the shape in which C2 on
     * JDK 25.0.3 miscompiled the JDK's small segment copy into EagerInbound (see SegmentCopy), which a JVM that
     * already ran other tests does not reliably recreate. Each job is a fresh chance for that compilation.
     *
     * @param eagerLimit the job's eager limit
     */
    @ParameterizedTest(name = "eager limit {0}")
    @ValueSource(ints = {512 * 1024, 1 << 20, 8 << 20})
    @Tag("process")
    void shouldKeepEveryByteOfLargeEagerMessagesInAPingPongBetweenProcesses(final int eagerLimit) throws Exception {
        final List<TcpProcesses.Rank> ranks = TcpProcesses.run(2, "tcp-stress",
            List.of("-Dtutti.eager.limit=" + eagerLimit), TcpPingPongStress.class, List.of(Long.toString(SEED), "3000"),
            100);
        for (int r = 0; r < ranks.size(); r++) {
            final String out = ranks.get(r).output();
            assertTrue(ranks.get(r).ended(), "rank " + r + " did not finish, " + seedText() + ": " + out);
            assertEquals(0, ranks.get(r).exit(), "rank " + r + " failed, " + seedText() + ": " + out);
        }
    }

    /**
     * {@link TcpHeapIoStress}: ranks as processes with native access enabled (as {@code tutti run} starts them), so
     * that rendezvous data in heap arrays is written and read by the socket straight from and into the arrays
     * ({@link NativeSocket}); both ranks send at once, several messages each way, at random offsets, and every byte
     * (and the bytes around each receive) is checked. A rank where that I/O is not available fails the test.
     */
    @org.junit.jupiter.api.Test
    @Tag("process")
    void shouldKeepEveryByteOfRendezvousMessagesReadAndWrittenStraightFromHeapArrays() throws Exception {
        final List<TcpProcesses.Rank> ranks = TcpProcesses.run(2, "tcp-heap-io",
            List.of("--enable-native-access=ALL-UNNAMED"), TcpHeapIoStress.class, List.of(Long.toString(SEED), "100"),
            100);
        for (int r = 0; r < ranks.size(); r++) {
            final String out = ranks.get(r).output();
            assertTrue(ranks.get(r).ended(), "rank " + r + " did not finish, " + seedText() + ": " + out);
            assertEquals(0, ranks.get(r).exit(), "rank " + r + " failed, " + seedText() + ": " + out);
        }
    }

    /**
     * {@link TcpGateStress}: this class's runs of many senders to one wildcard receiver (one thread, then one per
     * sender), and allreduce and bcast at rendezvous sizes, in a process with native access enabled, where each
     * rank's waiting threads read only the sockets the kernel says are ready ({@link ReadinessGate}); the program
     * fails if a rank's transport reads without the gate.
     */
    @org.junit.jupiter.api.Test
    @Tag("process")
    void shouldDeliverEveryByteWhenWaitingThreadsReadOnlyTheReadySockets() throws Exception {
        final List<TcpProcesses.Rank> ranks = TcpProcesses.run(1, "tcp-gate",
            List.of("--enable-native-access=ALL-UNNAMED", "-Dtutti.stress.seed=" + SEED,
                "-Dtutti.stress.messages=" + MESSAGES), TcpGateStress.class, List.of(), 120);
        final String out = ranks.getFirst().output();
        assertTrue(ranks.getFirst().ended(), "the job did not finish, " + seedText() + ": " + out);
        assertEquals(0, ranks.getFirst().exit(), "the job failed, " + seedText() + ": " + out);
    }

    // ------------------------------------------------------------------------------------------------ senders

    private static int[] plan(final StressSizes sizes, final int eagerLimit, final int sender) {
        final SplittableRandom r = new SplittableRandom(SEED ^ ((long) eagerLimit << 8) ^ sender);
        final int[] plan = new int[MESSAGES];
        boolean hugeLeft = true;
        for (int i = 0; i < plan.length; i++) {
            plan[i] = sizes.draw(r, hugeLeft);
            hugeLeft &= plan[i] <= StressSizes.HUGE_BYTES;
        }
        return plan;
    }

    private static int tagOf(final int index) {
        return index % TAGS;
    }

    private static void sendAll(final Communicator world, final int[] plan) {
        final int me = world.rank();
        int regular = 0;
        int huge = 0;
        for (final int s : plan) {
            if (s > StressSizes.HUGE_BYTES) {
                huge = Math.max(huge, s);
            } else {
                regular = Math.max(regular, s);
            }
        }
        try (Arena arena = Arena.ofShared()) {
            final byte[][] heap = new byte[WINDOW][];
            final MemorySegment[] direct = new MemorySegment[WINDOW];
            for (int w = 0; w < WINDOW; w++) {
                heap[w] = new byte[regular];
                direct[w] = arena.allocate(Math.max(1, regular));
            }
            final byte[] scratch = new byte[Math.max(regular, huge)];
            final Request[] window = new Request[WINDOW];
            for (int i = 0; i < plan.length; i++) {
                final int size = plan[i];
                final long messageSeed = StressPayload.messageSeed(SEED, me, i);
                if (size > StressSizes.HUGE_BYTES) {
                    waitAll(window);
                    StressPayload.fill(scratch, size, messageSeed);
                    world.send(Buf.of(scratch, 0, size), 0, tagOf(i));
                    continue;
                }
                final int w = i % WINDOW;
                if (null != window[w]) {
                    window[w].waitFor();
                }
                final Buf buf;
                if (0 == (i & 1)) {
                    StressPayload.fill(heap[w], size, messageSeed);
                    buf = Buf.of(heap[w], 0, size);
                } else {
                    StressPayload.fill(direct[w], size, messageSeed, scratch);
                    buf = Buf.of(direct[w], Datatype.BYTE, 0, size);
                }
                window[w] = world.isend(buf, 0, tagOf(i));
            }
            waitAll(window);
        }
    }

    private static void waitAll(final Request[] window) {
        for (int w = 0; w < window.length; w++) {
            if (null != window[w]) {
                window[w].waitFor();
                window[w] = null;
            }
        }
    }

    // ------------------------------------------------------------------------------------------------ receiver

    /** Rank 0's side: every message of every plan, in the three ways described on the test. */
    static void receiveAll(final Communicator world, final int[][] plans, final int eagerLimit) {
        int max = 1;
        int total = 0;
        for (int s = 1; s <= SENDERS; s++) {
            for (final int size : plans[s]) {
                max = Math.max(max, size);
            }
            total += plans[s].length;
        }
        final int[] next = new int[SENDERS + 1];
        final SplittableRandom r = new SplittableRandom(SEED ^ eagerLimit);
        final Checker check = new Checker(plans, next, max, eagerLimit);
        try (Arena arena = Arena.ofShared()) {
            final byte[] big = new byte[max];
            final MemorySegment bigDirect = arena.allocate(max);
            final byte[][] exact = new byte[SENDERS + 1][];
            for (int s = 1; s <= SENDERS; s++) {
                exact[s] = new byte[max];
            }
            int received = 0;
            while (received < total) {
                final int way = r.nextInt(10);
                if (way < 4) {
                    final boolean direct = r.nextBoolean();
                    final Status st = direct ? world.recv(Buf.of(bigDirect, Datatype.BYTE), Comm.ANY_SOURCE,
                        Comm.ANY_TAG) : world.recv(Buf.of(big), Comm.ANY_SOURCE, Comm.ANY_TAG);
                    check.arrived(st, direct ? StressPayload.read(bigDirect, (int) st.bytes(), check.actual) : big,
                        "ANY_SOURCE/ANY_TAG receive into a " + max + "-byte " + (direct ? "native" : "heap")
                            + " buffer");
                    received++;
                } else if (way < 7) {
                    final Status probed = world.probe(Comm.ANY_SOURCE, Comm.ANY_TAG);
                    final int s = probed.source();
                    final Status st = world.recv(Buf.of(exact[s], 0, (int) probed.bytes()), s, probed.tag());
                    check.arrived(st, exact[s], "receive after ANY_SOURCE/ANY_TAG probe, exact size");
                    received++;
                } else {
                    received += receivePerSender(world, plans, next, exact, check);
                }
            }
        }
    }

    /** Rank 0's side of the threaded test: one thread per sender, each checking its sender's messages. */
    static void receiveByThreads(final Communicator world, final int[][] plans, final int eagerLimit)
        throws InterruptedException {
        final Throwable[] failures = new Throwable[SENDERS + 1];
        final Thread[] threads = new Thread[SENDERS + 1];
        for (int s = 1; s <= SENDERS; s++) {
            final int sender = s;
            threads[s] = Thread.ofPlatform().name("tcp-stress-receiver-" + s).start(() -> {
                try {
                    receiveFrom(world, plans, sender, eagerLimit);
                } catch (final Throwable t) {
                    failures[sender] = t;
                }
            });
        }
        for (int s = 1; s <= SENDERS; s++) {
            threads[s].join();
        }
        for (int s = 1; s <= SENDERS; s++) {
            if (null != failures[s]) {
                throw new AssertionError("receiver thread of rank " + s + " failed, " + seedText(), failures[s]);
            }
        }
    }

    private static void receiveFrom(final Communicator world, final int[][] plans, final int sender,
        final int eagerLimit) throws InterruptedException {
        final int[] plan = plans[sender];
        int max = 1;
        for (final int size : plan) {
            max = Math.max(max, size);
        }
        final Checker check = new Checker(plans, new int[SENDERS + 1], max, eagerLimit);
        final SplittableRandom r = new SplittableRandom(SEED ^ eagerLimit ^ ((long) sender << 32));
        final byte[] big = new byte[max];
        final byte[] exact = new byte[max];
        for (int i = 0; i < plan.length; i++) {
            final int way = r.nextInt(12);
            if (way < 2) {
                Thread.sleep(1 + r.nextInt(3));
            }
            if (way < 5) {
                check.arrived(world.recv(Buf.of(big), sender, Comm.ANY_TAG), big,
                    "receive from one sender into a " + max + "-byte buffer, one thread per sender");
            } else if (way < 8) {
                final Status probed = world.probe(sender, Comm.ANY_TAG);
                check.arrived(world.recv(Buf.of(exact, 0, (int) probed.bytes()), sender, probed.tag()), exact,
                    "receive after a probe, exact size, one thread per sender");
            } else {
                check.arrived(world.irecv(Buf.of(exact, 0, plan[i]), sender, Comm.ANY_TAG).waitFor(), exact,
                    "nonblocking receive of exact size, one thread per sender");
            }
        }
    }

    /** Posts one ANY_TAG receive per sender with messages left, each of its next message's size, then waits. */
    private static int receivePerSender(final Communicator world, final int[][] plans, final int[] next,
        final byte[][] exact, final Checker check) {
        final Request[] posted = new Request[SENDERS + 1];
        int n = 0;
        for (int s = 1; s <= SENDERS; s++) {
            if (next[s] < plans[s].length) {
                posted[s] = world.irecv(Buf.of(exact[s], 0, plans[s][next[s]]), s, Comm.ANY_TAG);
                n++;
            }
        }
        for (int s = 1; s <= SENDERS; s++) {
            if (null != posted[s]) {
                check.arrived(posted[s].waitFor(), exact[s], "ANY_TAG receive posted per sender, exact size");
            }
        }
        return n;
    }

    /** Checks each arrival against the sender's plan: order, size, tag and every byte. */
    private static final class Checker {
        final byte[] actual;
        private final int[][] plans;
        private final int[] next;
        private final byte[] expected;
        private final int eagerLimit;

        Checker(final int[][] plans, final int[] next, final int max, final int eagerLimit) {
            this.plans = plans;
            this.next = next;
            this.expected = new byte[max];
            this.actual = new byte[max];
            this.eagerLimit = eagerLimit;
        }

        void arrived(final Status st, final byte[] bytes, final String how) {
            final int s = st.source();
            if (s < 1 || s > SENDERS || next[s] >= plans[s].length) {
                fail("unexpected message from rank " + s + " (" + how + "), " + seedText());
            }
            final int i = next[s]++;
            final int size = plans[s][i];
            final String what = "message " + i + " of rank " + s + " (tag " + tagOf(i) + ", " + how + ", eager limit "
                + eagerLimit + ", " + seedText() + ")";
            assertEquals(size, st.bytes(), "size of " + what + ": messages overtook each other or lost bytes");
            assertEquals(tagOf(i), st.tag(), "tag of " + what);
            StressPayload.fill(expected, size, StressPayload.messageSeed(SEED, s, i));
            final String diff = StressPayload.compare(bytes, size, expected, what);
            if (null != diff) {
                fail(diff);
            }
        }
    }

    private static String seedText() {
        return "seed " + SEED + " (repeat with -Dtutti.stress.seed=" + SEED + ")";
    }
}
