package dev.tutti.coll;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Op;
import dev.tutti.Tutti;
import dev.tutti.testkit.Worlds;

import dev.tutti.coll.HostMap;

import java.util.Arrays;

/**
 * A rank program for {@link HierarchicalLaunchTest}: joins the job through {@link Tutti#init()}, prints the host
 * map its world communicator learned, runs bcast, reduce, allreduce, allgather and barrier (selected by that map)
 * from every root and at a small and a large count, and exits non-zero (by throwing) on a wrong result; then prints
 * the world ranks of its {@code splitType(SHARED)} communicator and whether the world and that communicator reach their
 * ranks over a network.
 */
public final class HierarchicalMain {
    private HierarchicalMain() {
    }

    /**
     * Runs the rank.
     *
     * @param args unused
     */
    public static void main(final String[] args) {
        try (Tutti tutti = Tutti.init()) {
            final Communicator w = tutti.world();
            final int me = w.rank();
            final int p = w.size();
            final HostMap hosts = Worlds.impl(w).collComm().hosts();
            for (final int n : new int[] {3, 70_000}) {
                final long sum = (long) p * (p - 1) / 2;
                for (int root = 0; root < p; root++) {
                    final long[] b = new long[n];
                    if (me == root) {
                        Arrays.fill(b, 100 + root);
                    }
                    w.bcast(Buf.of(b), root);
                    check(b, 100 + root, "bcast root " + root);
                    final long[] in = new long[n];
                    Arrays.fill(in, me);
                    final long[] red = new long[n];
                    w.reduce(Buf.of(in), Buf.of(red), Op.SUM, root);
                    if (me == root) {
                        check(red, sum, "reduce root " + root);
                    }
                }
                final long[] in = new long[n];
                Arrays.fill(in, me);
                final long[] all = new long[n];
                w.allreduce(Buf.of(in), Buf.of(all), Op.SUM);
                check(all, sum, "allreduce");
                w.allreduce(Buf.IN_PLACE, Buf.of(in), Op.MAX);
                check(in, p - 1, "allreduce in place");
                final long[] mine = new long[n / p + 1];
                Arrays.fill(mine, me);
                final long[] gathered = new long[p * mine.length];
                w.allgather(Buf.of(mine), Buf.of(gathered));
                for (int r = 0; r < p; r++) {
                    check(Arrays.copyOfRange(gathered, r * mine.length, (r + 1) * mine.length), r, "allgather");
                }
                w.barrier();
            }
            final Communicator node = w.splitType(Communicator.SplitType.SHARED, 0);
            final String shared = Arrays.toString(node.group().worldRanks());
            final String network = Worlds.impl(w).collComm().network() + "/" + Worlds.impl(node).collComm().network();
            node.free();
            System.out.println("rank " + me + " of " + p + " ok hosts=" + (null == hosts ? "none" : hosts)
                + " shared=" + shared + " network=" + network);
        }
    }

    private static void check(final long[] a, final long expected, final String what) {
        for (final long x : a) {
            if (x != expected) {
                throw new AssertionError(what + ": got " + x + ", expected " + expected);
            }
        }
    }
}
