package dev.tutti.channel;

import dev.tutti.Communicator;
import dev.tutti.Datatype;
import dev.tutti.ErrorClass;
import dev.tutti.Intercommunicator;
import dev.tutti.SharedMemory;
import dev.tutti.Tutti;
import dev.tutti.TuttiException;
import dev.tutti.testkit.ShmJob;

import dev.tutti.channel.AlltoallChannel;
import dev.tutti.channel.ChannelBuffer;
import dev.tutti.channel.ChannelQos;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReferenceArray;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The one-copy path of alltoall channels (senders write into the receivers' shared receive buffers): taken when every
 * rank shares memory, over shm and over inproc; every element of every exchange checked through the shared views
 * while buffers are held several at a time and released in any order, or one held for long while the others cycle;
 * the array accessors' copies; a rank that leaves; the window's memory back in the arena once every rank closed.
 */
// Runs alone (@Isolated): it turns the on-host regions off (a System property), as it counts the arena's bytes
// exactly and a communicator's region lives as long as the communicator.
@Isolated
@Timeout(120)
class ChannelWindowTest {
    private static final String HOST = dev.tutti.internal.Settings.COLL_HOST_LIMIT.name();
    private static String hostBefore;

    @BeforeAll
    static void noRegions() {
        hostBefore = System.getProperty(HOST);
        System.setProperty(HOST, "0");
    }

    @AfterAll
    static void restore() {
        if (null == hostBefore) {
            System.clearProperty(HOST);
        } else {
            System.setProperty(HOST, hostBefore);
        }
    }

    private static final long LONG = Long.BYTES;

    static long value(final long k, final int src, final int dst, final long i) {
        return (k << 40) ^ ((long) src << 28) ^ ((long) dst << 16) ^ i ^ 0x5a5a_0000_0000_0000L;
    }

    static void fill(final ChannelBuffer out, final long k, final int me) {
        final int block = out.blockCount();
        for (int d = 0; d < out.ranks(); d++) {
            final MemorySegment s = out.block(d).segment();
            for (int i = 0; i < block; i++) {
                s.setAtIndex(ValueLayout.JAVA_LONG, i, value(k, me, d, i));
            }
        }
    }

    /** Checks every element through the block views (no copy). */
    static void check(final ChannelBuffer in, final long k, final int me) {
        assertEquals(k, in.exchange(), "exchange number");
        final int block = in.blockCount();
        for (int s = 0; s < in.ranks(); s++) {
            final MemorySegment b = in.block(s).segment();
            for (int i = 0; i < block; i++) {
                final long got = b.getAtIndex(ValueLayout.JAVA_LONG, i);
                if (got != value(k, s, me, i)) {
                    assertEquals(value(k, s, me, i), got, "exchange " + k + " at rank " + me + ", block of " + s
                        + ", element " + i);
                }
            }
        }
    }

    /**
     * Holds up to {@code depth} receive buffers and releases them in a random order, submitting as buffers allow:
     * every exchange arrives once, in order, every element intact.
     */
    static void shuffledReleases(final Communicator w, final int block, final int depth, final int exchanges,
        final long seed) {
        final int me = w.rank();
        final Random rnd = new Random(seed + me);
        try (AlltoallChannel ch = AlltoallChannel.create(w, "shuffle" + block + "x" + depth, Datatype.LONG, block,
            depth)) {
            final List<ChannelBuffer> held = new ArrayList<>();
            long submitted = 0;
            long received = 0;
            while (received < exchanges) {
                while (submitted < exchanges && held.size() + submitted - received < depth) {
                    final ChannelBuffer out = ch.takeSend(); // a receive buffer is free: the submit does not wait
                    fill(out, submitted++, me);
                    ch.submit(out);
                }
                if (held.size() < depth && received < submitted) {
                    final ChannelBuffer in = ch.takeReceive();
                    assertTrue(in.isShared(), "a receive buffer of the one-copy path");
                    check(in, received++, me);
                    held.add(in);
                }
                if (!held.isEmpty() && (held.size() == depth || received == submitted || rnd.nextBoolean())) {
                    final ChannelBuffer in = held.remove(rnd.nextInt(held.size()));
                    check(in, in.exchange(), me); // still intact while held
                    ch.release(in);
                }
            }
            for (final ChannelBuffer in : held) {
                ch.release(in);
            }
            assertEquals(exchanges, ch.stats().exchanges());
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3})
    void shouldDeliverEveryElementThroughSharedMemoryWhateverTheReleaseOrder(final int n) {
        ShmJob.run(n, (world, shm) -> {
            final Random sizes = new Random(11); // the same on every rank
            for (int c = 0; c < 6; c++) {
                final int block = 8 + sizes.nextInt((int) (shm.eagerLimit() / LONG) - 8);
                shuffledReleases(world, c == 0 ? 8 : block, c % 2 == 0 ? 1 : 2 + sizes.nextInt(3), 400, c);
            }
            // above the eager limit, up to the window's (256 KiB): the last one exactly at it
            for (int c = 6; c < 9; c++) {
                final int most = (int) (ChannelSharedMemoryTest.WINDOW_LIMIT / LONG);
                final int block = c == 8 ? most : (int) (shm.eagerLimit() / LONG) + 1 + sizes.nextInt(most / 2);
                shuffledReleases(world, block, 1 + sizes.nextInt(3), 60, c);
            }
            world.barrier(); // every rank closed: the windows' memory is back
            final MemorySegment all = SharedMemory.of(world).orElseThrow().tryAllocate(ShmJob.config().arenaBytes());
            assertNotNull(all, "the channels' windows went back to the arena");
            shm.freeShared(all);
        });
    }

    @Test
    void shouldDeliverEveryElementBetweenThreadsOfOneJvm() {
        Tutti.runLocal(4, Tutti.Options.defaults().timeout(Duration.ofSeconds(60)), w -> {
            assertTrue(SharedMemory.of(w).isEmpty());
            shuffledReleases(w, 40, 1, 500, 5);
            shuffledReleases(w, 2_000, 1, 100, 6);
            shuffledReleases(w, 40, 3, 300, 7);
        });
    }

    /**
     * A buffer held while many later exchanges cycle through the ring's other buffers stays intact, and the exchanges
     * go on (zones are handed out in release order, so none waits for the held one).
     */
    @ParameterizedTest
    @ValueSource(ints = {2, 3})
    void shouldKeepExchangingWhileOneBufferIsHeldForLong(final int depth) {
        ShmJob.run(3, (world, shm) -> {
            final int me = world.rank();
            try (AlltoallChannel ch = AlltoallChannel.create(world, "held", Datatype.LONG, 24, depth)) {
                ChannelBuffer out = ch.takeSend();
                fill(out, 0, me);
                ch.submit(out);
                final ChannelBuffer kept = ch.takeReceive();
                assertTrue(kept.isShared());
                for (long k = 1; k <= 300; k++) {
                    out = ch.takeSend();
                    fill(out, k, me);
                    ch.submit(out);
                    final ChannelBuffer in = ch.takeReceive();
                    check(in, k, me);
                    ch.release(in);
                    if (0 == k % 50) {
                        check(kept, 0, me);
                    }
                }
                check(kept, 0, me);
                ch.release(kept);
                assertEquals(301, ch.stats().exchanges());
            }
        });
    }

    /**
     * A bipartite channel over a window that spans both groups: 2 producers and 3 consumers with blocks of different
     * sizes each way, then one direction empty; every element checked at both ends.
     */
    @Test
    void shouldDeliverBipartiteExchangesThroughSharedMemory() {
        ShmJob.run(5, (world, shm) -> {
            final int side = world.rank() < 2 ? 0 : 1;
            final Communicator half = world.split(side, world.rank());
            final Intercommunicator inter = half.createIntercomm(0, world, 0 == side ? 2 : 0, 9);
            final int[][] counts = {{24, 40}, {40, 24}}; // [side] = {send, receive}
            for (final boolean oneWay : new boolean[] {false, true}) {
                final int send = oneWay && 1 == side ? 0 : counts[side][0];
                final int recv = oneWay && 0 == side ? 0 : counts[side][1];
                try (AlltoallChannel ch = AlltoallChannel.bipartite(inter, "pc" + oneWay, Datatype.LONG, send, recv,
                    2, ChannelQos.bestEffort())) {
                    final int me = inter.rank();
                    for (long k = 0; k < 300; k++) {
                        final ChannelBuffer out = ch.takeSend();
                        fill(out, k, me);
                        ch.submit(out);
                        final ChannelBuffer in = ch.takeReceive();
                        assertTrue(in.isShared(), "the one-copy path");
                        check(in, k, me);
                        ch.release(in);
                    }
                    assertEquals(300, ch.stats().exchanges());
                }
            }
            inter.free();
            half.free();
        });
    }

    /**
     * Blocks under a cache line keep the slots of a persistent alltoall on every rank count (writers would share a
     * line of a zone; the slots' lean way is faster there); a line-sized block takes the window.
     */
    @Test
    void shouldTakeTheWindowForBlocksOfALineOrMore() {
        for (final int n : new int[] {2, 3}) {
            Tutti.runLocal(n, Tutti.Options.defaults().timeout(Duration.ofSeconds(60)), w -> {
                for (final int longs : new int[] {1, 7, 8}) {
                    try (AlltoallChannel ch = AlltoallChannel.create(w, "small", Datatype.LONG, longs, 1)) {
                        final ChannelBuffer out = ch.takeSend();
                        fill(out, 0, w.rank());
                        ch.submit(out);
                        final ChannelBuffer in = ch.takeReceive();
                        assertEquals(8 == longs, in.isShared(), "size " + w.size() + ", " + longs + " longs");
                        check(in, 0, w.rank());
                        ch.release(in);
                    }
                }
            });
        }
    }

    /** A shared receive buffer's array is a copy of its exchange, made once per take. */
    @Test
    void shouldGiveArraysThatCopyTheSharedReceiveBuffer() {
        Tutti.runLocal(2, Tutti.Options.defaults().timeout(Duration.ofSeconds(60)), w -> {
            final int me = w.rank();
            try (AlltoallChannel ch = AlltoallChannel.create(w, "arrays", Datatype.LONG, 16, 1)) {
                long[] previous = null;
                for (int k = 0; k < 5; k++) {
                    final ChannelBuffer out = ch.takeSend();
                    fill(out, k, me);
                    ch.submit(out);
                    final ChannelBuffer in = ch.takeReceive();
                    assertTrue(in.isShared());
                    final long[] a = in.longs();
                    assertSame(a, in.longs(), "one copy per take");
                    assertSame(a, in.array());
                    for (int s = 0; s < 2; s++) {
                        for (int i = 0; i < 16; i++) {
                            assertEquals(value(k, s, me, i), a[s * 16 + i], "exchange " + k);
                        }
                    }
                    if (null != previous) {
                        assertSame(previous, a, "the array is reused, its contents renewed");
                    }
                    previous = a;
                    a[0] = -1; // the application's copy: the shared buffer is untouched
                    assertEquals(value(k, 0, me, 0), in.block(0).segment().getAtIndex(ValueLayout.JAVA_LONG, 0));
                    ch.release(in);
                }
                final ChannelBuffer out = ch.takeSend();
                assertFalse(out.isShared(), "send buffers of small blocks are arrays");
                assertNotSame(previous, out.longs());
                ch.submit(out);
                ch.release(ch.takeReceive());
            }
        });
    }

    /** A rank that leaves fails the others' waits on the one-copy path, naming it and the channel. */
    @Test
    void shouldFailWaitingOperationsWhenARankLeaves() {
        final AtomicReferenceArray<TuttiException> seen = new AtomicReferenceArray<>(3);
        final TuttiException job = assertThrows(TuttiException.class, () -> Tutti.runLocal(3,
            Tutti.Options.defaults().timeout(Duration.ofSeconds(60)), w -> {
                final AlltoallChannel ch = AlltoallChannel.create(w, "gone", Datatype.LONG, 16, 1);
                if (1 == w.rank()) {
                    return; // leaves without taking part
                }
                final ChannelBuffer out = ch.takeSend();
                fill(out, 0, w.rank());
                ch.submit(out);
                try {
                    ch.takeReceive();
                } catch (final TuttiException e) {
                    seen.set(w.rank(), e);
                    throw e;
                }
            }));
        assertEquals(ErrorClass.PROC_FAILED, job.errorClass(), job.getMessage());
        for (final int r : new int[] {0, 2}) {
            final TuttiException e = seen.get(r);
            assertNotNull(e, "rank " + r + " did not fail");
            assertEquals(ErrorClass.PROC_FAILED, e.errorClass(), e.getMessage());
            assertTrue(e.getMessage().contains("takeReceive (channel=gone"), e.getMessage());
            assertTrue(e.getMessage().contains("rank 1"), e.getMessage());
        }
    }
}
