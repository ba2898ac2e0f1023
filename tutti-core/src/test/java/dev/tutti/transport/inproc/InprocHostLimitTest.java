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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Between threads of one JVM the on-host region is on by default, crowded (no chunk area unless forced) when the JVM's
 * ranks outnumber the machine's cores; a call's bytes lent to its peers are reached by name until the loan ends.
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
    void shouldBeCrowdedOnlyWithMoreRanksThanCores() {
        final int cpus = CpuBinding.unboundCpus();
        assertEquals(DirectMemory.HOST_LIMIT, transportOf(1).defaultHostLimit());
        assertEquals(DirectMemory.HOST_LIMIT, transportOf(cpus + 1).defaultHostLimit());
        assertFalse(transportOf(1).crowded());
        assertFalse(transportOf(cpus).crowded());
        assertTrue(transportOf(cpus + 1).crowded());
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
    void shouldGiveThreadsARegionByDefaultWhetherOrNotTheyHaveTheCores() {
        for (final int n : new int[] {2, CpuBinding.unboundCpus() + 1}) {
            Tutti.runLocal(n, Tutti.Options.defaults().timeout(Duration.ofSeconds(30)), w -> {
                w.barrier();
                final String region = regionOf(w);
                assertTrue(region.contains("HostRegion"), region);
            });
        }
    }

    private static String regionOf(final Communicator w) {
        return String.valueOf(Worlds.impl(w).collComm().hostState());
    }
}
