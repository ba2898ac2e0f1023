package dev.tutti.examples;

import dev.tutti.Communicator;
import dev.tutti.Datatype;
import dev.tutti.Intercommunicator;
import dev.tutti.Tutti;
import dev.tutti.channel.AlltoallChannel;
import dev.tutti.channel.ChannelBuffer;
import dev.tutti.channel.ChannelQos;

/**
 * A producer group streams a distributed matrix to a consumer group through a bipartite alltoall channel, one
 * frame per step: producer {@code i} holds rows of the frame and sends consumer {@code j} its columns, so the
 * consumers get the frame transposed. The channel runs one way (the consumers' send blocks are empty: they still
 * submit an empty buffer to start each exchange), and the ring of depth 3 lets producers run up to three frames
 * ahead of slow consumers, no further.
 *
 * <pre>
 * bin/tutti run -n 5 -cp tutti-examples/target/classes dev.tutti.examples.ChannelPipeline [rowsPerProducer frames]
 * </pre>
 */
public final class ChannelPipeline {
    private ChannelPipeline() {
    }

    static long value(final int frame, final int row, final int col) {
        return frame * 1_000_000_000L + row * 10_000L + col;
    }

    /**
     * Runs the example.
     *
     * @param args optional: rows per producer (and columns per consumer), default 32; frames, default 300
     */
    public static void main(final String[] args) {
        final int rows = args.length > 0 ? Integer.parseInt(args[0]) : 32;
        final int frames = args.length > 1 ? Integer.parseInt(args[1]) : 300;
        try (Tutti tutti = Tutti.init()) {
            final Communicator world = tutti.world();
            if (world.size() < 2) {
                throw new IllegalStateException("ChannelPipeline needs at least 2 ranks, got " + world.size());
            }
            final int producers = (world.size() + 1) / 2;
            final boolean producer = world.rank() < producers;
            final Communicator group = world.split(producer ? 0 : 1, world.rank());
            final Intercommunicator inter = group.createIntercomm(0, world, producer ? producers : 0, 7);
            final int block = rows * rows;              // producer i -> consumer j: rows x rows
            long checked = 0;
            try (AlltoallChannel ch = AlltoallChannel.bipartite(inter, "frames", Datatype.LONG,
                producer ? block : 0, producer ? 0 : block, 3, ChannelQos.bestEffort())) {
                for (int f = 0; f < frames; f++) {
                    final ChannelBuffer out = ch.takeSend();
                    if (producer) {
                        final long[] x = out.longs();
                        for (int j = 0; j < inter.remoteSize(); j++) {
                            for (int c = 0; c < rows; c++) {
                                for (int r = 0; r < rows; r++) {
                                    x[j * block + c * rows + r] = value(f, inter.rank() * rows + r, j * rows + c);
                                }
                            }
                        }
                    }
                    ch.submit(out);
                    final ChannelBuffer in = ch.takeReceive();
                    if (!producer) {
                        final long[] y = in.longs();
                        for (int i = 0; i < inter.remoteSize(); i++) {
                            for (int c = 0; c < rows; c++) {
                                for (int r = 0; r < rows; r++) {
                                    final long want = value(f, i * rows + r, inter.rank() * rows + c);
                                    if (y[i * block + c * rows + r] != want) {
                                        throw new IllegalStateException("frame " + f + ": got "
                                            + y[i * block + c * rows + r] + ", expected " + want);
                                    }
                                    checked++;
                                }
                            }
                        }
                    }
                    ch.release(in);
                }
                if (!producer) {
                    System.out.println("consumer " + inter.rank() + ": " + frames + " frames, " + checked
                        + " elements checked; " + ch.stats());
                }
            }
        }
    }
}
