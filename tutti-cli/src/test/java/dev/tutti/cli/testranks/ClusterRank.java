package dev.tutti.cli.testranks;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Op;
import dev.tutti.Tutti;
import dev.tutti.runtime.LaunchInfo;

import java.util.Arrays;

/**
 * A rank program for jobs that span hosts ({@code NamespaceClusterTest}). Before joining it prints
 * {@code rank R pid P rendezvous ADDR mark M} (its process id, the rendezvous it was given and the variable
 * {@code IT_MARK}, forwarded with {@code -x}). Then, by its first argument:
 * <ul>
 *   <li>{@code check}: allreduce, bcast and reduce (to and from the last rank, which leads no host) and allgather,
 *       at 8 B and 64 KiB, checked against their closed forms (across hosts these run node-aware: within each
 *       host, then among the hosts' leaders), and splitType(SHARED), which must give this rank's host (two
 *       consecutive ranks per host); prints {@code cluster OK on N ranks} at rank 0, throws on a wrong value;</li>
 *   <li>{@code hold}: a barrier, then prints {@code holding}, then waits in a receive that never completes (the test
 *       kills a rank: the others must fail).</li>
 * </ul>
 * A second argument {@code delay=R:MS} makes rank R wait MS ms before joining (so that the others wait at the
 * rendezvous and their listeners are open).
 */
public final class ClusterRank {
    private ClusterRank() {
    }

    public static void main(final String[] args) throws InterruptedException {
        final String rankVar = System.getenv(LaunchInfo.RANK_ENV);
        System.out.println("rank " + rankVar + " pid " + ProcessHandle.current().pid() + " rendezvous "
            + System.getenv(LaunchInfo.RENDEZVOUS_ENV) + " mark " + System.getenv("IT_MARK"));
        if (args.length > 1 && args[1].startsWith("delay=")) {
            final String[] rd = args[1].substring("delay=".length()).split(":");
            if (rd[0].equals(rankVar)) {
                Thread.sleep(Long.parseLong(rd[1]));
            }
        }
        try (Tutti tutti = Tutti.init()) {
            final Communicator w = tutti.world();
            if ("hold".equals(args[0])) {
                w.barrier();
                System.out.println("holding");
                w.recv(Buf.of(new int[1]), (w.rank() + 1) % w.size(), 99);
                throw new IllegalStateException("a receive nobody sends to completed");
            }
            check(w);
        }
    }

    private static void check(final Communicator w) {
        final int me = w.rank();
        final int p = w.size();
        for (final int n : new int[] {1, 8192}) {
            final long[] x = new long[n];
            Arrays.fill(x, me + 1);
            final long[] sum = new long[n];
            w.allreduce(Buf.of(x), Buf.of(sum), Op.SUM);
            if (sum[0] != (long) p * (p + 1) / 2 || sum[n - 1] != sum[0]) {
                throw new IllegalStateException("allreduce n=" + n + ": " + sum[0] + " at rank " + me);
            }
            final long[] b = new long[n];
            if (p - 1 == me) {
                for (int i = 0; i < n; i++) {
                    b[i] = 31L * i + 7;
                }
            }
            w.bcast(Buf.of(b), p - 1);
            if (b[n - 1] != 31L * (n - 1) + 7) {
                throw new IllegalStateException("bcast n=" + n + ": " + b[n - 1] + " at rank " + me);
            }
            final long[] red = new long[n];
            w.reduce(Buf.of(x), Buf.of(red), Op.SUM, p - 1);
            if (p - 1 == me && (red[0] != sum[0] || red[n - 1] != sum[0])) {
                throw new IllegalStateException("reduce n=" + n + ": " + red[0] + " at rank " + me);
            }
            final long[] all = new long[p * n];
            w.allgather(Buf.of(x), Buf.of(all));
            for (int r = 0; r < p; r++) {
                if (all[r * n] != r + 1 || all[r * n + n - 1] != r + 1) {
                    throw new IllegalStateException("allgather n=" + n + ": block " + r + " holds " + all[r * n]
                        + " at rank " + me);
                }
            }
        }
        // The namespace hosts share one host name but not memory: splitType(SHARED) must tell them apart. The
        // test places two consecutive ranks on each host.
        final Communicator node = w.splitType(Communicator.SplitType.SHARED, 0);
        final int[] members = node.group().worldRanks();
        if (2 != members.length || members[0] != me - me % 2 || members[1] != me - me % 2 + 1) {
            throw new IllegalStateException("splitType(SHARED) at rank " + me + " gave world ranks "
                + Arrays.toString(members) + ", expected this rank's host: " + (me - me % 2) + " and "
                + (me - me % 2 + 1));
        }
        node.free();
        w.barrier();
        if (0 == me) {
            System.out.println("cluster OK on " + p + " ranks");
        }
    }
}
