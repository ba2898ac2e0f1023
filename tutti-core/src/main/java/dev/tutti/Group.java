package dev.tutti;

import dev.tutti.internal.Errors;
import dev.tutti.internal.GroupAccess;

import java.util.Arrays;

/**
 * An ordered set of processes, as in MPI: immutable, created from a communicator ({@link Comm#group()}) and
 * combined with the set operations below. A group is local: building one sends nothing. Ranks in a group are
 * {@code 0..size-1} in its order.
 *
 * <pre>{@code
 * Group all = world.group();
 * Group evens = all.rangeIncl(new int[][] {{0, all.size() - 1, 2}});
 * Communicator c = world.create(evens);          // null on the odd ranks
 * }</pre>
 *
 * <p>Semantics follow MPI-4.1 §7.3: {@link #union} keeps this group's order then adds the other's new members
 * in their order; {@link #intersection} and {@link #difference} keep this group's order; {@link #incl} orders the
 * result as its argument; {@link #excl} keeps this group's order. Invalid arguments (a rank out of range, a
 * repeated rank, a range with stride 0 or that does not reach its end) throw {@link TuttiException} naming the
 * operation, the argument and the expectation.
 *
 * <p>Thread-safety: immutable, so safe to share.
 */
public final class Group {
    /** The rank of a process that is not a member, and the result of {@link #translateRanks} for such. */
    public static final int UNDEFINED = -32766;

    /** The group with no members. */
    public static final Group EMPTY = new Group(new int[0], -1);

    /** The result of comparing two groups (or two communicators). */
    public enum Comparison {
        /** The same members in the same order (for communicators: the same communicator). */
        IDENT,
        /** Communicators only: different communicators whose groups have the same members in the same order. */
        CONGRUENT,
        /** The same members in a different order. */
        SIMILAR,
        /** Different members. */
        UNEQUAL
    }

    static { // the implementation's way to a group's world ranks (see GroupAccess)
        GroupAccess.install(new GroupAccess() {
            @Override
            public Group of(final int self, final int... worldRanks) {
                return Group.of(self, worldRanks);
            }

            @Override
            public int[] members(final Group group) {
                return group.members;
            }

            @Override
            public int indexOf(final Group group, final int worldRank) {
                return group.indexOf(worldRank);
            }
        });
    }

    private final int[] members;
    private final int self;

    /**
     * @param members the world rank of each member, in group order; distinct; owned by the group
     * @param self    the world rank of the calling process, or -1 if not known (the empty group)
     */
    private Group(final int[] members, final int self) {
        this.members = members;
        this.self = self;
    }

    /**
     * Builds a group of world ranks as seen by process {@code self}.
     *
     * @param self       the world rank of the calling process
     * @param worldRanks the members, in order; copied
     * @return the group
     */
    static Group of(final int self, final int... worldRanks) {
        return new Group(worldRanks.clone(), self);
    }

    /** @return the number of members */
    public int size() {
        return members.length;
    }

    /** @return the calling process's rank in this group, or {@link #UNDEFINED} if it is not a member */
    public int rank() {
        final int r = self < 0 ? -1 : indexOf(self);
        return r < 0 ? UNDEFINED : r;
    }

    /**
     * Returns the world rank of a member (the rank in the job's world communicator).
     *
     * @param rank the member's rank in this group
     * @return its world rank
     * @throws TuttiException of class {@link ErrorClass#RANK} if {@code rank} is outside {@code 0..size-1}
     */
    public int worldRank(final int rank) {
        if (rank < 0 || rank >= members.length) {
            throw Errors.rank("worldRank", describe(), "rank", rank, members.length, "");
        }
        return members[rank];
    }

    /** @return the world rank of every member, in group order (a copy) */
    public int[] worldRanks() {
        return members.clone();
    }

    /**
     * Translates ranks of this group to ranks of another group (MPI_Group_translate_ranks).
     *
     * @param ranks ranks in this group, or {@link Comm#PROC_NULL}
     * @param other the other group
     * @return for each rank its rank in {@code other}, {@link #UNDEFINED} if that process is not a member of
     *         {@code other}, or {@link Comm#PROC_NULL} for {@code PROC_NULL}
     * @throws TuttiException of class {@link ErrorClass#RANK} if a rank is outside this group
     */
    public int[] translateRanks(final int[] ranks, final Group other) {
        need("translateRanks", "ranks", ranks);
        need("translateRanks", "other", other);
        final int[] out = new int[ranks.length];
        for (int i = 0; i < ranks.length; i++) {
            final int r = ranks[i];
            if (Comm.PROC_NULL == r) {
                out[i] = Comm.PROC_NULL;
                continue;
            }
            if (r < 0 || r >= members.length) {
                throw Errors.rank("translateRanks", describe(), "ranks[" + i + "]", r, members.length,
                    " or PROC_NULL");
            }
            final int t = other.indexOf(members[r]);
            out[i] = t < 0 ? UNDEFINED : t;
        }
        return out;
    }

    /**
     * Compares two groups.
     *
     * @param other the other group
     * @return {@link Comparison#IDENT} (same members, same order), {@link Comparison#SIMILAR} (same members,
     *         another order) or {@link Comparison#UNEQUAL}
     */
    public Comparison compare(final Group other) {
        need("compare", "other", other);
        if (Arrays.equals(members, other.members)) {
            return Comparison.IDENT;
        }
        if (members.length != other.members.length) {
            return Comparison.UNEQUAL;
        }
        final int[] a = members.clone();
        final int[] b = other.members.clone();
        Arrays.sort(a);
        Arrays.sort(b);
        return Arrays.equals(a, b) ? Comparison.SIMILAR : Comparison.UNEQUAL;
    }

    /**
     * The union: this group's members in order, then the other's members that are not in this group, in the
     * other's order.
     *
     * @param other the other group
     * @return the union
     */
    public Group union(final Group other) {
        need("union", "other", other);
        final int[] out = Arrays.copyOf(members, members.length + other.members.length);
        int n = members.length;
        for (final int m : other.members) {
            if (indexOf(m) < 0) {
                out[n++] = m;
            }
        }
        return derive(Arrays.copyOf(out, n), other);
    }

    /**
     * The intersection: this group's members that are also in the other, in this group's order.
     *
     * @param other the other group
     * @return the intersection
     */
    public Group intersection(final Group other) {
        need("intersection", "other", other);
        return filter(other, true);
    }

    /**
     * The difference: this group's members that are not in the other, in this group's order.
     *
     * @param other the other group
     * @return the difference
     */
    public Group difference(final Group other) {
        need("difference", "other", other);
        return filter(other, false);
    }

    /**
     * The members with the given ranks, in the order given (MPI_Group_incl).
     *
     * @param ranks distinct ranks of this group
     * @return the new group: its rank {@code i} is this group's rank {@code ranks[i]}
     * @throws TuttiException of class {@link ErrorClass#RANK} if a rank is out of range or repeated
     */
    public Group incl(final int... ranks) {
        checkDistinct("incl", "ranks", ranks);
        final int[] out = new int[ranks.length];
        for (int i = 0; i < ranks.length; i++) {
            out[i] = members[ranks[i]];
        }
        return derive(out, null);
    }

    /**
     * This group without the members of the given ranks, in this group's order (MPI_Group_excl).
     *
     * @param ranks distinct ranks of this group
     * @return the new group
     * @throws TuttiException of class {@link ErrorClass#RANK} if a rank is out of range or repeated
     */
    public Group excl(final int... ranks) {
        final boolean[] drop = checkDistinct("excl", "ranks", ranks);
        return keep(drop, false);
    }

    /**
     * The members of rank ranges, in the order the ranges produce them (MPI_Group_range_incl). Each range is
     * {@code {first, last, stride}} and stands for {@code first, first + stride, ...} up to {@code last} (down to
     * it for a negative stride); as in MPI, {@code last} itself need not be produced or be a rank of the group, only
     * the ranks produced must be.
     *
     * @param ranges the ranges
     * @return the new group
     * @throws TuttiException of class {@link ErrorClass#ARG} for a malformed range (not three numbers, stride 0,
     *                        or a stride pointing away from {@code last}), or {@link ErrorClass#RANK} if a
     *                        produced rank is out of range or produced twice
     */
    public Group rangeIncl(final int[][] ranges) {
        return incl(expand("rangeIncl", ranges));
    }

    /**
     * This group without the members of rank ranges, in this group's order (MPI_Group_range_excl).
     *
     * @param ranges the ranges, as in {@link #rangeIncl}
     * @return the new group
     * @throws TuttiException as {@link #rangeIncl}
     */
    public Group rangeExcl(final int[][] ranges) {
        return excl(expand("rangeExcl", ranges));
    }

    // ------------------------------------------------------------------------------------------------ internals

    int[] members() {
        return members;
    }

    int self() {
        return self;
    }

    int indexOf(final int worldRank) {
        for (int i = 0; i < members.length; i++) {
            if (members[i] == worldRank) {
                return i;
            }
        }
        return -1;
    }

    boolean contains(final int worldRank) {
        return indexOf(worldRank) >= 0;
    }

    private Group derive(final int[] out, final Group other) {
        final int me = self >= 0 ? self : null == other ? -1 : other.self;
        return new Group(out, me);
    }

    private Group filter(final Group other, final boolean in) {
        final boolean[] drop = new boolean[members.length];
        for (int i = 0; i < members.length; i++) {
            drop[i] = other.contains(members[i]) != in;
        }
        return keep(drop, false);
    }

    private Group keep(final boolean[] flags, final boolean keepFlagged) {
        final int[] out = new int[members.length];
        int n = 0;
        for (int i = 0; i < members.length; i++) {
            if (flags[i] == keepFlagged) {
                out[n++] = members[i];
            }
        }
        return derive(Arrays.copyOf(out, n), null);
    }

    private boolean[] checkDistinct(final String op, final String arg, final int[] ranks) {
        need(op, arg, ranks);
        final boolean[] seen = new boolean[members.length];
        for (int i = 0; i < ranks.length; i++) {
            final int r = ranks[i];
            if (r < 0 || r >= members.length) {
                throw Errors.rank(op, describe(), arg + "[" + i + "]", r, members.length, "");
            }
            if (seen[r]) {
                throw Errors.invalid(ErrorClass.RANK, op, describe(), arg + "[" + i + "]=" + r
                    + " appears more than once, expected distinct ranks");
            }
            seen[r] = true;
        }
        return seen;
    }

    private int[] expand(final String op, final int[][] ranges) {
        need(op, "ranges", ranges);
        int total = 0;
        for (int i = 0; i < ranges.length; i++) {
            final int[] t = ranges[i];
            if (null == t || 3 != t.length) {
                throw Errors.invalid(ErrorClass.ARG, op, describe(), "ranges[" + i + "]="
                    + (null == t ? "null" : Arrays.toString(t)) + ", expected {first, last, stride}");
            }
            final int first = t[0];
            final int last = t[1];
            final int stride = t[2];
            if (0 == stride || (stride > 0 && first > last) || (stride < 0 && first < last)) {
                throw Errors.invalid(ErrorClass.ARG, op, describe(), "ranges[" + i + "]=" + Arrays.toString(t)
                    + " never reaches last=" + last + ", expected a nonzero stride pointing from first to last");
            }
            // MPI requires the ranks the range produces to be valid, not last itself: {5, 8, 2} is 5, 7
            final long steps = ((long) last - first) / stride;
            final long end = first + steps * stride;
            for (final long r : new long[] {first, end}) {
                if (r < 0 || r >= members.length) {
                    throw Errors.rank(op, describe(), "ranges[" + i + "]=" + Arrays.toString(t) + ": rank", (int) r,
                        members.length, "");
                }
            }
            total += (int) steps + 1;
        }
        final int[] out = new int[total];
        int n = 0;
        for (final int[] t : ranges) {
            final int count = (int) (((long) t[1] - t[0]) / t[2]) + 1;
            for (int k = 0; k < count; k++) {
                out[n++] = t[0] + k * t[2];
            }
        }
        return out;
    }

    private String describe() {
        return "group size=" + members.length;
    }

    private void need(final String op, final String arg, final Object value) {
        if (null == value) {
            throw Errors.invalid(ErrorClass.ARG, op, describe(), arg + "=null, expected a value");
        }
    }

    /**
     * Two groups are equal if they have the same members in the same order (whatever process built them).
     *
     * @param o the other object
     * @return whether equal
     */
    @Override
    public boolean equals(final Object o) {
        return o instanceof Group g && Arrays.equals(members, g.members);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(members);
    }

    /** @return e.g. {@code Group(size=3, worldRanks=[0, 2, 4], rank=1)} */
    @Override
    public String toString() {
        final int r = rank();
        return "Group(size=" + members.length + ", worldRanks=" + Arrays.toString(members) + ", rank="
            + (UNDEFINED == r ? "UNDEFINED" : String.valueOf(r)) + ")";
    }
}
