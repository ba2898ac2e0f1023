import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Datatype;
import dev.tutti.Tutti;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The time of an alltoall of BYTES a pair, block by block: 50 calls a block, BLOCKS blocks, a barrier before each;
 * rank 0 prints µs per call of every block on one line. The buffers are heap arrays, or with OFFSET native memory
 * starting OFFSET bytes past a page boundary. Over tcp with 2 ranks this is a bidirectional exchange of a large
 * message on one connection, whose time moves between two levels for seconds at a time: the kernel's copy of the
 * sent bytes is several times slower at one (bench/RESULTS.md, "tcp"), whatever the source's offset.
 *
 * <pre>
 * javac -cp tutti-cli/target/tutti.jar -d /tmp/xb bench/repro/TcpExchangeBlocks.java
 * bin/tutti run -n 2 --transport tcp -cp /tmp/xb TcpExchangeBlocks 1048576 100
 * bin/tutti run -n 2 --transport tcp -cp /tmp/xb TcpExchangeBlocks 1048576 400 4088
 * </pre>
 */
public final class TcpExchangeBlocks {
    private static final int CALLS = 50;
    private static final long PAGE = 4096;

    private TcpExchangeBlocks() {
    }

    public static void main(final String[] args) {
        final int bytes = Integer.parseInt(args[0]);
        final int blocks = Integer.parseInt(args[1]);
        final long offset = args.length > 2 ? Long.parseLong(args[2]) : -1;
        try (Tutti t = Tutti.init(); Arena arena = Arena.ofShared()) {
            final Communicator w = t.world();
            final Buf send;
            final Buf recv;
            if (offset < 0) {
                final int n = bytes / Float.BYTES;
                send = Buf.of(new float[n * w.size()]);
                recv = Buf.of(new float[n * w.size()]);
            } else {
                final long len = (long) bytes * w.size();
                final MemorySegment s = arena.allocate(len + 2 * PAGE, PAGE).asSlice(offset, len);
                final MemorySegment r = arena.allocate(len + 2 * PAGE, PAGE).asSlice(offset, len);
                send = Buf.of(s, Datatype.BYTE);
                recv = Buf.of(r, Datatype.BYTE);
            }
            final StringBuilder line = new StringBuilder();
            for (int b = 0; b < blocks; b++) {
                w.barrier();
                final long t0 = System.nanoTime();
                for (int i = 0; i < CALLS; i++) {
                    w.alltoall(send, recv);
                }
                line.append((System.nanoTime() - t0) / CALLS / 1000).append(' ');
            }
            if (0 == w.rank()) {
                System.out.println(line.toString().trim());
            }
        }
    }
}
