package mpi;

/**
 * A group of processes (MPI_Group) over Tutti's {@link dev.tutti.Group}: set operations are static, inclusion and
 * exclusion are instance methods. {@link #getRank()} is {@code MPI.UNDEFINED} for a process outside the group.
 */
public final class Group implements Freeable {
    private volatile dev.tutti.Group group;

    Group(final dev.tutti.Group group) {
        this.group = group;
    }

    /**
     * Returns the Tutti group.
     *
     * @param what the operation, for messages
     * @return the group
     * @throws MpiErrors.MpiError ERR_GROUP if this group was freed
     */
    dev.tutti.Group tutti(final String what) {
        final dev.tutti.Group g = group;
        if (null == g) {
            throw MpiErrors.error(MPI.ERR_GROUP, what + ": the group was freed");
        }
        return g;
    }

    /** @return the number of processes */
    public int getSize() throws MPIException {
        return call(() -> tutti("getSize").size());
    }

    /** @return the calling process's rank in the group, or {@code MPI.UNDEFINED} */
    public int getRank() throws MPIException {
        return call(() -> tutti("getRank").rank());
    }

    /** Frees the group; the handle becomes null. */
    @Override
    public void free() throws MPIException {
        MPI.check();
        if (MPI.GROUP_EMPTY != this) {
            group = null;
        }
    }

    /** @return whether the handle is null (freed) */
    public boolean isNull() {
        return null == group;
    }

    /**
     * Maps ranks of one group to another (MPI_Group_translate_ranks).
     *
     * @param group1 the first group
     * @param ranks1 ranks in it
     * @param group2 the second group
     * @return the ranks in {@code group2}, {@code MPI.UNDEFINED} where absent
     */
    public static int[] translateRanks(final Group group1, final int[] ranks1, final Group group2)
        throws MPIException {
        return call(() -> group1.tutti("translateRanks").translateRanks(ranks1, group2.tutti("translateRanks")));
    }

    /**
     * Compares two groups.
     *
     * @param group1 one group
     * @param group2 the other
     * @return {@code MPI.IDENT}, {@code MPI.SIMILAR} or {@code MPI.UNEQUAL}
     */
    public static int compare(final Group group1, final Group group2) throws MPIException {
        return call(() -> comparison(group1.tutti("compare").compare(group2.tutti("compare"))));
    }

    /**
     * Maps Tutti's comparison to MPI's constants.
     *
     * @param c the comparison
     * @return {@code MPI.IDENT}, {@code CONGRUENT}, {@code SIMILAR} or {@code UNEQUAL}
     */
    static int comparison(final dev.tutti.Group.Comparison c) {
        return switch (c) {
            case IDENT -> MPI.IDENT;
            case CONGRUENT -> MPI.CONGRUENT;
            case SIMILAR -> MPI.SIMILAR;
            case UNEQUAL -> MPI.UNEQUAL;
        };
    }

    /** @param group1 a group @param group2 another @return their union, group1's members first */
    public static Group union(final Group group1, final Group group2) throws MPIException {
        return call(() -> new Group(group1.tutti("union").union(group2.tutti("union"))));
    }

    /** @param group1 a group @param group2 another @return the members of group1 also in group2 */
    public static Group intersection(final Group group1, final Group group2) throws MPIException {
        return call(() -> new Group(group1.tutti("intersection").intersection(group2.tutti("intersection"))));
    }

    /** @param group1 a group @param group2 another @return the members of group1 not in group2 */
    public static Group difference(final Group group1, final Group group2) throws MPIException {
        return call(() -> new Group(group1.tutti("difference").difference(group2.tutti("difference"))));
    }

    /** @param ranks ranks of this group @return the group of those members, in that order */
    public Group incl(final int[] ranks) throws MPIException {
        return call(() -> new Group(tutti("incl").incl(ranks)));
    }

    /** @param ranks ranks of this group @return the group without them */
    public Group excl(final int[] ranks) throws MPIException {
        return call(() -> new Group(tutti("excl").excl(ranks)));
    }

    /** @param ranges rows {first, last, stride} @return the group of those ranks */
    public Group rangeIncl(final int[][] ranges) throws MPIException {
        return call(() -> new Group(tutti("rangeIncl").rangeIncl(triples(ranges))));
    }

    /** @param ranges rows {first, last, stride} @return the group without those ranks */
    public Group rangeExcl(final int[][] ranges) throws MPIException {
        return call(() -> new Group(tutti("rangeExcl").rangeExcl(triples(ranges))));
    }

    /**
     * Returns the ranges with each row cut to its first three entries: Open MPI's bindings read {@code first},
     * {@code last} and {@code stride} from each row and nothing more, so a longer row is accepted; a shorter or null
     * row is left for Tutti to refuse.
     */
    private static int[][] triples(final int[][] ranges) {
        if (null == ranges) {
            return null;
        }
        int[][] out = ranges;
        for (int i = 0; i < ranges.length; i++) {
            if (null != ranges[i] && ranges[i].length > 3) {
                if (out == ranges) {
                    out = ranges.clone();
                }
                out[i] = java.util.Arrays.copyOf(ranges[i], 3);
            }
        }
        return out;
    }

    /*
     * Group errors are reported on MPI_COMM_WORLD's handler, as MPI does for calls not tied to a communicator.
     */
    private static <T> T call(final java.util.function.Supplier<T> body) throws MPIException {
        MPI.check();
        try {
            return body.get();
        } catch (final RuntimeException e) {
            throw MPI.COMM_WORLD.fail("MPI_Group", e);
        }
    }
}
