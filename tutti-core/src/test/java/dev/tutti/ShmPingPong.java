package dev.tutti;

import java.util.Locale;

/**
 * Measurement, not a test: a 2-rank ping-pong over shm inside one JVM (each rank with its own mapping of the job file, see
 * {@link ShmJob}), printing one-way latency (half the round trip) and bandwidth per size. Run with the test
 * classpath: {@code java -cp target/classes:target/test-classes dev.tutti.ShmPingPong}.
 */
public final class ShmPingPong {
    private ShmPingPong() {
    }

    /**
     * Runs the measurement.
     *
     * @param args unused (settings come from the tutti.shm.* properties)
     */
    public static void main(final String[] args) {
        final int[] sizes = {4, 1024, 4, 1024, 32 * 1024, 64 * 1024, 1 << 20, 4 << 20, 16 << 20};
        ShmJob.run(2, (world, shm) -> {
            final int peer = 1 - world.rank();
            for (final int size : sizes) {
                final byte[] buf = new byte[size];
                final int iters = size <= 65536 ? 20_000 : size <= (1 << 20) ? 1_000 : size <= (16 << 20) ? 40 : 4;
                final int warm = Math.max(2, iters / 10);
                long t0 = 0;
                for (int i = 0; i < warm + iters; i++) {
                    if (i == warm) {
                        t0 = System.nanoTime();
                    }
                    if (0 == world.rank()) {
                        world.send(Buf.of(buf), peer, 0);
                        world.recv(Buf.of(buf), peer, 0);
                    } else {
                        world.recv(Buf.of(buf), peer, 0);
                        world.send(Buf.of(buf), peer, 0);
                    }
                }
                final double oneWayUs = (System.nanoTime() - t0) / 1e3 / iters / 2;
                if (0 == world.rank()) {
                    System.out.printf(Locale.ROOT, "bytes=%10d  one-way=%10.2f us  bandwidth=%8.1f MB/s%n", size,
                        oneWayUs, size / oneWayUs);
                }
            }
        });
    }
}
