package dev.tutti.cli.testranks;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Tutti;

/**
 * Every rank receives from its right neighbour before it sends to it: a cycle of receives that never ends (with
 * {@code wildcard} as the first argument, every receive takes any source). Run with {@code --check}, the checker
 * reports the deadlock; without it, the job hangs until its timeout.
 */
public final class DeadlockRank {
    private DeadlockRank() {
    }

    public static void main(final String[] args) {
        try (Tutti tutti = Tutti.init()) {
            final Communicator w = tutti.world();
            final int right = (w.rank() + 1) % w.size();
            final int source = args.length > 0 && "wildcard".equals(args[0]) ? Communicator.ANY_SOURCE : right;
            w.recv(Buf.of(new int[1]), source, 7);
            w.send(Buf.of(new int[] {w.rank()}), right, 7);
        }
    }
}
