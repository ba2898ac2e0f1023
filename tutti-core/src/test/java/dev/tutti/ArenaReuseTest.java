package dev.tutti;

import dev.tutti.testkit.ShmJob;

import dev.tutti.channel.AlltoallChannel;
import dev.tutti.channel.ChannelBuffer;
import dev.tutti.channel.ChannelQos;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Everything that lives in a rank's shared arena, made and given back size after size as a program does: a channel's
 * window (landing zones, sequence and assignment lines), persistent collectives' slots, which stay with the
 * communicator, and the previous size's window freed under them; then, at 2, 3 and 5 ranks, sizes that take every
 * path (slots, the ring, the window, the channel's arena send buffers, a lane declined for want of room), each with
 * a bipartite channel between the job's halves as well. Every byte of every exchange is checked. The arena's
 * allocator once handed a new slot block out over live ones (a first-fit remainder of the wrong length), and a
 * channel's stores into its landing zones then wrote over a persistent allreduce's acknowledgement: the allreduce
 * hung on 4 ranks, or read another call's bytes.
 */
@Timeout(120)
class ArenaReuseTest {
    private static final int[] SIZES = {8, 24, 64, 128, 200, 512, 1024, 64, 128, 2048};
    /** Sizes across every path: slots, the ring, the window, the channel's arena send buffers, a declined lane. */
    private static final int[] MIXED = {8, 4096, 24, 65536, 64, 16384, 128, 262144, 200, 131072, 520000, 64};

    @Test
    void shouldKeepEveryByteWhileWindowsAndSlotsComeAndGoOverShm() {
        ShmJob.run(4, (w, shm) -> {
            for (final int bytes : SIZES) {
                sizeRound(w, bytes, 150);
            }
        });
    }

    @ParameterizedTest(name = "p={0}")
    @ValueSource(ints = {2, 3, 5})
    void shouldKeepEveryByteAcrossSizesOfEveryPathOverShm(final int p) {
        ShmJob.run(p, (w, shm) -> {
            for (final int bytes : MIXED) {
                sizeRound(w, bytes, 30);
                bipartiteRound(w, bytes, 30);
            }
        });
    }

    private static void sizeRound(final Communicator w, final int bytes, final int iterations) {
        final int p = w.size();
        final int me = w.rank();
        final int longs = Math.max(1, bytes / Long.BYTES);
        final long[] send = new long[p * longs];
        final long[] recv = new long[p * longs];
        final long[] mine = new long[longs];
        final long[] sum = new long[longs];
        try (PersistentRequest a2a = w.alltoallInit(Buf.of(send), Buf.of(recv));
             AlltoallChannel ch = AlltoallChannel.create(w, "reuse" + bytes, Datatype.BYTE, bytes, 1,
                 ChannelQos.bestEffort().confined());
             PersistentRequest red = w.allreduceInit(Buf.of(mine), Buf.of(sum), Op.SUM)) {
            for (int it = 0; it < iterations; it++) {
                for (int d = 0; d < p; d++) {
                    for (int e = 0; e < longs; e++) {
                        send[d * longs + e] = word(bytes, it, me, d, e);
                    }
                }
                a2a.start();
                a2a.waitFor();
                for (int s = 0; s < p; s++) {
                    for (int e = 0; e < longs; e++) {
                        same(word(bytes, it, s, me, e), recv[s * longs + e], "alltoallInit", bytes, it, s, e);
                    }
                }

                final ChannelBuffer out = ch.takeSend();
                final byte[] o = out.bytes();
                for (int d = 0; d < p; d++) {
                    for (int e = 0; e < bytes; e++) {
                        o[d * bytes + e] = (byte) word(bytes, it, me, d, e);
                    }
                }
                ch.submit(out);
                final ChannelBuffer in = ch.takeReceive();
                final byte[] r = in.bytes();
                for (int s = 0; s < p; s++) {
                    for (int e = 0; e < bytes; e++) {
                        same((byte) word(bytes, it, s, me, e), r[s * bytes + e], "channel", bytes, it, s, e);
                    }
                }
                ch.release(in);

                for (int e = 0; e < longs; e++) {
                    mine[e] = word(bytes, it, me, 0, e);
                }
                red.start();
                red.waitFor();
                for (int e = 0; e < longs; e++) {
                    long want = 0;
                    for (int s = 0; s < p; s++) {
                        want += word(bytes, it, s, 0, e);
                    }
                    same(want, sum[e], "allreduceInit", bytes, it, -1, e);
                }
            }
        }
    }

    /**
     * A bipartite channel between the two halves of the job, over a new intercommunicator: the first half sends
     * blocks of {@code bytes}, the second half blocks half as large (none for the smallest size).
     */
    private static void bipartiteRound(final Communicator w, final int bytes, final int iterations) {
        final int first = (w.size() + 1) / 2;
        final boolean left = w.rank() < first;
        final Communicator half = w.split(left ? 0 : 1, w.rank());
        final Intercommunicator inter = half.createIntercomm(0, w, left ? first : 0, 9);
        final int big = Math.max(1, bytes / Long.BYTES);
        final int mineBlock = left ? big : big / 2;
        final int theirBlock = left ? big / 2 : big;
        final int from0 = left ? first : 0; // the world rank of the remote group's rank 0
        try (AlltoallChannel ch = AlltoallChannel.bipartite(inter, "across" + bytes, Datatype.LONG, mineBlock,
            theirBlock, 2, ChannelQos.bestEffort())) {
            for (int it = 0; it < iterations; it++) {
                final ChannelBuffer out = ch.takeSend();
                final long[] o = out.longs();
                for (int d = 0; d < inter.remoteSize(); d++) {
                    for (int e = 0; e < mineBlock; e++) {
                        o[d * mineBlock + e] = ~word(bytes, it, w.rank(), d, e);
                    }
                }
                ch.submit(out);
                final ChannelBuffer in = ch.takeReceive();
                final long[] r = in.longs();
                for (int s = 0; s < inter.remoteSize(); s++) {
                    for (int e = 0; e < theirBlock; e++) {
                        same(~word(bytes, it, from0 + s, inter.rank(), e), r[s * theirBlock + e], "bipartite channel",
                            bytes, it, from0 + s, e);
                    }
                }
                ch.release(in);
            }
        } finally {
            inter.free();
            half.free();
        }
    }

    private static void same(final long want, final long got, final String what, final int bytes, final int it,
        final int from, final int e) {
        if (want != got) {
            fail(what + " of " + bytes + " B, exchange " + it + (from >= 0 ? ", block from rank " + from : "")
                + ", element " + e + ": " + got + ", expected " + want);
        }
    }

    private static long word(final int bytes, final int it, final int from, final int to, final int e) {
        return ((long) bytes * 1_000_003L + it) * 131L + from * 17L + to * 7L + e;
    }
}
