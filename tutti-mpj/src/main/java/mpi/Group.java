package mpi;

/**
 * An ordered set of processes. Ranks absent from a group are -1 ({@code MPI.UNDEFINED}): {@link #Rank()} of a
 * non-member, and {@link #Translate_ranks} of a process missing from the other group.
 */
public class Group implements Freeable {
    /** The {@link #code} of {@code MPI.GROUP_EMPTY}. */
    public static final int EMPTY = 3;

    /** MPJ Express's group code: {@link #EMPTY} for an empty group, else 0. */
    public int code;
    /** MPJ Express's device group; Tutti keeps its state elsewhere, so this is what the constructor was given. */
    public mpjdev.Group mpjdevGroup;

    final dev.tutti.Group group;

    /**
     * A group made from a device group; Tutti has none to give, so this is the empty group.
     *
     * @param mpjdevGroup the device group (recorded only)
     */
    public Group(final mpjdev.Group mpjdevGroup) {
        this.mpjdevGroup = mpjdevGroup;
        this.group = dev.tutti.Group.EMPTY;
        this.code = EMPTY;
    }

    Group(final dev.tutti.Group group) {
        this.group = group;
        this.code = 0 == group.size() ? EMPTY : 0;
    }

    /** Frees the group: nothing to release. */
    @Override
    public void free() {
        // nothing held
    }

    /**
     * @return the number of processes
     * @throws MPIException never; declared as in MPJ Express
     */
    public int Size() throws MPIException {
        return group.size();
    }

    /**
     * @return the caller's rank in the group, or -1 if it is not a member
     * @throws MPIException never; declared as in MPJ Express
     */
    public int Rank() throws MPIException {
        final int r = group.rank();
        return r < 0 ? MPI.UNDEFINED : r;
    }

    /**
     * Translates ranks of one group into another.
     *
     * @param group1 the group the ranks are in
     * @param ranks1 ranks in {@code group1}
     * @param group2 the other group
     * @return the same processes' ranks in {@code group2}, -1 for one that is not there
     * @throws MPIException for a null argument or a rank outside {@code group1}
     */
    public static int[] Translate_ranks(final Group group1, final int[] ranks1, final Group group2)
        throws MPIException {
        nonNull("Group.Translate_ranks", group1, group2);
        if (null == ranks1) {
            throw Fail.error("Group.Translate_ranks: ranks1=null (expected ranks of group1)");
        }
        try {
            final int[] r = group1.group.translateRanks(ranks1, group2.group);
            for (int i = 0; i < r.length; i++) {
                r[i] = r[i] < 0 ? MPI.UNDEFINED : r[i];
            }
            return r;
        } catch (final RuntimeException e) {
            throw Fail.wrap("Group.Translate_ranks", e);
        }
    }

    /**
     * @param group1 a group
     * @param group2 another
     * @return {@code MPI.IDENT} (same members, same order), {@code MPI.SIMILAR} (same members) or
     *         {@code MPI.UNEQUAL}
     * @throws MPIException for a null group
     */
    public static int Compare(final Group group1, final Group group2) throws MPIException {
        nonNull("Group.Compare", group1, group2);
        return compareCode(group1.group.compare(group2.group));
    }

    static int compareCode(final dev.tutti.Group.Comparison c) {
        return switch (c) {
            case IDENT -> MPI.IDENT;
            case CONGRUENT -> MPI.CONGRUENT;
            case SIMILAR -> MPI.SIMILAR;
            case UNEQUAL -> MPI.UNEQUAL;
        };
    }

    /**
     * @param group1 a group
     * @param group2 another
     * @return the members of {@code group1}, then those of {@code group2} not in it
     * @throws MPIException for a null group
     */
    public static Group Union(final Group group1, final Group group2) throws MPIException {
        nonNull("Group.Union", group1, group2);
        return new Group(group1.group.union(group2.group));
    }

    /**
     * @param group1 a group
     * @param group2 another
     * @return the members of {@code group1} that are in {@code group2}, in {@code group1}'s order
     * @throws MPIException for a null group
     */
    public static Group Intersection(final Group group1, final Group group2) throws MPIException {
        nonNull("Group.Intersection", group1, group2);
        return new Group(group1.group.intersection(group2.group));
    }

    /**
     * @param group1 a group
     * @param group2 another
     * @return the members of {@code group1} that are not in {@code group2}
     * @throws MPIException for a null group
     */
    public static Group Difference(final Group group1, final Group group2) throws MPIException {
        nonNull("Group.Difference", group1, group2);
        return new Group(group1.group.difference(group2.group));
    }

    /**
     * @param ranks the members to keep, in the new order
     * @return the new group ({@code MPI.GROUP_EMPTY} for no ranks)
     * @throws MPIException for a rank outside the group or a repeated one
     */
    public Group Incl(final int[] ranks) throws MPIException {
        if (null != ranks && 0 == ranks.length && null != MPI.GROUP_EMPTY) {
            return MPI.GROUP_EMPTY;
        }
        try {
            return new Group(group.incl(ranks));
        } catch (final RuntimeException e) {
            throw Fail.wrap("Group.Incl", e);
        }
    }

    /**
     * @param ranks the members to leave out
     * @return the new group (this group for no ranks)
     * @throws MPIException for a rank outside the group or a repeated one
     */
    public Group Excl(final int[] ranks) throws MPIException {
        if (null != ranks && 0 == ranks.length) {
            return this;
        }
        try {
            return new Group(group.excl(ranks));
        } catch (final RuntimeException e) {
            throw Fail.wrap("Group.Excl", e);
        }
    }

    /**
     * @param ranges rows {@code {first, last, stride}}
     * @return the members the ranges name, in order
     * @throws MPIException for a bad range
     */
    public Group Range_incl(final int[][] ranges) throws MPIException {
        try {
            return new Group(group.rangeIncl(ranges));
        } catch (final RuntimeException e) {
            throw Fail.wrap("Group.Range_incl", e);
        }
    }

    /**
     * @param ranges rows {@code {first, last, stride}}
     * @return the members the ranges do not name
     * @throws MPIException for a bad range
     */
    public Group Range_excl(final int[][] ranges) throws MPIException {
        try {
            return new Group(group.rangeExcl(ranges));
        } catch (final RuntimeException e) {
            throw Fail.wrap("Group.Range_excl", e);
        }
    }

    /**
     * Nothing to release.
     *
     * @throws MPIException never; declared as in MPJ Express
     */
    @Override
    @SuppressWarnings({"removal", "deprecation"})
    public void finalize() throws MPIException {
        // nothing held outside the Java heap
    }

    private static void nonNull(final String call, final Group group1, final Group group2) {
        if (null == group1 || null == group2) {
            throw Fail.error(call + ": group1=" + group1 + ", group2=" + group2 + " (expected two groups)");
        }
    }

    @Override
    public String toString() {
        return "Group" + group;
    }
}
