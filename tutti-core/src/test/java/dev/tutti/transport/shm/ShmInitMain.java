package dev.tutti.transport.shm;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.ErrorClass;
import dev.tutti.Op;
import dev.tutti.PersistentRequest;
import dev.tutti.Request;
import dev.tutti.Tutti;
import dev.tutti.TuttiException;
import dev.tutti.testkit.Worlds;

import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A rank program for {@link ShmLaunchTest}: joins the job through {@link Tutti#init()}, checks that its peers are
 * routed over shm, and then either exchanges small and large messages around a ring and runs an allreduce
 * ({@code ok}), or plays the peer-death scenario ({@code die}: rank 1 halts without closing, rank 0 must see its
 * receive fail naming rank 1). Exits non-zero (by throwing) on any error.
 */
public final class ShmInitMain {
    private ShmInitMain() {
    }

    /**
     * Runs {@code call} on rank 0 after rank 1 halted: it must fail naming rank 1, and what it says is printed after
     * {@code label}.
     */
    private static void expectPeerGone(final String label, final String what, final Runnable call) {
        try {
            call.run();
            throw new AssertionError("rank 0: the " + what + " with the dead rank 1 completed");
        } catch (final TuttiException e) {
            if (ErrorClass.PROC_FAILED != e.errorClass() || !e.getMessage().contains("rank 1")) {
                throw new AssertionError("rank 0: unexpected failure " + e, e);
            }
            System.out.println(label + e.getMessage());
        }
    }

    /**
     * Runs a persistent allreduce five times and checks that it takes {@code road} (its description passes
     * {@code taken}); then rank 1 halts, and rank 0's next start must fail naming rank 1 in a wait with a timeout.
     */
    private static void loseRank1During(final PersistentRequest p, final int r, final String road,
        final Predicate<String> taken) {
        for (int i = 0; i < 5; i++) {
            p.start();
            p.waitFor();
        }
        if (!taken.test(p.toString())) {
            throw new AssertionError("rank " + r + ": the allreduce does not go through " + road + ": " + p);
        }
        if (1 == r) {
            Runtime.getRuntime().halt(3);
        }
        p.start();
        expectPeerGone("rank 0 saw: ", "persistent allreduce", () -> p.waitFor(30, TimeUnit.SECONDS));
    }

    /**
     * In a job without on-host regions ({@code tutti.coll.hostLimit=0}, see the launching test), a persistent
     * allreduce whose messages go through shared-memory slots (agreed in its first start) runs a few
     * times; then rank 1 halts, and rank 0's next start must fail naming rank 1 instead of waiting on the slot.
     */
    private static void diePersistent(final Tutti tutti, final Communicator world) {
        final int r = world.rank();
        final long[] x = {r + 1};
        final long[] y = new long[1];
        final PersistentRequest p = world.allreduceInit(Buf.of(x), Buf.of(y), Op.SUM);
        loseRank1During(p, r, "slots", s -> s.matches(".*direct [1-9].*"));
        tutti.close();
    }

    /**
     * Blocking allreduces go through the world's on-host region (made at the first, by default over shm); then rank 1
     * halts, and rank 0's next allreduce must fail naming rank 1 instead of waiting on its flag.
     */
    private static void dieHost(final Tutti tutti, final Communicator world) {
        final int r = world.rank();
        final long[] y = new long[1];
        for (int i = 0; i < 5; i++) {
            world.allreduce(Buf.of(new long[] {r + 1}), Buf.of(y), Op.SUM);
        }
        final String region = String.valueOf(Worlds.impl(world).collComm().hostState());
        if (!region.contains("HostRegion")) {
            throw new AssertionError("rank " + r + ": the allreduce does not go through the on-host region: " + region);
        }
        if (1 == r) {
            Runtime.getRuntime().halt(3);
        }
        expectPeerGone("rank 0 saw: ", "allreduce", () -> world.allreduce(Buf.of(new long[] {r + 1}), Buf.of(y),
            Op.SUM));
        tutti.close();
    }

    /**
     * A persistent allreduce goes through the world's on-host region (made by a blocking allreduce first); then rank
     * 1 halts, and rank 0's next start must fail naming rank 1, in a wait with a timeout and in one without.
     */
    private static void dieHostPersistent(final Tutti tutti, final Communicator world) {
        final int r = world.rank();
        final long[] x = {r + 1};
        final long[] y = new long[1];
        world.allreduce(Buf.of(x), Buf.of(y), Op.SUM);
        final PersistentRequest p = world.allreduceInit(Buf.of(x), Buf.of(y), Op.SUM);
        final PersistentRequest q = world.bcastInit(Buf.of(y), 1);
        loseRank1During(p, r, "the on-host region", s -> s.contains("on-host region"));
        q.start();
        expectPeerGone("rank 0 then saw: ", "persistent bcast", q::waitFor);
        tutti.close();
    }

    /**
     * Runs the rank.
     *
     * @param args {@code ok}, {@code die}, {@code die-persistent}, {@code die-host} or {@code die-host-persistent}
     */
    public static void main(final String[] args) {
        final Tutti tutti = Tutti.init();
        final Communicator world = tutti.world();
        final int r = world.rank();
        final int n = world.size();
        final String wiring = Worlds.impl(world).engine().toString();
        if (!wiring.contains("shm(")) {
            throw new AssertionError("rank " + r + " is not wired over shm: " + wiring);
        }
        if ("die-host".equals(args[0])) {
            dieHost(tutti, world);
            return;
        }
        if ("die-host-persistent".equals(args[0])) {
            dieHostPersistent(tutti, world);
            return;
        }
        if ("die-persistent".equals(args[0])) {
            diePersistent(tutti, world);
            return;
        }
        if ("die".equals(args[0])) {
            if (1 == r) {
                world.recv(Buf.of(new int[1]), 0, 0);
                Runtime.getRuntime().halt(3); // no goodbye, no unmapping: a crash
            }
            if (0 == r) {
                world.send(Buf.of(new int[] {1}), 1, 0);
                final Request never = world.irecv(Buf.of(new int[1]), 1, 1);
                try {
                    never.waitFor(30, TimeUnit.SECONDS);
                    throw new AssertionError("rank 0: the receive from the dead rank 1 completed");
                } catch (final TuttiException e) {
                    if (ErrorClass.PROC_FAILED != e.errorClass() || !e.getMessage().contains("rank 1")) {
                        throw new AssertionError("rank 0: unexpected failure " + e, e);
                    }
                    System.out.println("rank 0 saw: " + e.getMessage());
                }
            }
            tutti.close();
            return;
        }
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
        final long[] sum = new long[1];
        world.allreduce(Buf.of(new long[] {r}), Buf.of(sum), Op.SUM);
        if (sum[0] != (long) n * (n - 1) / 2) {
            throw new AssertionError("rank " + r + ": allreduce gave " + sum[0]);
        }
        tutti.close();
        System.out.println("rank " + r + " of " + n + " ok over " + wiring);
    }
}
