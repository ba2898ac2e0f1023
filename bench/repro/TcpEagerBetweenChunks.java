import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Request;
import dev.tutti.Tutti;

/**
 * Eager messages that arrive between the chunks of a rendezvous message on one tcp connection: rank 0 sends one
 * 32 MiB message and, while it streams, 200 eager 60 KiB ones to rank 1, 20 times; rank 1 prints the time of the
 * last 10. Count the read system calls with {@code strace -f -c -e trace=read}: each eager payload should be read in
 * a few calls, not 48 bytes at a time.
 *
 * <pre>
 * mkdir -p /tmp/repro &amp;&amp; javac -cp tutti-cli/target/tutti.jar -d /tmp/repro bench/repro/TcpEagerBetweenChunks.java
 * strace -f -c -e trace=read java -jar tutti-cli/target/tutti.jar run -n 2 --transport tcp -cp /tmp/repro \
 *     TcpEagerBetweenChunks
 * </pre>
 */
public final class TcpEagerBetweenChunks {
    private TcpEagerBetweenChunks() {
    }

    public static void main(final String[] args) {
        try (Tutti t = Tutti.init()) {
            final Communicator w = t.world();
            final byte[] big = new byte[32 << 20];
            final byte[] small = new byte[60 << 10];
            for (int rep = 0; rep < 20; rep++) {
                w.barrier();
                final long t0 = System.nanoTime();
                if (0 == w.rank()) {
                    final Request r = w.isend(Buf.of(big), 1, 1);
                    for (int i = 0; i < 200; i++) {
                        w.send(Buf.of(small), 1, 2);
                    }
                    r.waitFor();
                } else {
                    final Request r = w.irecv(Buf.of(big), 0, 1);
                    for (int i = 0; i < 200; i++) {
                        w.recv(Buf.of(small), 0, 2);
                    }
                    r.waitFor();
                }
                if (1 == w.rank() && rep >= 10) {
                    System.out.printf("rep %d: %.0f us%n", rep, (System.nanoTime() - t0) / 1e3);
                }
            }
        }
    }
}
