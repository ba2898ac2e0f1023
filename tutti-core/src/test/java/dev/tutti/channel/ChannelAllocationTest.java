package dev.tutti.channel;

import dev.tutti.testkit.AllocationProbe;

import dev.tutti.testkit.AllocationProbe;
import dev.tutti.Buf;
import dev.tutti.Datatype;
import dev.tutti.PersistentRequest;
import dev.tutti.Tutti;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;


import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A steady channel exchange allocates no more than a start and wait of the persistent alltoall it runs: the rings,
 * block views, exchange records and persistent requests are made at creation or at the first exchanges. Bytes are
 * counted by the JVM for the rank's thread after a warm-up.
 */
// Runs alone (@Isolated): it counts the bytes its calls allocate, with no other job competing for the CPU while they
// wait.
@Isolated
@Timeout(60)
class ChannelAllocationTest {
    private static final int CALLS = 2_000;
    /** What the channel may add per exchange to its alltoall (none expected; slack for timing-dependent paths). */
    private static final double SLACK_BYTES = 64;

    @ParameterizedTest(name = "confined={0}")
    @ValueSource(booleans = {false, true})
    void shouldAllocateNoMorePerExchangeThanAPersistentAlltoall(final boolean confined) {
        Tutti.runLocal(2, AlltoallChannelTest.OPTS, w -> {
            final long[] s = new long[2 * 8];
            final long[] r = new long[2 * 8];
            final Buf bs = Buf.of(s);
            final Buf br = Buf.of(r);
            try (PersistentRequest persistent = w.alltoallInit(bs, br);
                AlltoallChannel ch = AlltoallChannel.create(w, "alloc", Datatype.LONG, 8, 2,
                    confined ? ChannelQos.bestEffort().confined() : ChannelQos.bestEffort())) {
                final Runnable channel = () -> {
                    ch.submit(ch.takeSend());
                    ch.release(ch.takeReceive());
                };
                final double[] perCall = new double[2];
                final Runnable[] calls = {() -> {
                    persistent.start();
                    persistent.waitFor();
                }, channel};
                for (int c = 0; c < 2; c++) {
                    perCall[c] = AllocationProbe.leastPerCall(calls[c], CALLS);
                }
                assertTrue(perCall[1] <= perCall[0] + SLACK_BYTES, "rank " + w.rank() + ": a channel exchange "
                    + "allocated " + perCall[1] + " bytes, a start and wait of a persistent alltoall " + perCall[0]);
            }
        });
    }
}
