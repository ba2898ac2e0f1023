package dev.tutti.channel;

import dev.tutti.Communicator;
import dev.tutti.Datatype;
import dev.tutti.Intercommunicator;
import dev.tutti.Tutti;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Bipartite channels over an intercommunicator of groups A (the first {@code a} world ranks) and B: every rank
 * sends block j to rank j of the other group, with a different block size per direction, one direction possibly
 * empty; every element of every exchange is checked.
 */
@Timeout(60)
class BipartiteChannelTest {

    static Intercommunicator split(final Communicator w, final int a) {
        final boolean inA = w.rank() < a;
        final Communicator half = w.split(inA ? 0 : 1, w.rank());
        return half.createIntercomm(0, w, inA ? a : 0, 17);
    }

    /** Element i of the block rank src of group g sends to rank dst of the other group in exchange k. */
    static long value(final long k, final int g, final int src, final int dst, final int i) {
        return ChannelData.value(k, src, dst, i) * 3 + g;
    }

    @ParameterizedTest(name = "{0}x{1} A->B={2} B->A={3} depth={4}")
    @CsvSource({
        "1, 1, 5, 3, 1",
        "1, 5, 7, 2, 2",
        "3, 4, 4, 9, 3",
        "3, 4, 6, 0, 2",
        "2, 3, 0, 5, 4",
        "3, 4, -1, -1, 4"})
    void shouldExchangeBothWaysBetweenTheGroups(final int a, final int b, final int aToB, final int bToA,
        final int depth) {
        final Random rnd = new Random(a * 31L + b);
        final int ab = aToB < 0 ? 1 + rnd.nextInt(200) : aToB; // -1: a random size
        final int ba = bToA < 0 ? 1 + rnd.nextInt(200) : bToA;
        final int exchanges = 80;
        Tutti.runLocal(a + b, AlltoallChannelTest.OPTS, w -> {
            final Intercommunicator inter = split(w, a);
            final int g = w.rank() < a ? 0 : 1;
            final int send = 0 == g ? ab : ba;
            final int recv = 0 == g ? ba : ab;
            final int me = inter.rank();
            try (AlltoallChannel ch = AlltoallChannel.bipartite(inter, "transpose", Datatype.LONG, send, recv, depth,
                ChannelQos.bestEffort())) {
                assertTrue(ch.isBipartite());
                final int ahead = depth - 1;
                for (int k = 0; k < exchanges + ahead; k++) {
                    if (k < exchanges) {
                        final ChannelBuffer out = ch.takeSend();
                        assertEquals(inter.remoteSize(), out.ranks());
                        final long[] x = out.longs();
                        for (int dst = 0; dst < out.ranks(); dst++) {
                            for (int i = 0; i < send; i++) {
                                x[dst * send + i] = value(k, g, me, dst, i);
                            }
                        }
                        ch.submit(out);
                    }
                    if (k >= ahead) {
                        final long n = k - ahead;
                        final ChannelBuffer in = ch.takeReceive();
                        assertEquals(n, in.exchange());
                        final long[] x = in.longs();
                        assertEquals(inter.remoteSize() * recv, x.length);
                        for (int src = 0; src < in.ranks(); src++) {
                            for (int i = 0; i < recv; i++) {
                                if (x[src * recv + i] != value(n, 1 - g, src, me, i)) {
                                    assertEquals(value(n, 1 - g, src, me, i), x[src * recv + i],
                                        "exchange " + n + " from remote rank " + src + " element " + i);
                                }
                            }
                        }
                        ch.release(in);
                    }
                }
                final ChannelStats s = ch.stats();
                assertEquals(exchanges, s.exchanges());
                assertEquals((long) exchanges * inter.remoteSize() * send * 8, s.bytesSent());
                assertEquals((long) exchanges * inter.remoteSize() * recv * 8, s.bytesReceived());
            }
        });
    }

    /**
     * A time-driven bipartite channel, A (2 ranks) sending 4 longs to each rank of B (3 ranks) and B sending
     * nothing back: rank 0 of A sleeps four periods once, so its exchanges start on the clock with zeros, which
     * every rank of B sees as stale blocks (the freshness flags go both ways over the intercommunicator); every
     * fresh block is whole and from a step no earlier than the one before it.
     */
    @Test
    void shouldStartTimeDrivenBipartiteExchangesOnTheClock() {
        final int block = 4;
        final int steps = 10;
        final Duration period = Duration.ofMillis(20);
        Tutti.runLocal(5, AlltoallChannelTest.OPTS, w -> {
            final Intercommunicator inter = split(w, 2);
            final boolean inA = w.rank() < 2;
            final int me = inter.rank();
            final AlltoallChannel ch = AlltoallChannel.bipartite(inter, "tick", Datatype.LONG, inA ? block : 0,
                inA ? 0 : block, 2, ChannelQos.timeDriven(period, period));
            final int[] last = new int[inter.remoteSize()];
            Arrays.fill(last, -1);
            int stale = 0;
            for (int k = 0; k < steps; k++) {
                final ChannelBuffer out = ch.takeSend();
                final long[] x = out.longs();
                for (int i = 0; i < x.length; i++) {
                    x[i] = value(k, 0, me, i / block, i % block) + 1;
                }
                if (inA && 0 == me && 3 == k) {
                    Thread.sleep(4 * period.toMillis());
                }
                ch.submit(out);
                final ChannelBuffer in = ch.takeReceive();
                final long[] y = in.longs();
                for (int src = 0; src < in.ranks() && !inA; src++) {
                    if (!in.fresh(src)) {
                        stale += 0 == src ? 1 : 0;
                        for (int i = 0; i < block; i++) {
                            assertEquals(0, y[src * block + i], "stale block of A's rank " + src);
                        }
                        continue;
                    }
                    int sent = last[src] + 1;
                    while (sent <= k && value(sent, 0, src, me, 0) + 1 != y[src * block]) {
                        sent++;
                    }
                    assertTrue(sent <= k, "exchange " + k + ": the block of A's rank " + src + " is no later step");
                    last[src] = sent;
                    for (int i = 0; i < block; i++) {
                        assertEquals(value(sent, 0, src, me, i) + 1, y[src * block + i], "block of A's " + src);
                    }
                }
                ch.release(in);
            }
            w.barrier();
            ch.close(Duration.ofMillis(200));
            assertTrue(inA || stale >= 1, "B's rank " + me + " never saw A's slow rank stale");
        });
    }
}
