package dev.tutti.channel;

import dev.tutti.Datatype;
import dev.tutti.ErrorClass;
import dev.tutti.Tutti;
import dev.tutti.TuttiException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Channels confined to the thread that created them ({@link ChannelQos#confined()}): every element of many exchanges
 * (the one-copy window and the persistent alltoall, at p = 1..5, rings of depth 1-4); every operation refused from
 * another thread, naming the channel and both threads, and the channel still usable by its owner afterwards; a wait
 * that could never end refused at once instead of hanging; ranks that differ in confinement. Over shm and tcp:
 * {@code ChannelTransportTest}.
 */
@Timeout(60)
class ChannelConfinedTest {
    private static final ChannelQos CONFINED = ChannelQos.bestEffort().confined();

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 5})
    void shouldDeliverEveryElementOfEveryExchange(final int p) {
        final long seed = 7L + p;
        Tutti.runLocal(p, AlltoallChannelTest.OPTS, w -> {
            final Random rnd = new Random(seed); // the same on every rank
            for (int depth = 1; depth <= 4; depth++) {
                final int block = 1 + rnd.nextInt(300); // LONGs: 8 B to 2.4 KiB, the window's and the alltoall's
                try (AlltoallChannel ch = AlltoallChannel.create(w, "c" + depth, Datatype.LONG, block, depth,
                    0 == depth % 2 ? CONFINED : ChannelQos.priority(3).confined())) {
                    AlltoallChannelTest.pipeline(ch, 150, w.rank());
                    assertEquals(150, ch.stats().exchanges());
                }
            }
        });
    }

    @Test
    void shouldRefuseEveryOperationFromAnotherThreadAndStayUsable() {
        Tutti.runLocal(2, AlltoallChannelTest.OPTS, w -> {
            try (AlltoallChannel ch = AlltoallChannel.create(w, "mine", Datatype.LONG, 4, 2, CONFINED)) {
                final ChannelBuffer out = ch.takeSend();
                ChannelData.fill(out, 0, w.rank());
                ch.submit(out);
                final ChannelBuffer in = ch.takeReceive();
                final ChannelBuffer spare = ch.takeSend();
                final List<Executable> calls = List.of(ch::takeSend, () -> ch.takeSend(1, TimeUnit.MILLISECONDS),
                    () -> ch.submit(spare), () -> ch.trySubmit(spare), ch::takeReceive,
                    () -> ch.takeReceive(1, TimeUnit.MILLISECONDS), () -> ch.release(in), ch::stats, ch::close);
                final String owner = Thread.currentThread().getName();
                final List<String> refused = new ArrayList<>();
                final AtomicReference<Throwable> unexpected = new AtomicReference<>();
                final Thread other = Thread.ofPlatform().name("intruder-" + w.rank()).start(() -> {
                    try {
                        for (final Executable call : calls) {
                            refused.add(assertThrows(TuttiException.class, call).getMessage());
                        }
                        assertFalse(ch.isClosed()); // readable from any thread
                        assertEquals("mine", ch.name());
                        ChannelData.check(in, 0, w.rank()); // and so are the buffers' contents
                    } catch (final Throwable t) {
                        unexpected.set(t);
                    }
                });
                other.join();
                if (null != unexpected.get()) {
                    throw new AssertionError(unexpected.get());
                }
                assertEquals(calls.size(), refused.size());
                for (final String m : refused) {
                    assertTrue(m.contains("channel=mine") && m.contains("intruder-" + w.rank())
                        && m.contains(owner) && m.contains("confined"), m);
                }
                // Nothing changed: the owner goes on where it was.
                ch.release(in);
                ChannelData.fill(spare, 1, w.rank());
                ch.submit(spare);
                ChannelData.check(ch.takeReceive(), 1, w.rank());
                assertEquals(2, ch.stats().exchanges());
            }
        });
    }

    @Test
    void shouldRefuseAWaitThatNoOtherThreadCouldEnd() {
        Tutti.runLocal(2, AlltoallChannelTest.OPTS, w -> {
            try (AlltoallChannel ch = AlltoallChannel.create(w, "alone", Datatype.LONG, 4, 1, CONFINED)) {
                final TuttiException none = assertThrows(TuttiException.class, ch::takeReceive);
                assertEquals(ErrorClass.REQUEST, none.errorClass());
                assertTrue(none.getMessage().contains("channel=alone") && none.getMessage().contains("never end"),
                    none.getMessage());
                final long t0 = System.nanoTime();
                assertNull(ch.takeReceive(30, TimeUnit.MILLISECONDS)); // a bounded wait takes its time
                assertTrue(System.nanoTime() - t0 >= TimeUnit.MILLISECONDS.toNanos(25));

                final ChannelBuffer out = ch.takeSend();
                ChannelData.fill(out, 0, w.rank());
                ch.submit(out);
                final ChannelBuffer held = ch.takeReceive(); // the ring's one receive buffer
                final ChannelBuffer next = ch.takeSend();
                final TuttiException full = assertThrows(TuttiException.class, () -> ch.submit(next));
                assertTrue(full.getMessage().contains("never end"), full.getMessage());
                assertFalse(ch.trySubmit(next));
                ChannelData.check(held, 0, w.rank());
                ch.release(held); // and the channel goes on
                ChannelData.fill(next, 1, w.rank());
                ch.submit(next);
                ChannelData.check(ch.takeReceive(), 1, w.rank());
            }
        });
    }

    @Test
    void shouldLetRanksDifferInConfinement() {
        Tutti.runLocal(3, AlltoallChannelTest.OPTS, w -> {
            final ChannelQos qos = 1 == w.rank() ? ChannelQos.bestEffort() : CONFINED;
            try (AlltoallChannel ch = AlltoallChannel.create(w, "mixed", Datatype.LONG, 16, 2, qos)) {
                AlltoallChannelTest.pipeline(ch, 100, w.rank());
            }
        });
    }

    @Test
    void shouldRefuseATimeDrivenChannelConfined() {
        final ChannelQos timed = ChannelQos.timeDriven(Duration.ofMillis(5), Duration.ofMillis(5));
        final TuttiException e = assertThrows(TuttiException.class, timed::confined);
        assertEquals(ErrorClass.ARG, e.errorClass());
        assertTrue(e.getMessage().contains("ChannelQos.confined") && e.getMessage().contains("clock thread"),
            e.getMessage());
    }

    @Test
    void shouldTellConfinedQosApart() {
        assertTrue(CONFINED.isConfined());
        assertFalse(ChannelQos.bestEffort().isConfined());
        assertNotEquals(ChannelQos.bestEffort(), CONFINED);
        assertEquals(ChannelQos.bestEffort().confined(), CONFINED);
        assertEquals(CONFINED.hashCode(), ChannelQos.bestEffort().confined().hashCode());
        assertEquals("BEST_EFFORT, confined", CONFINED.toString());
        final ChannelQos high = ChannelQos.priority(4).confined();
        assertEquals(ChannelQos.Kind.PRIORITY, high.kind());
        assertEquals(4, high.level());
        assertTrue(high.isConfined());
    }
}
