package dev.tutti.cli.testranks;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Tutti;

/**
 * Every rank receives from its right neighbour before it sends to it: a cycle of receives that never ends (with
 * {@code wildcard} as the first argument, every receive takes any source). Run with {@code --check}, the checker
 * reports the deadlock; without it, the job hangs until its timeout. With {@code sendsend}, every rank sends to its
 * right neighbour before it receives from its left one, which works while small sends are buffered and deadlocks
 * under {@code --check=strict}; with {@code ordered}, its correct twin, rank 0 sends first and every other rank
 * receives first.
 */
public final class DeadlockRank {
    private DeadlockRank() {
    }

    public static void main(final String[] args) {
        try (Tutti tutti = Tutti.init()) {
            final Communicator w = tutti.world();
            final int right = (w.rank() + 1) % w.size();
            final String mode = args.length > 0 ? args[0] : "";
            if ("sendsend".equals(mode) || "ordered".equals(mode)) {
                final int left = (w.rank() + w.size() - 1) % w.size();
                final int[] got = new int[1];
                if ("sendsend".equals(mode) || 0 == w.rank()) {
                    w.send(Buf.of(new int[] {w.rank()}), right, 7);
                    w.recv(Buf.of(got), left, 7);
                } else {
                    w.recv(Buf.of(got), left, 7);
                    w.send(Buf.of(new int[] {w.rank()}), right, 7);
                }
                System.out.println("rank " + w.rank() + " got " + got[0]);
                return;
            }
            final int source = args.length > 0 && "wildcard".equals(args[0]) ? Communicator.ANY_SOURCE : right;
            w.recv(Buf.of(new int[1]), source, 7);
            w.send(Buf.of(new int[] {w.rank()}), right, 7);
        }
    }
}
