package dev.tutti.check;

import dev.tutti.Datatype;
import dev.tutti.ErrorClass;
import dev.tutti.coll.CollKind;

import java.util.Arrays;
import java.util.Objects;
import java.util.function.Function;

/**
 * MPI's rules for one collective call, checked on the digests of every rank of the group (indexed by rank; on an
 * intercommunicator by rank in the union of the two groups), in this order, the first broken rule reported:
 * <ol>
 * <li>the same operation;</li>
 * <li>the same variant: a blocking call never matches a nonblocking one (MPI), nor a persistent start either;</li>
 * <li>the same tag (tagged two-phase calls);</li>
 * <li>the same root; on an intercommunicator each group's ranks name the same roots, and the root a group names
 *     for the other group is the one that group has;</li>
 * <li>the same reduction: predefined ops by identity, user ops by name (their id across processes);</li>
 * <li>{@code IN_PLACE} at all ranks or none, for the operations where MPI requires that (allgather(v),
 *     allreduce, alltoall(v), reduce_scatter(_block));</li>
 * <li>type signatures: what each rank sends to another is what that rank receives from it, in element type and
 *     count (MPI: "the amount of data sent must exactly match the amount of data specified by the receiver";
 *     element types equal, since Tutti's datatypes are primitive).</li>
 * </ol>
 * Stateless; the caller gives it the digests of one call.
 */
final class DigestRules {

    /**
     * A broken rule.
     *
     * @param errorClass the kind of disagreement
     * @param what       what is wrong, as the end of the message
     * @param ranks      the ranks whose calls the message lists (the disagreeing ones), or null for all
     */
    record Mismatch(ErrorClass errorClass, String what, int[] ranks) {
    }

    private DigestRules() {
    }

    /**
     * Compares the digests of one call.
     *
     * @param d every rank's digest, by rank
     * @return the first broken rule, or null if the calls match
     */
    static Mismatch compare(final CallDigest[] d) {
        if (!same(d, CallDigest::kind)) {
            return new Mismatch(ErrorClass.ARG, "the ranks called different collectives", null);
        }
        if (!same(d, CallDigest::variant)) {
            return new Mismatch(ErrorClass.ARG, "a blocking collective never matches a nonblocking one (MPI)", null);
        }
        if (!same(d, CallDigest::tag)) {
            return new Mismatch(ErrorClass.TAG, "the ranks passed different tags", null);
        }
        final Mismatch roots = d[0].isInter() ? interRoots(d) : d[0].rooted() && !same(d, CallDigest::root)
            ? new Mismatch(ErrorClass.ROOT, "the ranks named different roots", null) : null;
        if (null != roots) {
            return roots;
        }
        if (d[0].reduces() && !(same(d, CallDigest::opCode) && same(d, CallDigest::opName))) {
            return new Mismatch(ErrorClass.OP, "the ranks passed different reduction operations", null);
        }
        if (!d[0].isInter() && inPlaceAllOrNone(d[0].kind()) && !same(d, CallDigest::inPlace)) {
            return new Mismatch(ErrorClass.BUFFER, "IN_PLACE was passed by some ranks only; MPI requires all or "
                + "none for " + d[0].kind().mpiName(), null);
        }
        return d[0].isInter() ? Signatures.inter(d) : Signatures.intra(d);
    }

    private static boolean inPlaceAllOrNone(final CollKind k) {
        return switch (k) {
            case ALLGATHER, ALLGATHERV, ALLREDUCE, ALLTOALL, ALLTOALLV, REDUCE_SCATTER, REDUCE_SCATTER_BLOCK -> true;
            default -> false;
        };
    }

    /**
     * Intercommunicator roots: within each group, the ranks that name a local root agree and those that name a
     * remote root agree; the root a group names for the other is the one the other group has; and a group that is
     * named as having a root has one (and the other way round).
     */
    private static Mismatch interRoots(final CallDigest[] d) {
        if (!d[0].rooted()) {
            return null;
        }
        final int[] local = {-1, -1};
        final int[] remote = {-1, -1};
        for (final CallDigest x : d) {
            if (x.root() >= 0) {
                if (local[x.side()] >= 0 && local[x.side()] != x.root()) {
                    return rootMismatch("the ranks of group " + x.side() + " named different roots of their group");
                }
                local[x.side()] = x.root();
            }
            if (x.remoteRoot() >= 0) {
                if (remote[x.side()] >= 0 && remote[x.side()] != x.remoteRoot()) {
                    return rootMismatch("the ranks of group " + x.side() + " named different roots of the other "
                        + "group");
                }
                remote[x.side()] = x.remoteRoot();
            }
        }
        for (int s = 0; s < 2; s++) {
            final int named = remote[1 - s];
            if (named != local[s]) {
                return rootMismatch(named < 0 ? "group " + s + " has root " + local[s] + " but group " + (1 - s)
                    + " names no root of it" : local[s] < 0 ? "group " + (1 - s) + " names root " + named
                    + " of group " + s + ", which has no root" : "group " + (1 - s) + " names root " + named
                    + " of group " + s + ", whose root is " + local[s]);
            }
        }
        if (local[0] < 0 && local[1] < 0) {
            return rootMismatch("neither group has a root");
        }
        return null;
    }

    private static Mismatch rootMismatch(final String what) {
        return new Mismatch(ErrorClass.ROOT, what, null);
    }

    /** @return whether every digest gives the same value of {@code f} */
    static <T> boolean same(final CallDigest[] d, final Function<CallDigest, T> f) {
        final T first = f.apply(d[0]);
        for (int i = 1; i < d.length; i++) {
            if (!Objects.equals(first, f.apply(d[i]))) {
                return false;
            }
        }
        return true;
    }

    /** The type-signature rule, per operation family. */
    static final class Signatures {
        private Signatures() {
        }

        static Mismatch intra(final CallDigest[] d) {
            return switch (d[0].kind()) {
                case BARRIER -> null;
                case GATHERV -> rootVector(d, d[d[0].root()].recvCounts(), "receives");
                case SCATTERV -> rootVector(d, d[d[0].root()].sendCounts(), "sends");
                case ALLGATHERV -> allgatherv(d);
                case ALLTOALLV, ALLTOALLW -> pairwise(d);
                case REDUCE_SCATTER -> same(d, x -> Arrays.toString(x.recvCounts())) && same(d, CallDigest::sendType)
                    ? null : new Mismatch(ErrorClass.COUNT, "the ranks passed different recvCounts or types", null);
                default -> regular(d);
            };
        }

        /** Every rank sends and receives blocks of one type and count: they must be the same at every rank. */
        private static Mismatch regular(final CallDigest[] d) {
            if (!same(d, CallDigest::sendType)) {
                return new Mismatch(ErrorClass.TYPE, "the ranks passed different element types", null);
            }
            if (!same(d, CallDigest::sendCount)) {
                return new Mismatch(ErrorClass.COUNT, "the ranks passed different counts (the amount sent must "
                    + "equal the amount received)", null);
            }
            return null;
        }

        /** gatherv/scatterv: the root's count for rank i is rank i's count, and the types are the root's. */
        private static Mismatch rootVector(final CallDigest[] d, final int[] counts, final String verb) {
            final int root = d[0].root();
            final Datatype type = d[root].sendType();
            for (int i = 0; i < d.length; i++) {
                if (d[i].sendType() != type) {
                    return pair(ErrorClass.TYPE, root, i, "root " + root + " " + verb + " " + CallDigest.typeName(type)
                        + " but rank " + i + " passed " + CallDigest.typeName(d[i].sendType()));
                }
                if (null != counts && i < counts.length && counts[i] != d[i].sendCount()) {
                    return pair(ErrorClass.COUNT, root, i, "root " + root + " " + verb + " "
                        + CallDigest.amount(counts[i], type) + (verb.startsWith("r") ? " from" : " to") + " rank " + i
                        + ", which passed " + CallDigest.amount(d[i].sendCount(), d[i].sendType()));
                }
            }
            return null;
        }

        /** allgatherv: every rank's recvCounts[i] is rank i's count. */
        private static Mismatch allgatherv(final CallDigest[] d) {
            for (int j = 0; j < d.length; j++) {
                for (int i = 0; i < d.length; i++) {
                    if (d[i].sendType() != d[j].sendType()) {
                        return pair(ErrorClass.TYPE, i, j, "rank " + i + " passes "
                            + CallDigest.typeName(d[i].sendType()) + " but rank " + j + " "
                            + CallDigest.typeName(d[j].sendType()));
                    }
                    final int[] rc = d[j].recvCounts();
                    if (null != rc && i < rc.length && rc[i] != d[i].sendCount()) {
                        return pair(ErrorClass.COUNT, i, j, "rank " + i + " sends "
                            + CallDigest.amount(d[i].sendCount(), d[i].sendType()) + " but rank " + j + " expects "
                            + CallDigest.amount(rc[i], d[j].recvType()) + " from it");
                    }
                }
            }
            return null;
        }

        /** alltoallv/alltoallw: what rank i sends to rank j is what rank j receives from rank i. */
        private static Mismatch pairwise(final CallDigest[] d) {
            for (int i = 0; i < d.length; i++) {
                for (int j = 0; j < d.length; j++) {
                    final int sent = count(d[i], true, j);
                    final int expected = count(d[j], false, i);
                    final Datatype st = type(d[i], true, j);
                    final Datatype rt = type(d[j], false, i);
                    if (st != rt || sent != expected) {
                        return pair(st != rt ? ErrorClass.TYPE : ErrorClass.COUNT, i, j, "rank " + i + " sends "
                            + CallDigest.amount(sent, st) + " to rank " + j + ", which expects "
                            + CallDigest.amount(expected, rt) + " from it");
                    }
                }
            }
            return null;
        }

        private static int count(final CallDigest x, final boolean send, final int peer) {
            final int[] c = send && !x.inPlace() ? x.sendCounts() : x.recvCounts();
            return null == c || peer >= c.length ? 0 : c[peer];
        }

        private static Datatype type(final CallDigest x, final boolean send, final int peer) {
            final Datatype[] t = send ? x.sendTypes() : x.recvTypes();
            return null == t || peer >= t.length ? x.sendType() : t[peer];
        }

        /**
         * Intercommunicator signatures: a bcast root's data is what every rank of the other group receives; for the
         * two-way operations whose counts every rank gives (allgather, alltoall, allreduce), what a rank of one group
         * sends is what each rank of the other group receives from it. The other forms are not compared yet.
         */
        static Mismatch inter(final CallDigest[] d) {
            switch (d[0].kind()) {
                case BCAST -> {
                    // each group's root sends to every rank of the other group (one-way: the other root sends 0)
                    for (int i = 0; i < d.length; i++) {
                        if (d[i].root() != d[i].localRank()) {
                            continue;
                        }
                        for (int j = 0; j < d.length; j++) {
                            if (d[i].side() != d[j].side() && (d[j].recvCount() != d[i].sendCount()
                                || d[j].recvCount() > 0 && d[i].sendType() != d[j].recvType())) {
                                return pair(d[i].sendType() != d[j].recvType() ? ErrorClass.TYPE : ErrorClass.COUNT,
                                    i, j, "root " + d[i].localRank() + " of group " + d[i].side() + " sends "
                                    + CallDigest.amount(d[i].sendCount(), d[i].sendType()) + " but rank "
                                    + d[j].localRank() + " of group " + d[j].side() + " expects "
                                    + CallDigest.amount(d[j].recvCount(), d[j].recvType()));
                            }
                        }
                    }
                    return null;
                }
                case ALLGATHER, ALLTOALL, ALLREDUCE -> {
                    for (int i = 0; i < d.length; i++) {
                        for (int j = 0; j < d.length; j++) {
                            if (d[i].side() != d[j].side() && (d[i].sendType() != d[j].recvType()
                                || d[i].sendCount() != d[j].recvCount())) {
                                return pair(d[i].sendType() != d[j].recvType() ? ErrorClass.TYPE : ErrorClass.COUNT,
                                    i, j, "rank " + d[i].localRank() + " of group " + d[i].side() + " sends "
                                    + CallDigest.amount(d[i].sendCount(), d[i].sendType()) + " but rank "
                                    + d[j].localRank() + " of group " + d[j].side() + " expects "
                                    + CallDigest.amount(d[j].recvCount(), d[j].recvType()));
                            }
                        }
                    }
                    return null;
                }
                default -> {
                    return null;
                }
            }
        }

        private static Mismatch pair(final ErrorClass c, final int a, final int b, final String what) {
            return new Mismatch(c, what, a == b ? new int[] {a} : new int[] {Math.min(a, b), Math.max(a, b)});
        }
    }
}
