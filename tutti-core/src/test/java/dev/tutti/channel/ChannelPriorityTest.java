package dev.tutti.channel;

import dev.tutti.Datatype;
import dev.tutti.Intercommunicator;
import dev.tutti.SharedWindow;
import dev.tutti.Tutti;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
        assertEquals(0, lowFirst("pairwise", 4, 4, false),
            "times a rank found the low channel's exchange complete before the high one's");
    }

    /**
     * The low channel over the one-copy window: its blocks (64 B) are written straight into its peers' receive buffers,
     * in one step, and its start first runs a pass of the rank's progress while the high exchange (32 B, a Bruck
     * alltoall, two rounds at 4 ranks) is pending. Every rank submits the high exchange, which posts its first round;
     * after a barrier outside Tutti every first-round message has been delivered, so the pass at each rank's low start
     * takes the high exchange's second round out before the low blocks. A rank that finds every low block written has
     * therefore been sent every high message, and its next look completes the high exchange. Without the pass a rank
     * writes its low blocks before its second round, and that order is seen.
     */
    @Test
    void shouldSendTheHighChannelsReadyRoundBeforeTheLowChannelsBlocksThroughTheWindow() {
        assertEquals(0, lowFirst("bruck", 4, 8, true),
            "times a rank found the low channel's exchange complete before the high one's");
    }

    /**
     * The high channel over the one-copy window (64 B blocks), the low one a pairwise alltoall (32 B) or the window
     * too (64 B). Every rank submits the high exchange, which writes the blocks whose receivers have assigned it a
     * zone and assigns its own; after a barrier outside Tutti every zone is assigned. The low start then advances
     * the high exchange first, which writes the rest (the alltoall's start, as any run about to post a round,
     * advances the higher levels; the window's start runs a pass of progress, which does): every rank has written
     * its high blocks before any of its low ones leave. A rank that finds the low exchange complete has therefore
     * received every high block. (Receivers usually assign zones exchanges ahead, so the high blocks mostly leave at
     * the submit itself; the next test checks the high channel's place in the priority order directly.)
     */
    @ParameterizedTest(name = "low channel's block of {0} longs")
    @ValueSource(ints = {4, 8})
    void shouldWriteTheHighChannelsBlocksThroughTheWindowBeforeTheLowChannelsMessages(final int lowBlock) {
        assertEquals(0, lowFirst("pairwise", 8, lowBlock, true),
            "times a rank found the low channel's exchange complete before the high one's");
    }

    /**
     * A prioritized channel over the window outranks the rank's lower-priority work while an exchange of it is in
     * flight here (its peer has not submitted yet), and no longer once it completed or the channel closed: as seen
     * by any protocol on a shared window ({@link SharedWindow#outranked}), which is what lower-priority window
     * channels ask, and the same count that collectives ask before they go the lean way or post a round.
     */
    @Test
    void shouldOutrankLowerWorkWhileAnExchangeThroughTheWindowIsInFlight() {
        final CyclicBarrier submitted = new CyclicBarrier(2);
        Tutti.runLocal(2, AlltoallChannelTest.OPTS, w -> {
            final int me = w.rank();
            final SharedWindow probe = SharedWindow.allocate(w, 8).orElseThrow();
            try (AlltoallChannel high = AlltoallChannel.create(w, "high", Datatype.LONG, 8, 1,
                ChannelQos.priority(7))) {
                for (int k = 0; k < 3; k++) {
                    assertFalse(probe.outranked(0), "exchange " + k + " not started yet");
                    if (0 == me) {
                        PriorityCrossOrderRun.submit(high, k, me);
                        assertTrue(probe.outranked(0), "exchange " + k + " in flight, rank 1 has not submitted");
                        assertFalse(probe.outranked(7), "only higher levels outrank");
                        submitted.await(30, TimeUnit.SECONDS);
                    } else {
                        submitted.await(30, TimeUnit.SECONDS);
                        PriorityCrossOrderRun.submit(high, k, me);
                    }
                    final ChannelBuffer in = high.takeReceive();
                    assertTrue(in.isShared(), "the exchange went through the window");
                    ChannelData.check(in, k, me);
                    high.release(in);
                }
                assertFalse(probe.outranked(0), "every exchange complete");
                PriorityCrossOrderRun.submit(high, 3, me); // in flight (or complete) at close
            }
            assertFalse(probe.outranked(0), "closed");
            probe.retire();
        });
    }

    /**
     * A legal cross order of calls on the two channels, each over both of its paths (blocks of 4 longs: persistent
     * alltoalls; 8: the one-copy window): it must not hang.
     */
    @ParameterizedTest(name = "high {0} longs, low {1} longs")
    @CsvSource({"4, 4", "4, 8", "8, 4", "8, 8"})
    void shouldCompleteTheLowChannelThatAPeerWaitsForBeforeItJoinsTheHighOne(final int highBlock, final int lowBlock) {
        Tutti.runLocal(3, AlltoallChannelTest.OPTS, w -> PriorityCrossOrderRun.run(w, highBlock, lowBlock));
    }

    /** The same between the groups of an intercommunicator (2 and 3 ranks). */
    @ParameterizedTest(name = "high {0} longs, low {1} longs")
    @CsvSource({"4, 4", "4, 8", "8, 4", "8, 8"})
    void shouldCompleteTheLowBipartiteChannelThatAPeerWaitsForBeforeItJoinsTheHighOne(final int highBlock,
        final int lowBlock) {
        Tutti.runLocal(5, AlltoallChannelTest.OPTS, w -> {
            final Intercommunicator inter = BipartiteChannelTest.split(w, 2);
            PriorityCrossOrderRun.run(inter, highBlock, lowBlock, w.rank() < 2);
            inter.free();
        });
    }

    /**
     * Runs {@value #EXCHANGES} exchanges of a low and a high-priority channel on {@value #RANKS} ranks: each submits
     * the high one, then the low one, with a barrier outside Tutti after both or between them, then polls both.
     *
     * @param alltoall        the alltoall algorithm of the channels' exchanges (of those that do not take the window:
     *                        blocks under 64 B)
     * @param highBlock       longs per block of the high channel
     * @param lowBlock        longs per block of the low channel
     * @param lowAfterBarrier whether the low exchange is submitted after the barrier (else before it)
     * @return how many times a rank found the low exchange complete and the high one, looked at right after, not;
     *         the first exchange is not counted: the first start of the high exchange's request also agrees with its
     *         peers on how its messages go (more rounds)
     */
    private static int lowFirst(final String alltoall, final int highBlock, final int lowBlock,
        final boolean lowAfterBarrier) {
        final CyclicBarrier delivered = new CyclicBarrier(RANKS);
        final AtomicInteger lowFirst = new AtomicInteger();
        Tutti.runLocal(RANKS, AlltoallChannelTest.OPTS.algorithm("alltoall", alltoall), w -> {
            final int me = w.rank();
            try (AlltoallChannel low = AlltoallChannel.create(w, "low", Datatype.LONG, lowBlock, 1);
                AlltoallChannel high = AlltoallChannel.create(w, "high", Datatype.LONG, highBlock, 1,
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
     * Between passes that find an exchange missing it yields, so that the order of the two looks is kept.
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
            if (null == lowIn || null == highIn) {
                Thread.yield(); // the ranks outnumber the cores: let the peers whose data this waits for run
            }
        }
        ChannelData.check(lowIn, k, me);
        ChannelData.check(highIn, k, me);
        low.release(lowIn);
        high.release(highIn);
        return lowFirst;
    }
}
