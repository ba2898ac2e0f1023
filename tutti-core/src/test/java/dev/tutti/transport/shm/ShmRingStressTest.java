package dev.tutti.transport.shm;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Concurrency stress of the shared-memory queues under contention: several producer threads against one consumer
 * on a small ring (so it wraps and fills constantly), and one producer against one consumer on a chunk channel.
 * Every record must arrive exactly once, intact, and in each producer's order.
 */
@Timeout(60)
class ShmRingStressTest {
    private static final int TYPE = 9;

    @Test
    void shouldDeliverEveryRecordOnceInPerProducerOrderUnderContention() throws Exception {
        final int producers = 4;
        final int perProducer = 150_000;
        final long capacity = 4096;
        try (Arena arena = Arena.ofShared()) {
            final MemorySegment mem = arena.allocate(ShmLayoutDescriptor.RING_DATA + capacity, 4096);
            final AtomicReference<Throwable> failure = new AtomicReference<>();
            final Thread[] threads = new Thread[producers];
            for (int p = 0; p < producers; p++) {
                final int id = p;
                threads[p] = Thread.ofPlatform().start(() -> {
                    final ShmRing ring = new ShmRing(mem, 0, capacity);
                    final SplittableRandom rnd = new SplittableRandom(id);
                    try {
                        for (int seq = 0; seq < perProducer; seq++) {
                            final int length = 24 + rnd.nextInt(0, 300);
                            long at;
                            while (ShmRing.FULL == (at = ring.tryClaim(length))) {
                                Thread.yield(); // 5 threads on few cores: let the consumer run
                            }
                            mem.set(ValueLayout.JAVA_INT, at + 8, id);
                            mem.set(ValueLayout.JAVA_INT, at + 12, seq);
                            for (long i = at + 16; i < at + length; i++) {
                                mem.set(ValueLayout.JAVA_BYTE, i, (byte) (seq + i - at));
                            }
                            ring.commit(at, TYPE, length);
                        }
                    } catch (final Throwable t) {
                        failure.compareAndSet(null, t);
                    }
                });
            }
            final ShmRing consumer = new ShmRing(mem, 0, capacity);
            final int[] next = new int[producers];
            long received = 0;
            final long total = (long) producers * perProducer;
            final long deadline = System.nanoTime() + 50_000_000_000L;
            while (received < total) {
                final long h = consumer.peek();
                if (0 == h) {
                    consumer.releaseConsumed();
                    if (System.nanoTime() - deadline > 0 || null != failure.get()) {
                        throw new AssertionError("received " + received + " of " + total, failure.get());
                    }
                    Thread.yield();
                    continue;
                }
                final long at = consumer.recordAt();
                assertEquals(TYPE, ShmRing.type(h));
                final int length = ShmRing.length(h);
                final int id = mem.get(ValueLayout.JAVA_INT, at + 8);
                final int seq = mem.get(ValueLayout.JAVA_INT, at + 12);
                assertEquals(next[id], seq, "producer " + id + " out of order or duplicated");
                next[id]++;
                for (long i = at + 16; i < at + length; i++) {
                    if (mem.get(ValueLayout.JAVA_BYTE, i) != (byte) (seq + i - at)) {
                        throw new AssertionError("producer " + id + " record " + seq + " corrupt at byte " + (i - at));
                    }
                }
                consumer.consume(h);
                received++;
                if (0 == received % 7) {
                    consumer.releaseConsumed(); // in batches, as the poller does (and when idle, above)
                }
            }
            for (final Thread t : threads) {
                t.join();
            }
            assertNull(failure.get());
            assertArrayEquals(new int[] {perProducer, perProducer, perProducer, perProducer}, next);
            assertEquals(0, consumer.peek(), "nothing after the last record");
        }
    }

    /**
     * The consumer zeroes consumed records only when it releases them, at the start of its next poll, and a poll
     * takes up to 64 records while producers keep writing. More than a lap consumed within one poll must never
     * show a consumed record again (its header is still there, one lap behind).
     */
    @Test
    void shouldNeverReturnAConsumedRecordWhenReleaseIsLate() {
        final long capacity = 4096;
        try (Arena arena = Arena.ofShared()) {
            final MemorySegment mem = arena.allocate(ShmLayoutDescriptor.RING_DATA + capacity, 4096);
            final ShmRing producer = new ShmRing(mem, 0, capacity);
            final ShmRing consumer = new ShmRing(mem, 0, capacity);
            int written = 0;
            int expected = 0;
            for (int poll = 0; poll < 200; poll++) {
                consumer.releaseConsumed();
                for (int step = 0; step < 64; step++) {
                    final long at = producer.tryClaim(528);
                    if (ShmRing.FULL != at) {
                        mem.set(ValueLayout.JAVA_INT, at + 8, written++);
                        producer.commit(at, TYPE, 528);
                    }
                    final long h = consumer.peek();
                    if (0 != h) {
                        assertEquals(expected, mem.get(ValueLayout.JAVA_INT, consumer.recordAt() + 8),
                            "record read out of order or twice (poll " + poll + ")");
                        expected++;
                        consumer.consume(h);
                    }
                }
            }
            assertTrue(expected > 1_000, "records moved: " + expected);
        }
    }

    @Test
    void shouldStreamChunksIntactThroughTheChannel() throws Exception {
        final ShmLayoutDescriptor layout = new ShmLayoutDescriptor(2, 4096, 256, 3, 0);
        try (Arena arena = Arena.ofShared()) {
            final MemorySegment file = arena.allocate(layout.totalBytes, 4096);
            final int messages = 2_000;
            final AtomicReference<Throwable> failure = new AtomicReference<>();
            final Thread producer = Thread.ofPlatform().start(() -> {
                final ShmChannel ch = new ShmChannel(file, layout, 0, 1);
                try {
                    for (int m = 0; m < messages; m++) {
                        final MemorySegment payload = MemorySegment.ofArray(bytes(m));
                        for (long off = 0; off < payload.byteSize(); ) {
                            final long n = Math.min(ch.chunkBytes(), payload.byteSize() - off);
                            if (ch.offer(m, payload, off, n)) {
                                off += n;
                            } else {
                                Thread.onSpinWait();
                            }
                        }
                    }
                } catch (final Throwable t) {
                    failure.compareAndSet(null, t);
                }
            });
            final ShmChannel ch = new ShmChannel(file, layout, 0, 1);
            for (int m = 0; m < messages; m++) {
                final byte[] expected = bytes(m);
                final byte[] got = new byte[expected.length];
                long done = 0;
                while (done < got.length) {
                    final long slot = ch.readySlot();
                    if (slot < 0) {
                        if (null != failure.get()) {
                            throw new AssertionError("producer failed", failure.get());
                        }
                        Thread.onSpinWait();
                        continue;
                    }
                    assertEquals(m, ShmChannel.msgId(file, slot));
                    assertEquals(done, ShmChannel.offset(file, slot));
                    final long n = ShmChannel.bytes(file, slot);
                    MemorySegment.copy(file, ShmChannel.data(slot), MemorySegment.ofArray(got), done, n);
                    ch.release(slot, n);
                    done += n;
                }
                assertArrayEquals(expected, got, "message " + m);
            }
            producer.join();
            assertNull(failure.get());
        }
    }

    private static byte[] bytes(final int m) {
        final byte[] b = new byte[1 + (m * 37) % 2000];
        new SplittableRandom(m).nextBytes(b);
        return b;
    }
}
