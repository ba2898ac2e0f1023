package dev.tutti.transport.shm;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The pool behind unexpected small shm messages: size classes, reuse, its bound, and exclusive hand-out. */
class EagerBufferPoolTest {
    @Test
    void shouldHandOutTheSmallestPowerOfTwoThatHoldsTheLength() {
        final EagerBufferPool pool = new EagerBufferPool();
        assertEquals(64, pool.take(1).length);
        assertEquals(64, pool.take(64).length);
        assertEquals(128, pool.take(65).length);
        assertEquals(1024, pool.take(1000).length);
        assertEquals(1024, pool.take(1024).length);
        assertEquals(EagerBufferPool.MAX_BYTES, pool.take(EagerBufferPool.MAX_BYTES).length);
        assertEquals(EagerBufferPool.MAX_BYTES + 1, pool.take(EagerBufferPool.MAX_BYTES + 1).length, "not pooled");
    }

    @Test
    void shouldReuseAnArrayGivenBackForTheSameSizeClassOnly() {
        final EagerBufferPool pool = new EagerBufferPool();
        final byte[] b = pool.take(1000);
        pool.give(b);
        assertNotSame(b, pool.take(100), "another class");
        assertSame(b, pool.take(513));
        assertNotSame(b, pool.take(1000), "handed out once only");
    }

    @Test
    void shouldKeepAtMostSlotsArraysPerClassAndIgnoreForeignArrays() {
        final EagerBufferPool pool = new EagerBufferPool();
        for (int i = 0; i < 3 * EagerBufferPool.SLOTS; i++) {
            pool.give(new byte[256]);
        }
        pool.give(new byte[100]); // not a power of two
        pool.give(new byte[32]); // below the smallest class
        pool.give(new byte[2 * EagerBufferPool.MAX_BYTES]); // above the largest
        assertEquals(EagerBufferPool.SLOTS, pool.held());
    }

    @Test
    void shouldHandAnEmptyMessageAnEmptyArrayThatIsNeverPooled() {
        final EagerBufferPool pool = new EagerBufferPool();
        final byte[] b = pool.take(0);
        assertEquals(0, b.length);
        pool.give(b);
        assertEquals(0, pool.held());
    }

    /** Threads take and give back concurrently: no array is ever held by two of them at once. */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void shouldNeverHandOneArrayToTwoHoldersAtOnce() throws Exception {
        final EagerBufferPool pool = new EagerBufferPool();
        final Set<byte[]> held = Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));
        final AtomicReference<String> failure = new AtomicReference<>();
        final int threads = 4;
        final CyclicBarrier start = new CyclicBarrier(threads);
        final List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            workers.add(Thread.ofPlatform().start(() -> {
                try {
                    start.await();
                    final byte[][] mine = new byte[3][];
                    for (int i = 0; i < 200_000; i++) {
                        final int k = i % mine.length;
                        if (null != mine[k]) {
                            held.remove(mine[k]);
                            pool.give(mine[k]);
                        }
                        mine[k] = pool.take(1 + i % 2000);
                        if (!held.add(mine[k])) {
                            failure.compareAndSet(null, "an array was handed out twice at iteration " + i);
                            return;
                        }
                    }
                } catch (final Exception e) {
                    failure.compareAndSet(null, e.toString());
                }
            }));
        }
        for (final Thread w : workers) {
            w.join();
        }
        assertNull(failure.get());
        assertTrue(pool.held() <= 6 * EagerBufferPool.SLOTS, "bounded: " + pool.held());
    }
}
