package dev.tutti.channel;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Datatype;
import dev.tutti.Op;
import dev.tutti.Tutti;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Intragroup channels: every byte of many exchanges, pipelined through rings of depth 1-4, at p = 1..9. */
@Timeout(60)
class AlltoallChannelTest {
    static final Tutti.Options OPTS = Tutti.Options.defaults().timeout(Duration.ofSeconds(50));

    /**
     * Runs {@code n} exchanges on a channel of depth {@code depth}, single-threaded and pipelined: up to depth - 1
     * exchanges are outstanding while the next is submitted; every element of every receive buffer is checked.
     */
    static void pipeline(final AlltoallChannel ch, final int n, final int me) {
        final int ahead = ch.depth() - 1;
        for (int k = 0; k < n; k++) {
            final ChannelBuffer out = ch.takeSend();
            ChannelData.fill(out, k, me);
            ch.submit(out);
            if (k >= ahead) {
                final ChannelBuffer in = ch.takeReceive();
                ChannelData.check(in, k - ahead, me);
                ch.release(in);
            }
        }
        for (int k = Math.max(0, n - ahead); k < n; k++) {
            final ChannelBuffer in = ch.takeReceive();
            ChannelData.check(in, k, me);
            ch.release(in);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 5, 9})
    void shouldDeliverEveryElementOfEveryExchange(final int p) {
        final long seed = 42L + p;
        Tutti.runLocal(p, OPTS, w -> {
            final Random rnd = new Random(seed); // the same on every rank: equal block sizes and depths
            for (int depth = 1; depth <= 4; depth++) {
                final int block = 1 + rnd.nextInt(p > 5 ? 40 : 300);
                final int exchanges = p > 5 ? 40 : 150;
                try (AlltoallChannel ch = AlltoallChannel.create(w, "c" + depth, Datatype.LONG, block, depth)) {
                    pipeline(ch, exchanges, w.rank());
                    final ChannelStats s = ch.stats();
                    assertEquals(exchanges, s.exchanges());
                    assertEquals((long) exchanges * p * block * 8, s.bytesSent());
                    assertEquals(s.bytesSent(), s.bytesReceived());
                    assertTrue(s.latency(50).compareTo(s.latency(99)) <= 0, s.toString());
                    assertTrue(s.latency(99).compareTo(s.maxLatency()) <= 0, s.toString());
                    assertTrue(s.maxLatency().toNanos() > 0, s.toString());
                    assertEquals(0, s.deadlineMisses());
                }
            }
        });
    }

    @Test
    void shouldHandBackTheSameBuffersWithoutAllocatingNewOnes() {
        Tutti.runLocal(2, OPTS, w -> {
            try (AlltoallChannel ch = AlltoallChannel.create(w, "ring", Datatype.INT, 3, 2)) {
                final java.util.Set<Object> arrays = java.util.Collections.newSetFromMap(
                    new java.util.IdentityHashMap<>());
                for (int k = 0; k < 20; k++) {
                    final ChannelBuffer out = ch.takeSend();
                    arrays.add(out.array());
                    java.util.Arrays.fill(out.ints(), k);
                    ch.submit(out);
                    final ChannelBuffer in = ch.takeReceive();
                    arrays.add(in.array());
                    assertEquals(k, in.ints()[5]);
                    ch.release(in);
                }
                assertTrue(arrays.size() <= 4, "the ring of depth 2 used " + arrays.size() + " arrays");
            }
        });
    }

    /** Ranks mix channel exchanges with the communicator's own collectives in different orders. */
    @Test
    void shouldNotInterfereWithTheCommunicatorsCollectives() {
        Tutti.runLocal(3, OPTS, w -> {
            try (AlltoallChannel ch = AlltoallChannel.create(w, "mixed", Datatype.LONG, 4, 2)) {
                for (int k = 0; k < 30; k++) {
                    final int[] x = {w.rank() + k};
                    if (0 == w.rank() % 2) {
                        w.allreduce(Buf.IN_PLACE, Buf.of(x), Op.SUM);
                    }
                    final ChannelBuffer out = ch.takeSend();
                    ChannelData.fill(out, k, w.rank());
                    ch.submit(out);
                    if (1 == w.rank() % 2) {
                        w.allreduce(Buf.IN_PLACE, Buf.of(x), Op.SUM);
                    }
                    assertEquals(3 + 3 * k, x[0]);
                    final ChannelBuffer in = ch.takeReceive();
                    ChannelData.check(in, k, w.rank());
                    ch.release(in);
                    final long[] got = new long[3];
                    w.alltoall(Buf.of(new long[] {k, k, k}), Buf.of(got));
                    assertEquals(k, got[2]);
                }
            }
        });
    }

    /** Two channels on one communicator, driven in opposite orders on different ranks. */
    @Test
    void shouldKeepTwoChannelsApart() {
        Tutti.runLocal(2, OPTS, w -> {
            try (AlltoallChannel a = AlltoallChannel.create(w, "a", Datatype.LONG, 5, 1);
                 AlltoallChannel b = AlltoallChannel.create(w, "b", Datatype.LONG, 7, 1)) {
                for (int k = 0; k < 20; k++) {
                    final AlltoallChannel first = 0 == w.rank() ? a : b;
                    final AlltoallChannel second = 0 == w.rank() ? b : a;
                    for (final AlltoallChannel ch : new AlltoallChannel[] {first, second}) {
                        final ChannelBuffer out = ch.takeSend();
                        ChannelData.fill(out, k, w.rank());
                        ch.submit(out);
                    }
                    for (final AlltoallChannel ch : new AlltoallChannel[] {second, first}) {
                        final ChannelBuffer in = ch.takeReceive();
                        ChannelData.check(in, k, w.rank());
                        ch.release(in);
                    }
                }
            }
        });
    }

    @Test
    void shouldBeFoundByNameWhileOpen() {
        Tutti.runLocal(2, OPTS, w -> {
            final AlltoallChannel ch = AlltoallChannel.create(w, "fft", Datatype.DOUBLE, 8, 2);
            assertSame(ch, AlltoallChannel.lookup(w, "fft").orElseThrow());
            assertEquals("fft", ch.name());
            assertFalse(AlltoallChannel.lookup(w, "other").isPresent());
            final Communicator dup = w.dup();
            assertFalse(AlltoallChannel.lookup(dup, "fft").isPresent(), "a channel belongs to one communicator");
            ch.close();
            assertFalse(AlltoallChannel.lookup(w, "fft").isPresent());
            AlltoallChannel.create(w, "fft", Datatype.DOUBLE, 8, 2).close(); // the name is free again
            dup.free();
        });
    }

    /**
     * A producer thread submits as fast as the channel lets it while the rank's main thread consumes slowly: the
     * producer is held back (submits wait, trySubmit says no), every exchange arrives in order with every element,
     * and a buffer the consumer holds does not change while it holds it. Blocks of 64 longs take the one-copy
     * window, blocks of 4 longs the persistent alltoall's slots, where a release takes no lock and wakes a waiting
     * submit only through its flag.
     */
    @ParameterizedTest
    @ValueSource(ints = {4, 64})
    void shouldHoldBackAFastProducerWithoutLosingOrOverwritingAnything(final int block) {
        final int exchanges = 60;
        Tutti.runLocal(3, OPTS, w -> {
            final int me = w.rank();
            try (AlltoallChannel ch = AlltoallChannel.create(w, "slow", Datatype.LONG, block, 3)) {
                final AtomicInteger refused = new AtomicInteger();
                final ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
                final Thread producer = producer(ch, exchanges, me, refused, errors);
                for (int k = 0; k < exchanges; k++) {
                    final ChannelBuffer in = ch.takeReceive();
                    final long before = ChannelData.checksum(in.buf());
                    if (0 == me && k % 4 == 0) {
                        Thread.sleep(15); // the slow consumer: others' exchanges back up behind rank 0
                    } else if (k % 10 == 0) {
                        Thread.sleep(5);
                    }
                    assertEquals(before, ChannelData.checksum(in.buf()), "a held buffer changed");
                    ChannelData.check(in, k, me);
                    ch.release(in);
                }
                producer.join(TimeUnit.SECONDS.toMillis(30));
                assertTrue(errors.isEmpty(), () -> errors.peek().toString());
                assertTrue(refused.get() > 0, "the producer was never held back");
                assertNull(ch.takeReceive(0, TimeUnit.MILLISECONDS), "more exchanges than submits");
            }
        });
    }

    /**
     * A producer thread and a consumer thread per rank, neither pausing, through a channel of small blocks (the
     * persistent alltoall's slots, whose releases take no lock) and a ring of depth 1 or 2: every submit that finds
     * no free receive buffer waits for the other thread's release, thousands of times; every exchange arrives in
     * order with every element.
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void shouldPassThousandsOfExchangesBetweenAProducerAndAConsumerThread(final int depth) {
        final int exchanges = 3000;
        Tutti.runLocal(2, OPTS, w -> {
            final int me = w.rank();
            try (AlltoallChannel ch = AlltoallChannel.create(w, "pc", Datatype.LONG, 2, depth)) {
                final ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
                final Thread producer = producer(ch, exchanges, me, null, errors);
                for (int k = 0; k < exchanges && errors.isEmpty(); k++) {
                    final ChannelBuffer in = ch.takeReceive(20, TimeUnit.SECONDS);
                    assertTrue(null != in, "exchange " + k + " did not arrive");
                    ChannelData.check(in, k, me);
                    ch.release(in);
                }
                producer.join(TimeUnit.SECONDS.toMillis(30));
                assertTrue(errors.isEmpty(), () -> errors.peek().toString());
                assertEquals(exchanges, ch.stats().exchanges());
            }
        });
    }

    /**
     * Starts a thread that takes, fills and submits the send buffers of {@code exchanges} exchanges: with
     * {@code refused}, {@code trySubmit} first, counting its refusals; it records what it throws in {@code errors}.
     */
    private static Thread producer(final AlltoallChannel ch, final int exchanges, final int me,
        final AtomicInteger refused, final ConcurrentLinkedQueue<Throwable> errors) {
        return Thread.ofPlatform().start(() -> {
            try {
                for (int k = 0; k < exchanges; k++) {
                    final ChannelBuffer out = ch.takeSend();
                    ChannelData.fill(out, k, me);
                    if (null == refused || !ch.trySubmit(out)) {
                        if (null != refused) {
                            refused.incrementAndGet();
                        }
                        ch.submit(out);
                    }
                }
            } catch (final Throwable t) {
                errors.add(t);
            }
        });
    }
}
