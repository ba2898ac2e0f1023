package dev.tutti;

/**
 * Every communicator (intra- and inter-): a group of ranks that communicate, with its own message space: messages
 * sent on one communicator are never received on another, and collective traffic never mixes with point-to-point
 * traffic. Its operations come in families, each its own type: {@link PointToPoint}, {@link BlockingCollectives},
 * {@link NonblockingCollectives}, {@link TaggedCollectives} and {@link PersistentCollectives}; this type adds the
 * communicator's identity (rank, size, name, groups) and {@link #free()}. {@link Communicator} adds the prefix
 * reductions ({@link ScanCollectives}), the object collectives ({@link ObjectCollectives}) and the creation of new
 * communicators.
 *
 * <p>Thread-safety: every method may be called from several threads of a rank at once (MPI_THREAD_MULTIPLE).
 * Arguments are checked before anything is sent; a bad argument throws {@link TuttiException} naming the
 * operation, the argument, its value and the allowed range, and the communicator stays usable.
 *
 * <p>Two kinds: an intracommunicator ({@link Communicator}) is one group whose ranks talk to each other; an
 * intercommunicator ({@link Intercommunicator}) joins two disjoint groups, and its point-to-point operations
 * address ranks of the <em>remote</em> group. Following Tutti's symmetric view, an intracommunicator is the case
 * where the two groups are the same group: {@link #remoteGroup()} is then {@link #group()}, and the symmetric
 * collectives ({@link #bcast(Buf, Buf, int, int)}, ...) mean on it exactly the ordinary collectives, so code
 * written against {@code Comm} runs on both kinds.
 *
 * <p>The library implements this interface and its subtypes: a program gets communicators from
 * {@link Tutti#world()} and the creation methods ({@link Communicator#split}, ...), and never implements them.
 *
 * <p>Every communicator owns a block of context ids agreed by its members when it was created (see
 * {@link #free()}); traffic on one communicator never matches on another.
 */
public interface Comm extends PointToPoint, BlockingCollectives, NonblockingCollectives, TaggedCollectives,
    PersistentCollectives {
    /** Receive from any source. */
    int ANY_SOURCE = -1;

    /** Receive with any tag. */
    int ANY_TAG = -1;

    /** The null process: a send to it or a receive from it completes at once and moves nothing. */
    int PROC_NULL = -2;

    /** The largest point-to-point tag. */
    int TAG_UB = Integer.MAX_VALUE;

    /** A color that puts the calling rank in no new communicator ({@link Communicator#split}), MPI_UNDEFINED. */
    int UNDEFINED = Group.UNDEFINED;

    /** @return this process's rank in the group, 0..size-1 */
    int rank();

    /** @return the number of ranks in the group */
    int size();

    /** @return the communicator's name, shown in error messages */
    String name();

    /**
     * Renames the communicator on this rank (MPI_Comm_set_name); later error messages show the new name.
     *
     * @param newName the name
     * @throws TuttiException of class {@link ErrorClass#ARG} if the name is null or blank
     */
    void setName(String newName);

    /** @return the local group: this rank's group, in rank order */
    Group group();

    /**
     * Returns the group that point-to-point operations address: for an intercommunicator the remote group; for an
     * intracommunicator the group itself (the two groups coincide).
     *
     * @return the remote group
     */
    Group remoteGroup();

    /** @return the size of the {@link #remoteGroup()}: the range of point-to-point destinations and sources */
    int remoteSize();

    /** @return whether this is an intercommunicator */
    boolean isInter();

    /**
     * Compares two communicators (MPI_Comm_compare).
     *
     * @param other the other communicator
     * @return {@link Group.Comparison#IDENT} for the same communicator; {@link Group.Comparison#CONGRUENT} for
     *         another communicator of the same kind whose groups (local, and remote for intercommunicators) have
     *         the same members in the same order; {@link Group.Comparison#SIMILAR} if the members are the same
     *         in another order; else {@link Group.Comparison#UNEQUAL}
     */
    Group.Comparison compare(Comm other);

    /**
     * Frees the communicator on this rank (MPI_Comm_free, collective): later calls on it fail with {@link
     * ErrorClass#COMM}. Its context ids are reused once every member has freed it and its traffic here is drained;
     * messages left unreceived on it are dropped and never reach a later one. Operations started before the free
     * (point-to-point, nonblocking, tagged and persistent collectives) complete normally; a persistent request of
     * it cannot be started again. The world cannot be freed.
     *
     * @throws TuttiException of class {@link ErrorClass#COMM} if the communicator is the world or is already freed
     */
    void free();

    /** @return whether {@link #free()} was called on this rank */
    boolean isFreed();
}
