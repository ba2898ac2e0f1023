package dev.tutti.transport.tcp;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Tutti;

/**
 * A rank program for {@link TcpLaunchTest}: joins the job through {@link Tutti#init()} (the launch environment),
 * exchanges a small and a rendezvous-sized message around a ring, and exits non-zero (by throwing) on any error.
 */
public final class TcpInitMain {
    private TcpInitMain() {
    }

    /**
     * Runs the rank.
     *
     * @param args unused
     */
    public static void main(final String[] args) {
        try (Tutti tutti = Tutti.init()) {
            final Communicator world = tutti.world();
            final int r = world.rank();
            final int n = world.size();
            final int right = (r + 1) % n;
            final int left = (r + n - 1) % n;
            final int[] got = new int[1];
            world.sendrecv(Buf.of(new int[] {r}), right, 0, Buf.of(got), left, 0);
            if (got[0] != left) {
                throw new AssertionError("rank " + r + " got " + got[0] + " from its left, expected " + left);
            }
            final double[] big = new double[1 << 18];
            java.util.Arrays.fill(big, r + 0.5);
            final double[] in = new double[big.length];
            world.sendrecv(Buf.of(big), right, 1, Buf.of(in), left, 1);
            if (in[in.length - 1] != left + 0.5) {
                throw new AssertionError("rank " + r + " got " + in[in.length - 1] + " in the large message");
            }
            System.out.println("rank " + r + " of " + n + " ok");
        }
    }
}
