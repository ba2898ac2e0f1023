package dev.tutti.transport.inproc;

import dev.tutti.Communicator;
import dev.tutti.Tutti;
import dev.tutti.TuttiException;
import dev.tutti.job.TransportWiring;
import dev.tutti.runtime.CpuBinding;
import dev.tutti.testkit.Worlds;
import dev.tutti.transport.DirectMemory;
import dev.tutti.transport.InboundSink;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Between threads of one JVM the on-host region is on by default, however many the ranks; with more ranks than cores
 * (crowded) a bcast or scatter takes the message layer, the other operations the region. A call's bytes lent to its
 * peers are reached by name until the loan ends.
 */
@Timeout(60)
class InprocHostLimitTest {

    private static InprocTransport transportOf(final int ranks) {
        final InboundSink[] sinks = new InboundSink[ranks + 1]; // one world rank elsewhere: not counted
        for (int r = 0; r < ranks; r++) {
            sinks[r] = TransportWiring.newEngine(r, ranks + 1);
        }
        return new InprocTransport(new InprocFabric(sinks), 1024);
    }

    @Test
    void shouldTakeTheRegionAtEveryRankCountAndBeCrowdedPastTheCores() {
        final int cpus = CpuBinding.unboundCpus();
        for (final int ranks : new int[] {1, cpus, cpus + 1}) {
            assertEquals(DirectMemory.HOST_LIMIT, transportOf(ranks).defaultHostLimit(), "ranks=" + ranks);
            assertEquals(ranks > cpus, transportOf(ranks).crowded(), "ranks=" + ranks);
        }
    }

    /**
     * More ranks than cores: every call is right; barrier, reduce, allreduce, gather, allgather and alltoall go
     * through the region (its call count grows by one for each), bcast and scatter do not.
     */
    @Test
    void shouldSendBcastAndScatterThroughMessagesWhenCrowded() {
        final int p = CpuBinding.unboundCpus() + 1;
        Tutti.runLocal(p, Tutti.Options.defaults().timeout(Duration.ofSeconds(60)), w -> {
            w.barrier();
            final int me = w.rank();
            final String before = regionOf(w);
            assertTrue(before.contains("HostRegion"), before);
            final long calls = calls(w);
            final long taken = onHost(w);
            final int[] one = {me};
            final int[] all = new int[p];
            final int[] sum = new int[1];
            w.bcast(dev.tutti.Buf.of(one), 0);
            assertEquals(0, one[0], "bcast");
            final int[] piece = new int[1];
            w.scatter(dev.tutti.Buf.of(java.util.stream.IntStream.range(0, p).toArray()), dev.tutti.Buf.of(piece), 0);
            assertEquals(me, piece[0], "scatter");
            assertEquals(calls + 2, calls(w), "bcast and scatter are numbered in the region: " + regionOf(w));
            assertEquals(taken, onHost(w), "bcast and scatter took messages: " + regionOf(w));
            final long onHost = onHost(w);
            w.allreduce(dev.tutti.Buf.of(new int[] {me}), dev.tutti.Buf.of(sum), dev.tutti.Op.SUM);
            assertEquals(p * (p - 1) / 2, sum[0], "allreduce");
            w.allgather(dev.tutti.Buf.of(new int[] {me}), dev.tutti.Buf.of(all));
            assertEquals(java.util.Arrays.toString(java.util.stream.IntStream.range(0, p).toArray()),
                java.util.Arrays.toString(all), "allgather");
            w.barrier();
            assertEquals(onHost + 3, onHost(w), "allreduce, allgather and barrier through the region: "
                + regionOf(w));
        });
    }

    /** @return the calls that went through the communicator's region */
    private static long onHost(final Communicator w) {
        final java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+) through the region").matcher(
            regionOf(w));
        assertTrue(m.find(), regionOf(w));
        return Long.parseLong(m.group(1));
    }

    /** @return the calls the communicator's region numbered, whichever road they took */
    private static long calls(final Communicator w) {
        final java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+) calls").matcher(regionOf(w));
        assertTrue(m.find(), regionOf(w));
        return Long.parseLong(m.group(1));
    }

    @Test
    void shouldReachALoanUntilItEnds() {
        final InprocTransport t = transportOf(2);
        final MemorySegment bytes = MemorySegment.ofArray(new int[] {7, 8, 9});
        final long name = t.lend(bytes);
        assertTrue(name >= 0);
        assertEquals(8, t.resolveDirect(1, name, 12).getAtIndex(ValueLayout.JAVA_INT, 1));
        t.endLoan(name);
        assertThrows(TuttiException.class, () -> t.resolveDirect(1, name, 12));
    }

    @Test
    void shouldGiveTwoThreadsARegionByDefault() {
        Tutti.runLocal(2, Tutti.Options.defaults().timeout(Duration.ofSeconds(30)), w -> {
            w.barrier();
            final String region = regionOf(w);
            assertTrue(region.contains("HostRegion"), region);
        });
    }

    private static String regionOf(final Communicator w) {
        return String.valueOf(Worlds.impl(w).collComm().hostState());
    }
}
