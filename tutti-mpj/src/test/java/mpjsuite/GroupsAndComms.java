package mpjsuite;

import mpi.Comm;
import mpi.Group;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;

/**
 * Groups (Incl, Excl, Range_incl, Range_excl, Union, Intersection, Difference, Translate_ranks, Compare) and
 * communicators (clone, Create, Split, Compare, COMM_SELF, an intercommunicator and its Merge, the COMM_WORLD
 * attributes).
 */
public class GroupsAndComms {
    public static void main(final String[] args) throws Exception {
        new GroupsAndComms(args);
    }

    public GroupsAndComms(final String[] args) throws Exception {
        MPI.Init(args);
        final Intracomm w = MPI.COMM_WORLD;
        groups(w);
        comms(w);
        if (0 == w.Size() % 2) {
            intercomm(w);
        }
        self(w);
        Check.complete("GroupsAndComms");
        MPI.Finalize();
    }

    private static void groups(final Intracomm w) {
        final int me = w.Rank();
        final int n = w.Size();
        final Group all = w.Group();
        Check.equal(n, all.Size(), "Group.Size");
        Check.equal(me, all.Rank(), "Group.Rank");
        final int half = n / 2;
        final int[] low = new int[half];
        for (int i = 0; i < half; i++) {
            low[i] = i;
        }
        final Group first = all.Incl(low);
        Check.equal(half, first.Size(), "Incl size");
        Check.equal(me < half ? me : MPI.UNDEFINED, first.Rank(), "Incl rank");
        Check.equal(MPI.IDENT, Group.Compare(first, first), "Compare IDENT");
        Check.equal(MPI.UNEQUAL, Group.Compare(first, all), "Compare UNEQUAL");
        Check.equal(MPI.IDENT, Group.Compare(all, Group.Union(all, first)), "Union");
        Check.equal(MPI.IDENT, Group.Compare(first, Group.Intersection(first, all)), "Intersection");
        final Group rest = Group.Difference(all, first);
        Check.equal(n - half, rest.Size(), "Difference size");
        Check.equal(MPI.IDENT, Group.Compare(rest, all.Excl(low)), "Excl is the Difference");
        final int[] mapped = Group.Translate_ranks(rest, new int[] {0}, all);
        Check.equal(half, mapped[0], "Translate_ranks");
        final int[] absent = Group.Translate_ranks(all, new int[] {n - 1}, first);
        Check.equal(half > n - 1 ? n - 1 : MPI.UNDEFINED, absent[0], "Translate_ranks of a non-member");
        final int[] rev = new int[n];
        for (int i = 0; i < n; i++) {
            rev[i] = n - 1 - i;
        }
        Check.equal(n > 1 ? MPI.SIMILAR : MPI.IDENT, Group.Compare(all, all.Incl(rev)), "Compare SIMILAR");
        Check.equal(0, all.Incl(new int[0]).Size(), "Incl of nothing is empty");
        Check.equal(MPI.IDENT, Group.Compare(all, all.Excl(new int[0])), "Excl of nothing");
        // even ranks {0, 2, 4, ...} by a range with stride 2, and the odd ones as what Range_excl leaves
        final Group even = all.Range_incl(new int[][] {{0, n - 1, 2}});
        Check.equal((n + 1) / 2, even.Size(), "Range_incl size");
        Check.equal(0 == me % 2 ? me / 2 : MPI.UNDEFINED, even.Rank(), "Range_incl rank");
        final Group odd = all.Range_excl(new int[][] {{0, n - 1, 2}});
        Check.equal(n / 2, odd.Size(), "Range_excl size");
        Check.equal(1 == me % 2 ? me / 2 : MPI.UNDEFINED, odd.Rank(), "Range_excl rank");
        final Group down = all.Range_incl(new int[][] {{n - 1, 0, -1}});
        Check.equal(n - 1 - me, down.Rank(), "Range_incl with a negative stride");
        Check.equal(0, MPI.GROUP_EMPTY.Size(), "GROUP_EMPTY");
        all.free();
    }

    private static void comms(final Intracomm w) {
        final int me = w.Rank();
        final int n = w.Size();
        final Intracomm dup = (Intracomm) w.clone();
        Check.equal(MPI.IDENT, Comm.Compare(dup, dup), "Compare IDENT");
        Check.equal(MPI.CONGRUENT, Comm.Compare(w, dup), "a clone is CONGRUENT");
        Check.equal(n > 1 ? MPI.SIMILAR : MPI.CONGRUENT, Comm.Compare(dup, dup.Split(1, -me)),
            "a reversed Split is SIMILAR");
        Check.equal(n > 1 ? MPI.UNEQUAL : MPI.CONGRUENT, Comm.Compare(dup, dup.Split(me, 0)), "Split by rank");
        for (int i = 0; i < 20; i++) {
            Comm c = (Comm) w.clone();
            c = (Comm) c.clone();
            c.Free();
        }
        // Split: even and odd ranks; keys reverse the order; UNDEFINED is an ordinary colour
        final Intracomm parity = w.Split(me % 2, -me);
        final int[] members = new int[n];
        parity.Allgather(new int[] {me}, 0, 1, MPI.INT, members, 0, 1, MPI.INT);
        for (int i = 0; i < parity.Size(); i++) {
            final int expect = (0 == me % 2 ? (n - 1) / 2 * 2 : (n - 2) / 2 * 2 + 1) - 2 * i;
            Check.equal(expect, members[i], "Split member " + i);
        }
        final Intracomm undef = w.Split(0 == me ? MPI.UNDEFINED : 0, me);
        Check.that(null != undef, "Split with MPI.UNDEFINED gives a communicator");
        Check.equal(0 == me ? 1 : n - 1, undef.Size(), "Split with MPI.UNDEFINED: size");
        // Create: ranks 0..half-1; a non-member gets a communicator of rank -1
        final int half = Math.max(1, n / 2);
        final int[] low = new int[half];
        for (int i = 0; i < half; i++) {
            low[i] = i;
        }
        final Group g = w.Group().Incl(low);
        final Intracomm sub = w.Create(g);
        Check.that(null != sub, "Create gives every process a communicator");
        Check.equal(me < half ? me : MPI.UNDEFINED, sub.Rank(), "Create: rank");
        Check.equal(MPI.IDENT, Group.Compare(sub.Group(), g), "Create: the group");
        if (me < half) {
            final int[] s = new int[1];
            sub.Allreduce(new int[] {1}, 0, s, 0, 1, MPI.INT, MPI.SUM);
            Check.equal(half, s[0], "Allreduce on the created communicator");
        }
        Check.that(!w.Test_inter(), "COMM_WORLD is no intercommunicator");
        Check.equal(MPI.UNDEFINED, w.Topo_test(), "Topo_test of COMM_WORLD");
        Check.that(w.Attr_get(MPI.TAG_UB) instanceof Integer, "Attr_get(MPI.TAG_UB) is an Integer");
        Check.that(w.Attr_get(MPI.HOST) instanceof Integer, "Attr_get(MPI.HOST) is an Integer");
        Check.that(w.Attr_get(MPI.IO) instanceof Integer, "Attr_get(MPI.IO) is an Integer");
    }

    private static void intercomm(final Intracomm w) {
        final int me = w.Rank();
        final int n = w.Size();
        final int color = me % 2;
        final Intracomm local = w.Split(color, me);
        final int[] sum = new int[1];
        local.Allreduce(new int[] {me}, 0, sum, 0, 1, MPI.INT, MPI.SUM);
        final Intercomm inter = w.Create_intercomm(local, 0, 1 == color ? 0 : 1, 5);
        Check.that(inter.Test_inter(), "Test_inter");
        Check.equal(n / 2, inter.Size(), "intercommunicator Size (local group)");
        Check.equal(n / 2, inter.Remote_size(), "Remote_size");
        Check.equal(n / 2, inter.Remote_group().Size(), "Remote_group");
        Check.equal(local.Rank(), inter.Rank(), "intercommunicator Rank (local group)");
        final int[] other = {sum[0]};
        inter.Sendrecv_replace(other, 0, 1, MPI.INT, local.Rank(), 7, local.Rank(), 7);
        final int evens = (n / 2) * (n / 2 - 1);
        Check.equal(0 == color ? evens + n / 2 : evens, other[0], "the other group's sum through the intercomm");
        final Intracomm merged = inter.Merge(1 == color);
        Check.equal(n, merged.Size(), "Merge size");
        Check.equal(0 == color ? me / 2 : n / 2 + me / 2, merged.Rank(), "Merge puts the high group last");
        final int[] total = new int[1];
        merged.Allreduce(new int[] {me}, 0, total, 0, 1, MPI.INT, MPI.SUM);
        Check.equal(n * (n - 1) / 2, total[0], "Allreduce on the merged communicator");
        final Intercomm again = (Intercomm) inter.clone();
        Check.equal(n / 2, again.Remote_size(), "a cloned intercommunicator");
    }

    private static void self(final Intracomm w) {
        final Comm self = MPI.COMM_SELF;
        Check.equal(1, self.Size(), "COMM_SELF.Size");
        Check.equal(0, self.Rank(), "COMM_SELF.Rank");
        final int[] data = {1, 2, 3};
        final int[] in = new int[3];
        final mpi.Request r = self.Isend(data, 0, 3, MPI.INT, 0, 10);
        self.Recv(in, 0, 3, MPI.INT, 0, 10);
        r.Wait();
        Check.equal(data, in, "COMM_SELF send to itself");
        ((Intracomm) self).Barrier();
        Check.that(w.Rank() >= 0, "rank");
    }
}
