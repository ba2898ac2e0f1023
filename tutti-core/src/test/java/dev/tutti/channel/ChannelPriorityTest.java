package dev.tutti.channel;

import dev.tutti.Datatype;
import dev.tutti.Tutti;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Priority QoS: of two channels with exchanges pending on every rank, the higher-priority one is progressed first,
 * so no rank ever sees the low channel's exchange complete while the high one's has not.
 */
@Timeout(60)
class ChannelPriorityTest {
    private static final int RANKS = 4;
    private static final int EXCHANGES = 200;

    /**
     * Every rank submits the high channel's exchange, then the low one's: each posts the first round of its
     * pairwise alltoall (three rounds at 4 ranks), and the low one's start advances the pending high exchange
     * first. The ranks then meet at a barrier outside Tutti (so that both exchanges are pending everywhere), and
     * poll the low channel, then at once the high one. Every advance on every rank, whichever wait or start drives
     * it, takes the high exchange's next round before the low one's, and the inproc transport delivers a rank's
     * messages in the order it posts them, so each peer gets a round's high message before its low one: no rank
     * finds the low exchange complete and the high one not. Without priority a wait on the low channel advances
     * it first, and that order is seen. With 64-byte blocks the low channel moves its blocks itself, one copy each
     * through shared memory: it writes nothing while the high exchange is in flight on its rank, so the same holds.
     */
    @ParameterizedTest(name = "block of {0} longs")
    @ValueSource(ints = {4, 8}) // 32 B: the low channel's exchanges are persistent alltoalls; 64 B: one copy each
    void shouldNeverCompleteTheLowChannelBeforeTheHighOne(final int block) {
        final CyclicBarrier delivered = new CyclicBarrier(RANKS);
        final AtomicInteger lowFirst = new AtomicInteger();
        final Tutti.Options pairwise = AlltoallChannelTest.OPTS.algorithm("alltoall", "pairwise");
        Tutti.runLocal(RANKS, pairwise, w -> {
            final int me = w.rank();
            try (AlltoallChannel low = AlltoallChannel.create(w, "low", Datatype.LONG, block, 1);
                AlltoallChannel high = AlltoallChannel.create(w, "high", Datatype.LONG, block, 1,
                    ChannelQos.priority(7))) {
                assertEquals(7, high.qos().level());
                for (int k = 0; k < EXCHANGES; k++) {
                    for (final AlltoallChannel ch : new AlltoallChannel[] {high, low}) {
                        final ChannelBuffer out = ch.takeSend();
                        ChannelData.fill(out, k, me);
                        ch.submit(out);
                    }
                    delivered.await(30, TimeUnit.SECONDS);
                    ChannelBuffer lowIn = null;
                    ChannelBuffer highIn = null;
                    while (null == lowIn || null == highIn) {
                        if (null == lowIn) {
                            lowIn = low.takeReceive(0, TimeUnit.NANOSECONDS);
                            if (null != lowIn && null == highIn) {
                                highIn = high.takeReceive(0, TimeUnit.NANOSECONDS);
                                if (null == highIn) {
                                    lowFirst.incrementAndGet();
                                }
                            }
                        }
                        if (null == highIn) {
                            highIn = high.takeReceive(0, TimeUnit.NANOSECONDS);
                        }
                    }
                    ChannelData.check(lowIn, k, me);
                    ChannelData.check(highIn, k, me);
                    low.release(lowIn);
                    high.release(highIn);
                }
            }
        });
        assertEquals(0, lowFirst.get(), "times a rank found the low channel's exchange complete before the high one's");
    }
}
