package dev.tutti.coll.algo;

import dev.tutti.Datatype;
import dev.tutti.Op;
import dev.tutti.coll.AlgorithmId;
import dev.tutti.coll.CollArgs;
import dev.tutti.coll.CollComm;
import dev.tutti.coll.CollKind;
import dev.tutti.coll.HostMap;
import dev.tutti.coll.Operands;
import dev.tutti.coll.Schedule;
import dev.tutti.coll.ScheduleBuilder;
import dev.tutti.coll.Scratch;
import dev.tutti.coll.SelectionTable;
import dev.tutti.internal.SegmentCopy;

import java.lang.foreign.MemorySegment;

/**
 * Node-aware (hierarchical) barrier, bcast, reduce, allreduce and allgather: a phase within each host, a phase
 * among the hosts' leaders (one rank per host, its lowest), and a phase within each host again, so that each host
 * sends one message per step across the network instead of one per rank.
 *
 * <p>Implementation notes.
 * <ul>
 * <li>Design. The hierarchy is a schedule over the same communicator, not over child communicators: each phase is
 *     a flat algorithm (chosen by the default table for the phase's group size and bytes) built on a subgroup
 *     view ({@link CollComm#subgroup}) and its peers mapped back to the communicator's ranks ({@link Phases}). So
 *     a hierarchical call is one schedule, one message key and one header like any other: blocking, nonblocking,
 *     tagged and persistent calls and the schedule cache work unchanged, and no communicator (context ids, an
 *     agreement) is made. The hosts come from the communicator's {@link HostMap}, derived without communication
 *     from the job's host of each rank; forced on a communicator with none, all ranks are one host.</li>
 * <li>bcast: the root stands in for its host's leader: a bcast from the root among it and the other hosts'
 *     leaders, then one within every host at once (from the root on its host, from the leader on the others). So
 *     the data crosses the network first, as in a flat binomial tree, and then all hosts spread it side by side;
 *     serving the root's host first would put a whole intra-host copy before the network phase. No rank receives
 *     the data twice.</li>
 * <li>reduce: to each leader within its host, among the leaders to the root's leader, then to the root if it is
 *     not its host's leader (one more message within a host). allreduce: to each leader, allreduce among the
 *     leaders (in place), bcast within each host. Above {@link #BLOCKS_MIN_BYTES} (where the flat table turns to
 *     Rabenseifner), with a commutative op and every host holding k ranks, by blocks instead: a reduce-scatter
 *     within each host leaves block i of k at its rank i, the k ranks i of all hosts allreduce their block (k
 *     exchanges of n/k bytes across the network side by side, not one of n bytes at the leader), and an
 *     allgatherv within each host puts the blocks together: each phase moves n/k bytes a rank where the leader's
 *     scheme moves n three times in a row. It is Rabenseifner's split (reduce-scatter, then allgather) with the
 *     network phase between.</li>
 * <li>Order of operands. With each host's ranks consecutive ({@link HostMap#contiguous()}), the reduction within a
 *     host is over a range of ranks in order, and the leaders' over the hosts in rank order, both by
 *     order-preserving algorithms when the op is not commutative, so the result is x0 op x1 op ... op x(p-1) as
 *     MPI requires. With interleaved placement (say round-robin) no hierarchy keeps that order, so a
 *     non-commutative op runs the flat order-preserving algorithm instead (binomial reduce, recursive-doubling
 *     allreduce) even when hierarchical is forced.</li>
 * <li>allgather: gather to each leader, allgather of the hosts' blocks among the leaders (allgather when the hosts
 *     have equal sizes, else allgatherv), bcast of the whole result within each host. With consecutive ranks per
 *     host every phase works in place in the receive buffer; interleaved, the leaders work in host order in
 *     scratch and each leader puts the blocks in rank order before its bcast.</li>
 * <li>barrier: fan-in to each leader, a barrier of the leaders, fan-out from each leader.</li>
 * </ul>
 * Cost, for h hosts of k ranks and n bytes (α, β across hosts; α', β' within): bcast
 * {@code L(h)(α + nβ) + L(k)(α' + nβ')} with binomial phases, against {@code L(hk)(α + nβ)} flat when every tree
 * level may cross hosts. Source: the two-level scheme of MPICH's SMP-aware ("smp", node-aware composition)
 * collectives (REFERENCE.md §1.3) and Open MPI's {@code han} component.
 */
public final class Hierarchical {
    private static final MemorySegment EMPTY = Linear.EMPTY;
    /** Above this many bytes a commutative allreduce on hosts of equal size goes by blocks (see the notes). */
    static final long BLOCKS_MIN_BYTES = 8192;

    private Hierarchical() {
    }

    /** Where this rank stands: its host's ranks, its index there, and the views the phases are built on. */
    private record Place(CollComm comm, HostMap map, int host, int index, int[] members, int[] leaders) {
        static Place of(final CollComm c) {
            final HostMap m = null != c.hosts() ? c.hosts() : HostMap.single(c.size());
            final int host = m.hostOf(c.rank());
            final int[] leaders = new int[m.hosts()];
            for (int h = 0; h < leaders.length; h++) {
                leaders[h] = m.leader(h);
            }
            return new Place(c, m, host, m.indexInHost(c.rank()), m.members(host), leaders);
        }

        boolean leader() {
            return 0 == index;
        }

        /** @return whether this rank takes part in the leaders' phase */
        boolean acrossHosts() {
            return leader() && leaders.length > 1;
        }

        boolean aloneOnHost() {
            return 1 == members.length;
        }

        /** Appends a flat phase within this rank's host. */
        void intra(final Phases ph, final CollKind kind, final CollArgs a, final long bytes) {
            among(ph, kind, a, bytes, members, index);
        }

        /** Appends a flat phase among the leaders (this rank must be one). */
        void across(final Phases ph, final CollKind kind, final CollArgs a, final long bytes) {
            among(ph, kind, a, bytes, leaders, host);
        }

        /** Appends a flat phase among {@code group} (ranks of the communicator), this rank at {@code me} there. */
        void among(final Phases ph, final CollKind kind, final CollArgs a, final long bytes, final int[] group,
            final int me) {
            final CollComm sub = comm.subgroup(me, group);
            final AlgorithmId id = SelectionTable.flat(kind, group.length, bytes, a.count(),
                Operands.free(a.reduceOp()), sub.network());
            ph.add(Algorithms.build(id, sub, a), group);
        }

        /** @return whether every host has as many ranks as this rank's */
        boolean evenHosts() {
            for (int h = 0; h < map.hosts(); h++) {
                if (map.members(h).length != members.length) {
                    return false;
                }
            }
            return true;
        }
    }

    /** @param c comm @param a args @return barrier schedule: fan-in to leaders, leaders' barrier, fan-out */
    public static Schedule barrier(final CollComm c, final CollArgs a) {
        final Place at = Place.of(c);
        final Phases ph = new Phases(a.op());
        if (!at.leader()) {
            final ScheduleBuilder b = new ScheduleBuilder(a.op());
            b.send(at.members[0], EMPTY, Datatype.BYTE).endRound();
            return b.recv(at.members[0], EMPTY, Datatype.BYTE).build();
        }
        final ScheduleBuilder in = new ScheduleBuilder(a.op());
        final ScheduleBuilder out = new ScheduleBuilder(a.op());
        for (int i = 1; i < at.members.length; i++) {
            in.recv(at.members[i], EMPTY, Datatype.BYTE);
            out.send(at.members[i], EMPTY, Datatype.BYTE);
        }
        ph.add(in.build());
        if (at.acrossHosts()) {
            at.across(ph, CollKind.BARRIER, a, 0);
        }
        return ph.add(out.build()).build();
    }

    /** @param c comm @param a args @return bcast schedule: the root and the other hosts' leaders, then each host */
    public static Schedule bcast(final CollComm c, final CollArgs a) {
        final Place at = Place.of(c);
        final Phases ph = new Phases(a.op());
        final int root = a.root();
        final int rootHost = at.map.hostOf(root);
        final MemorySegment buf = a.slice(a.recv(), 0, a.count());
        final long bytes = a.bytes();
        // The root stands in for its host's leader: the data crosses the network first, from the root itself,
        // then every host spreads it within at the same time, the root's host from the root.
        final int[] heads = at.leaders.clone();
        heads[rootHost] = root;
        if (heads.length > 1 && c.rank() == heads[at.host]) {
            at.among(ph, CollKind.BCAST, args(a, null, buf, a.count(), rootHost), bytes, heads, at.host);
        }
        if (!at.aloneOnHost()) {
            final int head = at.host == rootHost ? at.map.indexInHost(root) : 0;
            at.intra(ph, CollKind.BCAST, args(a, null, buf, a.count(), head), bytes);
        }
        return ph.build();
    }

    /** @param c comm @param a args @return reduce schedule: within hosts, among leaders, to the root */
    public static Schedule reduce(final CollComm c, final CollArgs a) {
        final Place at = Place.of(c);
        if (!a.reduceOp().isCommutative() && !at.map.contiguous()) {
            return Binomial.reduce(c, a);
        }
        final Phases ph = new Phases(a.op());
        final int me = c.rank();
        final int root = a.root();
        final int rootHost = at.map.hostOf(root);
        final int n = a.count();
        final long bytes = a.bytes();
        final MemorySegment result = me == root ? a.slice(a.recv(), 0, n) : null;
        final MemorySegment input = me == root && a.inPlace() ? result : a.slice(a.send(), 0, n);
        // Phase 1: to the leader; its partial result lands in the result (if it is the root) or in scratch.
        MemorySegment partial = input;
        if (!at.aloneOnHost()) {
            if (at.leader()) {
                partial = me == root ? result : Scratch.allocate(bytes, a.type());
                at.intra(ph, CollKind.REDUCE, args(a, input == partial ? null : input, partial, n, 0), bytes);
            } else {
                at.intra(ph, CollKind.REDUCE, args(a, input, null, n, 0), bytes);
            }
        }
        // Phase 2: among the leaders, to the root's leader; in place on its partial result.
        if (at.acrossHosts()) {
            MemorySegment target = null;
            if (at.host == rootHost) {
                target = me == root ? result : partial == input ? Scratch.allocate(bytes, a.type()) : partial;
            }
            at.across(ph, CollKind.REDUCE, args(a, partial == target ? null : partial, target, n, rootHost), bytes);
            if (null != target) {
                partial = target;
            }
        }
        // Phase 3: the root's leader hands the result to the root.
        if (at.leader() && at.host == rootHost) {
            if (me == root) {
                if (partial != result) {
                    ph.add(copy(a.op(), partial, result));
                }
            } else {
                ph.add(message(a, true, root, partial));
            }
        } else if (me == root) {
            ph.add(message(a, false, at.members[0], result));
        }
        return ph.build();
    }

    /** @param c comm @param a args @return allreduce schedule: reduce within hosts, allreduce among leaders, bcast */
    public static Schedule allreduce(final CollComm c, final CollArgs a) {
        final Place at = Place.of(c);
        if (!a.reduceOp().isCommutative() && !at.map.contiguous()) {
            return RecursiveDoubling.allreduce(c, a);
        }
        final int k = at.members.length;
        if (a.bytes() > BLOCKS_MIN_BYTES && a.count() >= k && k > 1 && at.leaders.length > 1
            && Operands.free(a.reduceOp()) && at.evenHosts()) {
            return allreduceByBlocks(at, a);
        }
        final Phases ph = new Phases(a.op());
        final int n = a.count();
        final long bytes = a.bytes();
        final MemorySegment buf = a.slice(a.recv(), 0, n);
        final MemorySegment input = a.inPlace() ? buf : a.slice(a.send(), 0, n);
        if (at.aloneOnHost()) {
            if (!a.inPlace()) {
                ph.add(copy(a.op(), input, buf));
            }
        } else if (at.leader()) {
            at.intra(ph, CollKind.REDUCE, args(a, a.inPlace() ? null : input, buf, n, 0), bytes);
        } else {
            at.intra(ph, CollKind.REDUCE, args(a, input, null, n, 0), bytes);
        }
        if (at.acrossHosts()) {
            at.across(ph, CollKind.ALLREDUCE, args(a, null, buf, n, -1), bytes);
        }
        if (!at.aloneOnHost()) {
            at.intra(ph, CollKind.BCAST, args(a, null, buf, n, 0), bytes);
        }
        return ph.build();
    }

    /**
     * The allreduce of large vectors on hosts of k ranks each: block i of k is reduced within each host to its
     * rank i (reduce-scatter), allreduced among the ranks i of all hosts, and gathered within each host again.
     */
    private static Schedule allreduceByBlocks(final Place at, final CollArgs a) {
        final Phases ph = new Phases(a.op());
        final int n = a.count();
        final int k = at.members.length;
        final int[] counts = new int[k];
        final int[] displs = new int[k];
        for (int i = 0, d = 0; i < k; i++) {
            counts[i] = n / k + (i < n % k ? 1 : 0);
            displs[i] = d;
            d += counts[i];
        }
        final int me = at.index;
        final MemorySegment buf = a.slice(a.recv(), 0, n);
        final MemorySegment block = a.slice(buf, displs[me], counts[me]);
        // In place, the input is copied aside: the reduce-scatter writes this rank's block while reading the rest.
        final MemorySegment input = a.inPlace() ? Scratch.allocate(a.bytes(), a.type()) : a.slice(a.send(), 0, n);
        if (a.inPlace()) {
            ph.add(copy(a.op(), buf, input));
        }
        final Op o = a.reduceOp();
        at.intra(ph, CollKind.REDUCE_SCATTER, new CollArgs(a.op(), input, block, a.type(), counts[me], -1, o, null,
            null, counts, null, null, null, null, null), a.bytes());
        final int[] peers = new int[at.leaders.length];
        for (int h = 0; h < peers.length; h++) {
            peers[h] = at.map.members(h)[me];
        }
        at.among(ph, CollKind.ALLREDUCE, args(a, null, block, counts[me], -1), counts[me] * a.elem(), peers,
            at.host);
        at.intra(ph, CollKind.ALLGATHERV, new CollArgs(a.op(), null, buf, a.type(), counts[me], -1, null, null,
            null, counts, displs, null, null, null, null), counts[me] * a.elem());
        return ph.build();
    }

    /** @param c comm @param a args @return allgather schedule: gather to leaders, leaders' allgather(v), bcast */
    public static Schedule allgather(final CollComm c, final CollArgs a) {
        final Place at = Place.of(c);
        final HostMap m = at.map;
        final Phases ph = new Phases(a.op());
        final int me = c.rank();
        final int p = c.size();
        final int n = a.count();
        final long bytes = a.bytes();
        final MemorySegment mine = a.inPlace() ? a.block(a.recv(), me) : a.slice(a.send(), 0, n);
        // The leaders' buffer of all blocks in host order: the receive buffer itself when that is rank order.
        final int[] first = new int[m.hosts()];
        final int[] sizes = new int[m.hosts()];
        for (int h = 0, at0 = 0; h < first.length; h++) {
            first[h] = at0;
            sizes[h] = m.members(h).length;
            at0 += sizes[h];
        }
        final boolean inOrder = m.contiguous();
        final MemorySegment all = inOrder ? a.slice(a.recv(), 0, (long) p * n)
            : at.leader() ? Scratch.allocate(p * bytes) : null;
        final int k = at.members.length;
        if (at.leader()) {
            final MemorySegment hostBlocks = a.slice(all, (long) first[at.host] * n, (long) k * n);
            final boolean inPlace = inOrder && a.inPlace(); // then this leader's block is already first in it
            if (1 == k) {
                if (!inPlace) {
                    ph.add(copy(a.op(), mine, hostBlocks));
                }
            } else {
                at.intra(ph, CollKind.GATHER, args(a, inPlace ? null : mine, hostBlocks, n, 0), bytes);
            }
            if (at.acrossHosts()) {
                across(at, ph, a, all, first, sizes, bytes);
            }
            if (!inOrder) {
                final Runnable[] unpermute = new Runnable[p];
                for (int r = 0; r < p; r++) {
                    final MemorySegment from = a.block(all, first[m.hostOf(r)] + m.indexInHost(r));
                    final MemorySegment to = a.block(a.recv(), r);
                    unpermute[r] = () -> SegmentCopy.copy(from, 0, to, 0, to.byteSize());
                }
                ph.local(unpermute);
            }
        } else {
            at.intra(ph, CollKind.GATHER, args(a, mine, null, n, 0), bytes);
        }
        if (k > 1) {
            final MemorySegment whole = a.slice(a.recv(), 0, (long) p * n);
            at.intra(ph, CollKind.BCAST, args(a, null, whole, p * n, 0), p * bytes);
        }
        return ph.build();
    }

    /** The leaders' phase of allgather: in place in {@code all}, each host's blocks at its first position. */
    private static void across(final Place at, final Phases ph, final CollArgs a, final MemorySegment all,
        final int[] first, final int[] sizes, final long bytes) {
        final int n = a.count();
        boolean equal = true;
        for (final int s : sizes) {
            equal &= s == sizes[0];
        }
        final int k = sizes[at.host];
        if (equal) {
            at.across(ph, CollKind.ALLGATHER, args(a, null, all, k * n, -1), k * bytes);
            return;
        }
        final int[] counts = new int[sizes.length];
        final int[] displs = new int[sizes.length];
        for (int h = 0; h < sizes.length; h++) {
            counts[h] = sizes[h] * n;
            displs[h] = first[h] * n;
        }
        final CollArgs v = new CollArgs(a.op(), null, all, a.type(), k * n, -1, null, null, null, counts, displs,
            null, null, null, null);
        at.across(ph, CollKind.ALLGATHERV, v, k * bytes);
    }

    private static CollArgs args(final CollArgs a, final MemorySegment send, final MemorySegment recv,
        final int count, final int root) {
        final Op o = a.reduceOp();
        return CollArgs.of(a.op(), send, recv, a.type(), count, root, o);
    }

    private static Schedule copy(final String op, final MemorySegment from, final MemorySegment to) {
        return new ScheduleBuilder(op).copy(from, to).build();
    }

    private static Schedule message(final CollArgs a, final boolean send, final int peer, final MemorySegment seg) {
        final ScheduleBuilder b = new ScheduleBuilder(a.op());
        return (send ? b.send(peer, seg, a.type()) : b.recv(peer, seg, a.type())).build();
    }
}
