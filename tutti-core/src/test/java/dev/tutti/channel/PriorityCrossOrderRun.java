package dev.tutti.channel;

import dev.tutti.Communicator;
import dev.tutti.Datatype;
import dev.tutti.Intercommunicator;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * A legal order of calls on two channels (two communicators) that a priority rule must not deadlock: rank 0 (of group
 * A, between the groups of an intercommunicator) submits the high-priority exchange, then waits for the low one; every
 * other rank waits for the low one before it submits the high one. Rank 0's low blocks must go out while its high
 * exchange is pending, or no rank ever gets further. Run by the inproc priority test and over the process transports
 * (dev.tutti.ChannelTransportTest).
 */
public final class PriorityCrossOrderRun {
    private static final int EXCHANGES = 20;
    private static final long WAIT_SECONDS = 10;

    private PriorityCrossOrderRun() {
    }

    /**
     * @param w         the communicator (collective over it)
     * @param highBlock the longs per block of the high-priority channel (8 or more: it takes the one-copy window where
     *                  its ranks share memory; 4: its exchanges are persistent alltoalls)
     * @param lowBlock  the same for the low channel
     */
    public static void run(final Communicator w, final int highBlock, final int lowBlock) {
        try (AlltoallChannel low = AlltoallChannel.create(w, "low", Datatype.LONG, lowBlock, 1);
            AlltoallChannel high = AlltoallChannel.create(w, "high", Datatype.LONG, highBlock, 1,
                ChannelQos.priority(7))) {
            run(low, high, w.rank(), 0 == w.rank());
        }
    }

    /**
     * The same between the two groups of an intercommunicator (bipartite channels, blocks both ways).
     *
     * @param inter     the intercommunicator (collective over it)
     * @param highBlock the longs per block of the high-priority channel, both directions
     * @param lowBlock  the same for the low channel
     * @param groupA    whether this rank is in the group whose rank 0 submits the high exchange first
     */
    public static void run(final Intercommunicator inter, final int highBlock, final int lowBlock,
        final boolean groupA) {
        try (AlltoallChannel low = AlltoallChannel.bipartite(inter, "low", Datatype.LONG, lowBlock, lowBlock, 1,
            ChannelQos.bestEffort());
            AlltoallChannel high = AlltoallChannel.bipartite(inter, "high", Datatype.LONG, highBlock, highBlock, 1,
                ChannelQos.priority(7))) {
            run(low, high, inter.rank(), groupA && 0 == inter.rank());
        }
    }

    private static void run(final AlltoallChannel low, final AlltoallChannel high, final int me,
        final boolean highFirst) {
        for (int k = 0; k < EXCHANGES; k++) {
            if (highFirst) {
                submit(high, k, me);
                submit(low, k, me);
                take(low, k, me);
            } else {
                submit(low, k, me);
                take(low, k, me);
                submit(high, k, me);
            }
            take(high, k, me);
        }
    }

    static void submit(final AlltoallChannel ch, final int k, final int me) {
        final ChannelBuffer out = ch.takeSend();
        ChannelData.fill(out, k, me);
        ch.submit(out);
    }

    private static void take(final AlltoallChannel ch, final int k, final int me) {
        final ChannelBuffer in = ch.takeReceive(WAIT_SECONDS, TimeUnit.SECONDS);
        assertNotNull(in, ch.name() + ": exchange " + k + " did not complete in " + WAIT_SECONDS + " s");
        ChannelData.check(in, k, me);
        ch.release(in);
    }
}
