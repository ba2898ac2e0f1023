package dev.tutti.channel;

import dev.tutti.Comm;
import dev.tutti.Communicator;
import dev.tutti.Datatype;
import dev.tutti.ErrorClass;
import dev.tutti.Intercommunicator;
import dev.tutti.SharedMemory;
import dev.tutti.Tutti;
import dev.tutti.TuttiException;
import dev.tutti.testkit.ShmJob;
import dev.tutti.testkit.TcpJob;
import dev.tutti.testkit.Worlds;

import dev.tutti.channel.AlltoallChannel;
import dev.tutti.channel.ChannelBuffer;
import dev.tutti.channel.ChannelQos;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Channel buffers in the shm transport's shared arena: send blocks above the window's limit (256 KiB) and the slot
 * limit (here set to the window's, see {@link #arenaJob}; by default 1 MiB, below which blocks take slots) go out of
 * the arena with one copy (the transport's single-copy counter counts one send per remote rank per exchange), every
 * byte checked over thousands of exchanges of random block sizes; and the fallbacks to Java arrays: smaller blocks
 * (the window, or slots), an array accessor (which moves the buffer), a full arena, inproc and tcp.
 */
// Runs alone (@Isolated): it sets System properties that the jobs of other tests would read.
@Isolated
@Timeout(180)
class ChannelSharedMemoryTest {
    private static final int LONG = 8;

    static long value(final long k, final int src, final int dst, final int i) {
        return (k << 40) ^ ((long) src << 28) ^ ((long) dst << 16) ^ i * 0x9E3779B97F4A7C15L;
    }

    /** Fills send buffer {@code out} of exchange {@code k} through its segments (no array: it stays in the arena). */
    static void fill(final ChannelBuffer out, final long k, final int me) {
        for (int d = 0; d < out.ranks(); d++) {
            final MemorySegment s = out.block(d).segment();
            for (int i = 0; i < out.blockCount(); i++) {
                s.setAtIndex(ValueLayout.JAVA_LONG, i, value(k, me, d, i));
            }
        }
    }

    /** Checks every element of receive buffer {@code in} of exchange {@code k}. */
    static void check(final ChannelBuffer in, final long k, final int me) {
        assertEquals(k, in.exchange());
        final long[] y = in.longs();
        final int block = in.blockCount();
        for (int s = 0; s < in.ranks(); s++) {
            for (int i = 0; i < block; i++) {
                if (y[s * block + i] != value(k, s, me, i)) {
                    assertEquals(value(k, s, me, i), y[s * block + i], "exchange " + k + " from " + s + " at " + i);
                }
            }
        }
    }

    /**
     * Runs {@code n} pipelined exchanges (depth - 1 ahead), filling send buffers through their segments.
     *
     * @param shared whether every send buffer must be in the arena (true), in none (false), or either (null)
     * @return how many of the exchanges went out of a send buffer in the arena
     */
    /**
     * Runs a job over shm whose slot limit is the window's ({@code tutti.coll.directLimit}): send blocks above the
     * window then live in the arena, as they do above 1 MiB by default, at sizes this test can exchange thousands of.
     */
    private static void arenaJob(final int n, final ShmJob.Body body) {
        final String limit = dev.tutti.internal.Settings.COLL_DIRECT_LIMIT.name();
        final String host = dev.tutti.internal.Settings.COLL_HOST_LIMIT.name();
        final String hostBefore = System.getProperty(host);
        System.setProperty(limit, Long.toString(WINDOW_LIMIT));
        System.setProperty(host, "0"); // the arena's bytes are counted exactly: no communicator's on-host region
        try {
            ShmJob.run(n, body);
        } finally {
            System.clearProperty(limit);
            if (null == hostBefore) {
                System.clearProperty(host);
            } else {
                System.setProperty(host, hostBefore);
            }
        }
    }

    /** The largest block of the channel's window over shm ({@code WindowExchanges.SHM_LIMIT}). */
    static final long WINDOW_LIMIT = 256 * 1024;

    /** Whether a direction of {@code block} longs goes through the channel's shared window (the one-copy path). */
    static boolean fitsWindow(final AlltoallChannel ch, final int block) {
        final Comm c = ch.communicator();
        final long bytes = (long) block * LONG;
        return 0 == bytes || bytes >= 64 && bytes <= (SharedMemory.of(c).isPresent() ? WINDOW_LIMIT : 16_384L);
    }

    static int run(final AlltoallChannel ch, final int n, final Boolean shared) {
        final int me = ch.communicator().rank();
        final boolean recvShared = fitsWindow(ch, ch.sendBlockCount()) && fitsWindow(ch, ch.recvBlockCount());
        final int ahead = ch.depth() - 1;
        int fromArena = 0;
        for (int k = 0; k < n + ahead; k++) {
            if (k < n) {
                final ChannelBuffer out = ch.takeSend();
                if (null != shared) {
                    assertEquals(shared, out.isShared(), "send buffer of exchange " + k + " in the arena");
                }
                fromArena += out.isShared() ? 1 : 0;
                fill(out, k, me);
                ch.submit(out);
            }
            if (k >= ahead) {
                final ChannelBuffer in = ch.takeReceive();
                assertEquals(recvShared, in.isShared(), "receive buffer of exchange " + (k - ahead) + " in "
                    + "shared memory (blocks of 64 B up to the window's limit)");
                check(in, k - ahead, me);
                ch.release(in);
            }
        }
        return fromArena;
    }

    @Test
    void shouldSendBlocksAboveTheWindowWithOneCopyOutOfTheArena() {
        final int n = 3;
        arenaJob(n, (world, shm) -> {
            final Random rnd = new Random(7); // the same on every rank
            final long eager = shm.eagerLimit();
            long total = 0;
            for (int c = 0; c < 12; c++) {
                final boolean large = c % 4 != 3;
                final int block = large ? (int) (WINDOW_LIMIT / LONG) + 1 + rnd.nextInt(6_000) : 1 + rnd.nextInt(
                    (int) (eager / LONG));
                final int depth = 1 + rnd.nextInt(4);
                final int exchanges = large ? 200 : 100;
                final long before = shm.singleCopySends();
                try (AlltoallChannel ch = AlltoallChannel.create(world, "arena" + c, Datatype.LONG, block, depth)) {
                    run(ch, exchanges, large);
                    assertEquals(exchanges, ch.stats().exchanges());
                }
                // one single-copy send per remote rank per exchange, and none for blocks the transport copies inline
                assertEquals(large ? (long) exchanges * (n - 1) : 0, shm.singleCopySends() - before,
                    "single-copy sends of channel " + c + " (block " + block * LONG + " B)");
                total += exchanges;
            }
            assertTrue(total >= 2_000, "exchanges: " + total);
            // closing gave every block back (the receive buffers of small blocks once every rank has closed their
            // channel): the whole arena is free again
            world.barrier();
            final MemorySegment all = SharedMemory.of(world).orElseThrow().tryAllocate(ShmJob.config().arenaBytes());
            assertNotNull(all, "the channels' arena blocks were freed at close");
            shm.freeShared(all);
        });
    }

    /** Bipartite, one direction above the window and the other empty: only the senders' buffers are shared. */
    @Test
    void shouldSendABipartiteDirectionOutOfTheArena() {
        arenaJob(3, (world, shm) -> {
            final int side = world.rank() % 2;
            final Communicator half = world.split(side, world.rank());
            final Intercommunicator inter = half.createIntercomm(0, world, 1 - side, 5);
            final int big = (int) (WINDOW_LIMIT / LONG) + 1_000;
            final int exchanges = 300;
            final long before = shm.singleCopySends();
            try (AlltoallChannel ch = AlltoallChannel.bipartite(inter, "producer", Datatype.LONG, 0 == side ? big
                : 0, 0 == side ? 0 : big, 2, ChannelQos.bestEffort())) {
                run(ch, exchanges, 0 == side);
            }
            assertEquals(0 == side ? (long) exchanges * inter.remoteSize() : 0, shm.singleCopySends() - before);
            inter.free();
            half.free();
        });
    }

    @Test
    void shouldMoveASendBufferToTheHeapWhenItsArrayIsAskedFor() {
        arenaJob(2, (world, shm) -> {
            final int block = (int) (WINDOW_LIMIT / LONG) * 2;
            final int me = world.rank();
            try (AlltoallChannel ch = AlltoallChannel.create(world, "moved", Datatype.LONG, block, 1)) {
                run(ch, 5, true);
                final ChannelBuffer out = ch.takeSend();
                assertTrue(out.isShared());
                fill(out, 5, me); // written through the segment, then read back through the array
                final TuttiException wrongType = assertThrows(TuttiException.class, out::doubles);
                assertEquals(ErrorClass.TYPE, wrongType.errorClass());
                assertTrue(out.isShared(), "a refused accessor leaves the buffer where it is");
                final long[] x = out.longs();
                assertFalse(out.isShared());
                assertEquals(value(5, me, 1, 7), x[block + 7], "the move kept the contents");
                final long before = shm.singleCopySends();
                ch.submit(out);
                final ChannelBuffer in = ch.takeReceive();
                check(in, 5, me);
                ch.release(in);
                run2(ch, 6, 20, me);
                assertEquals(before, shm.singleCopySends(), "the moved buffer goes the ordinary way");
            }
        });
    }

    /** Exchanges {@code from..to-1} filled through the array, depth 1. */
    private static void run2(final AlltoallChannel ch, final int from, final int to, final int me) {
        for (int k = from; k < to; k++) {
            final ChannelBuffer out = ch.takeSend();
            final long[] x = out.longs();
            for (int d = 0; d < out.ranks(); d++) {
                for (int i = 0; i < out.blockCount(); i++) {
                    x[d * out.blockCount() + i] = value(k, me, d, i);
                }
            }
            ch.submit(out);
            final ChannelBuffer in = ch.takeReceive();
            check(in, k, me);
            ch.release(in);
        }
    }

    @Test
    void shouldFallBackToArraysWhenTheArenaIsFull() {
        arenaJob(2, (world, shm) -> {
            final SharedMemory arena = SharedMemory.of(world).orElseThrow();
            final int block = (int) (WINDOW_LIMIT / LONG) * 2; // 512 KiB a block, 1 MiB a buffer
            final long bufferBytes = 2L * block * LONG;
            // leave room for exactly two of the four send buffers
            final MemorySegment hog = arena.tryAllocate(ShmJob.config().arenaBytes() - 2 * bufferBytes);
            assertNotNull(hog);
            assertNull(arena.tryAllocate(3 * bufferBytes), "the arena is nearly full");
            final long before = shm.singleCopySends();
            final int fromArena;
            try (AlltoallChannel ch = AlltoallChannel.create(world, "full", Datatype.LONG, block, 4)) {
                fromArena = run(ch, 400, null);
            }
            assertTrue(fromArena > 0 && fromArena < 400, "exchanges out of the arena's two buffers: " + fromArena);
            assertEquals(fromArena, shm.singleCopySends() - before, "one single-copy send per arena exchange");
            final MemorySegment back = arena.tryAllocate(2 * bufferBytes);
            assertNotNull(back, "the first channel's blocks came back at close");
            final long none = shm.singleCopySends();
            try (AlltoallChannel ch = AlltoallChannel.create(world, "none", Datatype.LONG, block, 2)) {
                run(ch, 100, false); // no room at all: every buffer an array
            }
            assertEquals(none, shm.singleCopySends());
            arena.free(back);
            arena.free(hog);
        });
    }

    /**
     * By default blocks between the window's limit and 1 MiB stay in Java arrays, and the exchanges (persistent
     * alltoall starts on the channel's private communicator) go through that communicator's on-host region, past its
     * cells through its chunk area from the first exchange on (the channel's creation agrees it): no single-copy send,
     * every byte checked, and every exchange moved the same number of chunks.
     */
    @Test
    void shouldSendBlocksBetweenTheWindowAndTheSlotLimitThroughTheRegionsChunks() {
        ShmJob.run(3, (world, shm) -> {
            final SharedMemory arena = SharedMemory.of(world).orElseThrow();
            assertEquals(1024 * 1024, arena.slotLimit());
            final int block = (int) (WINDOW_LIMIT / LONG) * 2; // 512 KiB
            final long before = shm.singleCopySends();
            try (AlltoallChannel ch = AlltoallChannel.create(world, "chunks", Datatype.LONG, block, 2)) {
                final Communicator priv = (Communicator) ch.privateComm();
                final java.util.regex.Pattern chunks = java.util.regex.Pattern.compile("(\\d+) chunks");
                final java.util.function.LongSupplier moved = () -> {
                    final java.util.regex.Matcher m = chunks.matcher(region(priv));
                    return m.find() ? Long.parseLong(m.group(1)) : -1;
                };
                assertTrue(region(priv).contains("HostRegion") && 0 == moved.getAsLong(),
                    "a chunk area agreed at creation, nothing moved yet: " + region(priv));
                assertEquals(0, run(ch, 60, false), "send buffers in the arena");
                assertEquals(60, ch.stats().exchanges());
                final long n = moved.getAsLong();
                assertTrue(n > 0 && 0 == n % 60, "every exchange through the same chunks: " + region(priv));
            }
            assertEquals(before, shm.singleCopySends(), "single-copy sends below the slot limit");
        });
    }

    /** @return the on-host state of {@code comm}: its region and the chunks it moved, or why it has none */
    private static String region(final Communicator comm) {
        return String.valueOf(Worlds.impl(comm).collComm().hostState());
    }

    @Test
    void shouldUseArraysOverInproc() {
        Tutti.runLocal(2, Tutti.Options.defaults().timeout(Duration.ofSeconds(60)), world -> {
            assertTrue(SharedMemory.of(world).isEmpty());
            try (AlltoallChannel ch = AlltoallChannel.create(world, "inproc", Datatype.LONG, 5_000, 2)) {
                run(ch, 50, false);
            }
        });
    }

    @Test
    void shouldUseArraysOverTcp() {
        TcpJob.run(2, 4096, (world, tcp) -> {
            assertTrue(SharedMemory.of(world).isEmpty());
            try (AlltoallChannel ch = AlltoallChannel.create(world, "tcp", Datatype.LONG, 5_000, 2)) {
                run(ch, 50, false);
            }
        });
    }
}
