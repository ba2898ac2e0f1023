package dev.tutti.coll;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Datatype;
import dev.tutti.ErrorClass;
import dev.tutti.Op;
import dev.tutti.PersistentRequest;
import dev.tutti.SharedMemory;
import dev.tutti.Tutti;
import dev.tutti.TuttiException;
import dev.tutti.testkit.ShmJob;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Persistent collectives over shared memory, whose small messages go through slots agreed once per peer and shape
 * ({@code dev.tutti.coll.slot.SlotLane}) instead of the message layer: the same results as the blocking forms for every
 * collective; every byte right when several requests share a lane and have runs in flight together, started and
 * completed in changing orders, with a slow rank; a count mismatch fails both ranks before any data moves; the slots
 * go back to the arena with their communicator. (A peer that dies: {@code ShmLaunchTest}.)
 */
// Runs alone (@Isolated): it sets System properties that the jobs of other tests would read.
@Isolated
@Timeout(120)
class CollDirectTest {
    private static final String LIMIT = dev.tutti.internal.Settings.COLL_DIRECT_LIMIT.name();

    /**
     * Runs a job of processes-like ranks over shm with slots for messages up to 16 KiB, the way a program would with
     * {@code -Dtutti.coll.directLimit=16384} (the default between processes is 1 MiB).
     */
    private static void shm(final int n, final ShmJob.Body body) {
        System.setProperty(LIMIT, "16384");
        try {
            ShmJob.run(n, body);
        } finally {
            System.clearProperty(LIMIT);
        }
    }

    /**
     * Over shared memory a persistent request's small messages go through slots in the receivers' arenas
     * (agreed in its first start), not through the message layer, on a communicator that has no on-host region (made
     * by idup, which agrees none, and no blocking collective has agreed one on it): every collective gives the same
     * results there too, and says so in its description. Once a blocking collective has agreed the region, the starts
     * go through the region.
     */
    @ParameterizedTest(name = "p={0}")
    @ValueSource(ints = {2, 3, 5})
    void shouldGiveTheSameThroughSharedMemorySlots(final int p) {
        shm(p, (w, shm) -> {
            final Communicator fresh = w.idup().get();
            final int[] x = {w.rank(), 1};
            final int[] y = new int[2];
            final PersistentRequest r = fresh.allreduceInit(Buf.of(x), Buf.of(y), Op.SUM);
            r.start();
            r.waitFor();
            assertTrue(r.toString().contains("direct"), r.toString());
            assertArrayEquals(new int[] {p * (p - 1) / 2, p}, y);
            r.free();
            CollPersistentTest.check(w, CollPersistentTest.intraCases(w));
            final PersistentRequest h = w.allreduceInit(Buf.of(x), Buf.of(y), Op.SUM);
            h.start();
            h.waitFor();
            assertTrue(h.toString().contains("on-host region"), h.toString());
            assertArrayEquals(new int[] {p * (p - 1) / 2, p}, y);
            h.free();
            fresh.free();
        });
    }

    /**
     * A rank that makes another call where its peer starts a persistent collective that goes through slots: the
     * peer's run, stalled, finds the other call's message on its tag and fails naming the rank (within seconds),
     * instead of waiting on its slot for ever.
     */
    @Test
    void shouldFailAStalledSlotRunThatMeetsAnotherCall() {
        shm(2, (w, shm) -> {
            final long[] x = {w.rank()};
            final long[] y = new long[1];
            final PersistentRequest r = w.allreduceInit(Buf.of(x), Buf.of(y), Op.SUM);
            for (int i = 0; i < 3; i++) {
                r.start();
                r.waitFor();
            }
            if (0 == w.rank()) {
                r.start();
                final TuttiException e = assertThrows(TuttiException.class,
                    () -> r.waitFor(20, java.util.concurrent.TimeUnit.SECONDS));
                assertEquals(ErrorClass.ARG, e.errorClass(), e.getMessage());
                assertTrue(e.getMessage().contains("rank=1 sent a message of another collective call"),
                    e.getMessage());
                w.send(Buf.of(new int[] {1}), 1, 9); // rank 1 stays until then (a peer that left fails it sooner)
            } else {
                w.bcast(Buf.of(new long[] {7}), 1); // the root's message is sent at once
                w.recv(Buf.of(new int[1]), 0, 9);
            }
        });
    }

    /**
     * Ranks that disagree on whether a call goes through slots (one runs with {@code tutti.coll.directLimit=0}) never
     * take an agreement message for data: the rank waiting to agree finds the other's data on the call's tag and
     * fails naming the setting. (Threads without the on-host region, whose persistent starts would go there.)
     */
    @Test
    void shouldFailNamingTheSettingWhenRanksDisagreeOnSlots() {
        final String name = dev.tutti.internal.Settings.COLL_DIRECT_LIMIT.name();
        final String host = dev.tutti.internal.Settings.COLL_HOST_LIMIT.name();
        final String hostBefore = System.getProperty(host);
        System.setProperty(host, "0");
        try {
            final TuttiException e = assertThrows(TuttiException.class, () -> Tutti.runLocal(2,
                Tutti.Options.defaults().timeout(java.time.Duration.ofSeconds(30)), w -> {
                    final long[] x = {1, 2, 3};
                    final long[] y = new long[3];
                    for (int r = 0; r < 2; r++) { // one init at a time: the property is the JVM's
                        if (r == w.rank()) {
                            System.setProperty(name, 0 == r ? "0" : "16384");
                            final PersistentRequest p = w.allreduceInit(Buf.of(x), Buf.of(y), Op.SUM);
                            w.barrier();
                            if (1 == r) {
                                p.start();
                                p.waitFor();
                            }
                        } else {
                            w.barrier();
                        }
                    }
                    if (0 == w.rank()) {
                        w.allreduce(Buf.of(x), Buf.of(y), Op.SUM); // in the place of rank 1's persistent start
                    }
                }));
            assertTrue(e.getMessage().contains(name), e.getMessage());
        } finally {
            System.clearProperty(name);
            if (null == hostBefore) {
                System.clearProperty(host);
            } else {
                System.setProperty(host, hostBefore);
            }
        }
    }

    /** Intercommunicator persistent collectives, standard and symmetric, through the slots too. */
    @Test
    void shouldRunIntercommunicatorCollectivesThroughSharedMemorySlots() {
        shm(5, (w, shm) -> CollPersistentTest.checkInter(w));
    }

    /** Counts that disagree fail the first start on both ranks of the pair, naming the counts, and move no data. */
    @Test
    void shouldFailBothRanksWhenTheirCountsDisagreeOverSharedMemory() {
        shm(2, (w, shm) -> {
            final int n = 0 == w.rank() ? 4 : 8;
            final int[] x = new int[n];
            final int[] y = new int[n];
            Arrays.fill(y, -7);
            final PersistentRequest r = w.allreduceInit(Buf.of(x), Buf.of(y), Op.SUM);
            r.start();
            final TuttiException e = assertThrows(TuttiException.class, r::waitFor);
            assertEquals(ErrorClass.COUNT, e.errorClass(), e.getMessage());
            assertTrue(e.getMessage().contains("bytes=" + (0 == w.rank() ? 32 : 16)), e.getMessage());
            assertTrue(Arrays.stream(y).allMatch(v -> -7 == v), "no data reached the receive buffer");
            w.barrier(); // the communicator stays usable
        });
    }

    /**
     * Requests of one shape share a lane: several in flight at once (started in an order that differs between ranks
     * and iterations, completed in another), with data that changes every start and a rank that now and then lags behind,
     * so that senders meet full slots. Every received element is checked against what its sender must have sent.
     */
    @ParameterizedTest(name = "p={0}")
    @ValueSource(ints = {2, 3, 4})
    void shouldKeepEveryByteWhenRequestsShareALaneOverShm(final int p) {
        shm(p, (w, shm) -> shareALane(w, 1500));
    }

    /** The same between ranks that are threads of one JVM, where slots are on by default. */
    @ParameterizedTest(name = "p={0}")
    @ValueSource(ints = {2, 3, 5})
    void shouldKeepEveryByteWhenRequestsShareALaneInProcess(final int p) {
        Tutti.runLocal(p, Tutti.Options.defaults().timeout(java.time.Duration.ofSeconds(100)),
            w -> shareALane(w, 1500));
    }

    private static void shareALane(final Communicator w, final int iterations) throws InterruptedException {
        final int p = w.size();
        final int block = 5;
        final int k = 3; // requests of the same shape
        {
            final int me = w.rank();
            final int[][] send = new int[k][p * block];
            final int[][] recv = new int[k][p * block];
            final PersistentRequest[] rs = new PersistentRequest[k];
            for (int q = 0; q < k; q++) {
                rs[q] = w.alltoallInit(Buf.of(send[q]), Buf.of(recv[q]));
            }
            final long[] sum = new long[1];
            final PersistentRequest other = w.allreduceInit(Buf.of(new long[] {me}), Buf.of(sum), Op.SUM);
            final Random lag = new Random(me * 31L + 7);
            final int[] order = new int[k];
            for (int it = 0; it < iterations; it++) {
                for (int pos = 0; pos < k; pos++) {
                    // Each rank starts its requests in its own order: starts meet by position (call order), as an
                    // alltoall channel's do, whichever request each rank holds there.
                    final int q = (pos + it + me) % k;
                    order[pos] = q;
                    for (int d = 0; d < p; d++) {
                        for (int e = 0; e < block; e++) {
                            send[q][d * block + e] = value(it, pos, me, d, e);
                        }
                    }
                    Arrays.fill(recv[q], -1);
                }
                for (int q = 0; q < k; q++) {
                    rs[order[q]].start();
                }
                if (1 == me && 0 == lag.nextInt(50)) {
                    Thread.sleep(2); // a slow rank: its peers' next sends find its slots still full
                }
                for (int q = k - 1; q >= 0; q--) { // completed in reverse
                    rs[(q + it / 2) % k].waitFor();
                }
                if (0 == it % 7) {
                    other.start();
                    other.waitFor();
                    assertEquals((long) p * (p - 1) / 2, sum[0]);
                }
                for (int pos = 0; pos < k; pos++) {
                    final int q = order[pos];
                    for (int s = 0; s < p; s++) {
                        for (int e = 0; e < block; e++) {
                            final int got = recv[q][s * block + e];
                            if (got != value(it, pos, s, me, e)) {
                                throw new AssertionError("iteration " + it + " start " + pos + " rank " + me
                                    + ": element " + e + " from rank " + s + " is " + got + ", expected "
                                    + value(it, pos, s, me, e));
                            }
                        }
                    }
                }
            }
            for (final PersistentRequest r : rs) {
                assertTrue(r.toString().matches(".*direct [1-9].*"), r.toString());
                r.free();
            }
            other.free();
        }
    }

    /**
     * A slot's cell ends in the sequence word, and the message's bytes end right before it (rounded up to 8), their
     * start padded: messages of every length around those lines and the cell depths' limits (1 KiB, 4 KiB), started
     * many times with new bytes, into receive buffers at odd offsets of their arrays. Every byte is checked, and the
     * bytes around each receive buffer must stay as they were.
     */
    @ParameterizedTest(name = "p={0}")
    @ValueSource(ints = {2, 3})
    void shouldMoveEveryLengthAroundACellsLines(final int p) {
        shm(p, (w, shm) -> {
            final int me = w.rank();
            final byte guard = (byte) 0xA5;
            for (final int bytes : new int[] {1, 7, 8, 9, 55, 56, 57, 63, 64, 65, 119, 120, 121, 127, 128, 1017, 1024,
                1025, 4096, 4097}) {
                final byte[] send = new byte[p * bytes + 5];
                final byte[] recv = new byte[p * bytes + 8];
                final PersistentRequest r = w.alltoallInit(Buf.of(send, 5, p * bytes), Buf.of(recv, 3, p * bytes));
                for (int it = 0; it < 60; it++) {
                    for (int d = 0; d < p; d++) {
                        for (int e = 0; e < bytes; e++) {
                            send[5 + d * bytes + e] = cellByte(it, me, d, e);
                        }
                    }
                    Arrays.fill(recv, guard);
                    r.start();
                    r.waitFor();
                    for (int s = 0; s < p; s++) {
                        for (int e = 0; e < bytes; e++) {
                            final byte got = recv[3 + s * bytes + e];
                            if (got != cellByte(it, s, me, e)) {
                                throw new AssertionError(bytes + " B, start " + it + ", rank " + me + ": byte " + e
                                    + " from rank " + s + " is " + got + ", expected " + cellByte(it, s, me, e));
                            }
                        }
                    }
                    for (final int at : new int[] {0, 1, 2, 3 + p * bytes, 4 + p * bytes, recv.length - 1}) {
                        assertEquals(guard, recv[at], bytes + " B, start " + it + ": byte " + at
                            + " outside the receive buffer was written");
                    }
                }
                assertTrue(r.toString().matches(".*direct [1-9].*"), r.toString());
                r.free();
            }
        });
    }

    private static byte cellByte(final int it, final int from, final int to, final int e) {
        return (byte) (it * 131 + from * 37 + to * 11 + e * 7 + (e >> 8));
    }

    private static int value(final int it, final int pos, final int from, final int to, final int e) {
        return ((it * 7 + pos) * 64 + from) * 64 * 64 + to * 64 + e;
    }

    /** A freed communicator gives its lanes' slots back: a large block fits in the arena again afterwards. */
    @Test
    void shouldGiveTheSlotsBackWhenTheCommunicatorIsFreed() {
        final long arena = ShmJob.config().arenaBytes();
        shm(2, (w, shm) -> {
            final Communicator c = w.idup().get(); // no on-host region: the starts take slots
            final PersistentRequest[] rs = new PersistentRequest[40];
            for (int i = 0; i < rs.length; i++) { // 40 shapes, 40 lanes of 2 x 8 KiB slots
                final byte[] b = new byte[8192 + 64 * i];
                rs[i] = c.allreduceInit(Buf.of(b), Buf.of(new byte[b.length]), Op.BOR);
                rs[i].start();
                rs[i].waitFor();
                assertTrue(rs[i].toString().matches(".*direct [1-9].*"), rs[i].toString());
            }
            for (final PersistentRequest r : rs) {
                r.free();
            }
            c.free();
            final java.lang.foreign.MemorySegment share = shm.directMemory().tryAllocateSlots(arena / 4);
            assertTrue(null != share, "the slots' whole share of the arena is free again");
            shm.directMemory().freeDirect(share);
            final java.lang.foreign.MemorySegment all = shm.directMemory().tryAllocateDirect(arena);
            assertTrue(null != all, "the whole arena is free again");
            shm.directMemory().freeDirect(all);
            w.barrier();
        });
    }

    /**
     * Slots take at most a quarter of a rank's arena: a request whose slots would not fit in what is left of it runs
     * through the message layer instead, with the same results, and the rest of the arena stays free for the
     * program's shared buffers.
     */
    @Test
    void shouldKeepTheSlotsToAQuarterOfTheArena() {
        final long arena = ShmJob.config().arenaBytes(); // 16 MiB: slots may take 4
        shm(2, (w, shm) -> {
            System.setProperty(LIMIT, String.valueOf(arena));
            final int n = (int) (arena / 8 / Long.BYTES); // 2 MiB messages: a lane of 2 cells takes 4 MiB and more
            final long[] a = new long[n];
            final long[] b = new long[n];
            final long[] sum = new long[n];
            final long[] max = new long[n];
            for (int i = 0; i < n; i++) {
                a[i] = i * 3L + w.rank();
                b[i] = i ^ (w.rank() * 977L);
            }
            final PersistentRequest small = w.allreduceInit(Buf.of(a, 0, n / 4), Buf.of(sum, 0, n / 4), Op.SUM);
            final PersistentRequest large = w.allreduceInit(Buf.of(b), Buf.of(max), Op.MAX);
            for (int k = 0; k < 3; k++) {
                small.start();
                large.start();
                small.waitFor();
                large.waitFor();
            }
            assertTrue(small.toString().matches(".*direct [1-9].*"), small.toString());
            assertTrue(!large.toString().contains("direct"), large.toString()); // no lane direct: the plan dropped
            for (int i = 0; i < n; i++) {
                if (i < n / 4) {
                    assertEquals(i * 6L + 1, sum[i], "sum[" + i + "]");
                }
                assertEquals(Math.max(i, i ^ 977L), max[i], "max[" + i + "]");
            }
            assertEquals(null, shm.directMemory().tryAllocateSlots(arena / 4), "past the slots' share");
            final java.lang.foreign.MemorySegment rest = dev.tutti.SharedMemory.of(w).orElseThrow()
                .tryAllocate(arena / 2);
            assertTrue(null != rest, "half the arena is still free for the program");
            dev.tutti.SharedMemory.of(w).orElseThrow().free(rest);
            small.free();
            large.free();
        });
    }

    /**
     * A persistent alltoall that sends out of the shared arena, with blocks above the eager limit, keeps the ring,
     * which copies them once (the receiver, out of the sender's block), where slots would copy twice; the same
     * call out of Java arrays goes through slots (on another communicator: on one, requests of one shape share
     * their lanes, and the first one made decides). Both give the right bytes.
     */
    @Test
    void shouldLeaveSendsThatTheRingCopiesOnceToTheRing() {
        shm(2, (w, shm) -> {
            System.setProperty(LIMIT, String.valueOf(1 << 20));
            final int block = (int) shm.eagerLimit() + 4096;
            final SharedMemory arena = SharedMemory.of(w).orElseThrow();
            final java.lang.foreign.MemorySegment shared = arena.tryAllocate(2L * block);
            final byte[] heap = new byte[2 * block];
            final byte[] in = new byte[2 * block];
            for (int i = 0; i < 2 * block; i++) {
                heap[i] = (byte) (i * 7 + w.rank());
            }
            shared.copyFrom(java.lang.foreign.MemorySegment.ofArray(heap));
            final PersistentRequest once = w.alltoallInit(Buf.of(shared, Datatype.BYTE), Buf.of(in));
            final Communicator c = w.dup();
            final PersistentRequest slots = c.alltoallInit(Buf.of(heap), Buf.of(in));
            for (final PersistentRequest r : new PersistentRequest[] {once, slots}) {
                Arrays.fill(in, (byte) 0);
                r.start();
                r.waitFor();
                for (int from = 0; from < 2; from++) {
                    for (int i = 0; i < block; i++) {
                        assertEquals((byte) ((w.rank() * block + i) * 7 + from), in[from * block + i],
                            r + ": byte " + i + " from rank " + from);
                    }
                }
            }
            assertTrue(!once.toString().contains("direct"), once.toString());
            assertTrue(slots.toString().matches(".*direct [1-9].*"), slots.toString());
            once.free();
            slots.free();
            c.free();
            arena.free(shared);
        });
    }

    /**
     * Between processes the default limit is 1 MiB, whether or not the host has a core per rank (slots beat the
     * ring at every size measured on 2 and 4 ranks of 2 cores; {@code ShmDirectMemory}).
     */
    @ParameterizedTest(name = "p={0}")
    @ValueSource(ints = {2, 3})
    void shouldTakeSlotsUpToOneMebibyteByDefault(final int p) {
        ShmJob.run(p, (w, shm) -> assertEquals(1024 * 1024, shm.directMemory().defaultDirectLimit(),
            "ranks on the host: " + p));
    }
}
