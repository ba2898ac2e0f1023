package dev.tutti.channel;

import dev.tutti.Datatype;
import dev.tutti.Intercommunicator;
import dev.tutti.Tutti;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Priority QoS: of two channels with exchanges pending on every rank, the higher-priority one is progressed first,
 * so no rank ever sees the low channel's exchange complete while the high one's has not; and a low channel whose
 * exchange a peer waits for completes even while a high one is pending that the peer joins only after it.
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
     * it first, and that order is seen.
     */
    @Test
    void shouldNeverCompleteTheLowChannelBeforeTheHighOne() {
        assertEquals(0, lowFirst("pairwise", 4, false),
            "times a rank found the low channel's exchange complete before the high one's");
    }

    /**
     * The same over the one-copy window: the low channel's blocks (64 B) are written straight into its peers' receive
     * buffers, in one step, and its start first runs a pass of the rank's progress while the high exchange is pending
     * (a Bruck alltoall, two rounds at 4 ranks). Every rank submits the high exchange, which posts its first round;
     * after a barrier outside Tutti every first-round message has been delivered, so the pass at each rank's low start
     * takes the high exchange's second round out before the low blocks. A rank that finds every low block written has
     * therefore been sent every high message, and its next look completes the high exchange. Without the pass a rank
     * writes its low blocks before its second round, and that order is seen.
     */
    @Test
    void shouldSendTheHighChannelsReadyRoundBeforeTheLowChannelsBlocksThroughTheWindow() {
        assertEquals(0, lowFirst("bruck", 8, true),
            "times a rank found the low channel's exchange complete before the high one's");
    }

    /** A legal cross order of calls on the two channels, over both paths of the low channel: it must not hang. */
    @ParameterizedTest(name = "block of {0} longs")
    @ValueSource(ints = {4, 8}) // 32 B: the low channel's exchanges are persistent alltoalls; 64 B: one copy each
    void shouldCompleteTheLowChannelThatAPeerWaitsForBeforeItJoinsTheHighOne(final int block) {
        Tutti.runLocal(3, AlltoallChannelTest.OPTS, w -> PriorityCrossOrderRun.run(w, block));
    }

    /** The same between the groups of an intercommunicator (2 and 3 ranks), over both paths of the low channel. */
    @ParameterizedTest(name = "block of {0} longs")
    @ValueSource(ints = {4, 8})
    void shouldCompleteTheLowBipartiteChannelThatAPeerWaitsForBeforeItJoinsTheHighOne(final int block) {
        Tutti.runLocal(5, AlltoallChannelTest.OPTS, w -> {
            final Intercommunicator inter = BipartiteChannelTest.split(w, 2);
            PriorityCrossOrderRun.run(inter, block, w.rank() < 2);
            inter.free();
        });
    }

    /**
     * Runs {@value #EXCHANGES} exchanges of a low and a high-priority channel on {@value #RANKS} ranks: each submits
     * the high one, then the low one, with a barrier outside Tutti after both or between them, then polls both.
     *
     * @param alltoall        the alltoall algorithm of the channels' exchanges (the low one's, unless it takes the
     *                        window)
     * @param block           longs per block
     * @param lowAfterBarrier whether the low exchange is submitted after the barrier (else before it)
     * @return how many times a rank found the low exchange complete and the high one, looked at right after, not;
     *         the first exchange is not counted: the first start of the high exchange's request also agrees with its
     *         peers on how its messages go (more rounds)
     */
    private static int lowFirst(final String alltoall, final int block, final boolean lowAfterBarrier) {
        final CyclicBarrier delivered = new CyclicBarrier(RANKS);
        final AtomicInteger lowFirst = new AtomicInteger();
        Tutti.runLocal(RANKS, AlltoallChannelTest.OPTS.algorithm("alltoall", alltoall), w -> {
            final int me = w.rank();
            try (AlltoallChannel low = AlltoallChannel.create(w, "low", Datatype.LONG, block, 1);
                AlltoallChannel high = AlltoallChannel.create(w, "high", Datatype.LONG, block, 1,
                    ChannelQos.priority(7))) {
                assertEquals(7, high.qos().level());
                for (int k = 0; k < EXCHANGES; k++) {
                    PriorityCrossOrderRun.submit(high, k, me);
                    if (!lowAfterBarrier) {
                        PriorityCrossOrderRun.submit(low, k, me);
                    }
                    delivered.await(30, TimeUnit.SECONDS);
                    if (lowAfterBarrier) {
                        PriorityCrossOrderRun.submit(low, k, me);
                    }
                    final int seen = pollLowFirst(low, high, k, me);
                    if (k > 0) {
                        lowFirst.addAndGet(seen);
                    }
                }
            }
        });
        return lowFirst.get();
    }

    /**
     * Polls the low channel, then at once the high one, until both exchanges are in; checks and releases them.
     *
     * @return 1 if the low exchange was found complete and the high one, looked at right after, not; else 0
     */
    private static int pollLowFirst(final AlltoallChannel low, final AlltoallChannel high, final int k,
        final int me) {
        int lowFirst = 0;
        ChannelBuffer lowIn = null;
        ChannelBuffer highIn = null;
        while (null == lowIn || null == highIn) {
            if (null == lowIn) {
                lowIn = low.takeReceive(0, TimeUnit.NANOSECONDS);
                if (null != lowIn && null == highIn) {
                    highIn = high.takeReceive(0, TimeUnit.NANOSECONDS);
                    if (null == highIn) {
                        lowFirst = 1;
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
        return lowFirst;
    }
}
