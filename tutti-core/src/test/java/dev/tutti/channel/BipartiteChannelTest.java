package dev.tutti.channel;

import dev.tutti.Communicator;
import dev.tutti.Datatype;
import dev.tutti.Intercommunicator;
import dev.tutti.Tutti;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

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
}
