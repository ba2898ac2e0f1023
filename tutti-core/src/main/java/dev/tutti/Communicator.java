package dev.tutti;

/**
 * An intracommunicator: a group of ranks with point-to-point messaging ({@link PointToPoint}) and every MPI
 * collective over {@link Buf} buffers, blocking ({@link BlockingCollectives}), nonblocking
 * ({@link NonblockingCollectives}, {@code i...}, returning a {@link Request}) and tagged two-phase
 * ({@link TaggedCollectives}), the prefix reductions ({@link ScanCollectives}), plus object collectives in
 * mpi4py's lowercase style ({@link ObjectCollectives}: {@code bcastObject}, {@code allreduceObject}, ...).
 *
 * <p>Ordering rule (MPI): ordinary collectives are matched by call order, so every rank of the group must call
 * the collectives of a communicator in the same order (nonblocking ones by their start). Several nonblocking
 * collectives may be outstanding at once, and point-to-point traffic may be interleaved freely; it never matches
 * collective traffic. When several threads of a rank start collectives on one communicator, the program must order
 * them itself, or use the tagged two-phase forms ({@code allreduceBegin(..., tag)} ...
 * {@link CollectiveHandle#end()}), which are matched by (kind, tag) instead of call order and may be begun in any
 * order from any thread.
 *
 * <p>The algorithm of each call is chosen by group size and message size (see
 * {@code dev.tutti.coll.SelectionTable}); it can be forced with the setting {@code tutti.coll.<operation>}, e.g.
 * {@code -Dtutti.coll.allreduce=ring}, or {@link Tutti.Options#algorithm}.
 *
 * <p>Communicator management (MPI-4.1 §7.4), this type's own part: {@link #dup()}, {@link #idup()},
 * {@link #split}, {@link #splitType}, {@link #create} and {@link #createGroup} build new communicators with their
 * own context ids, agreed by their members (see {@code dev.tutti.comm.ContextIdAllocator}); {@link #createIntercomm}
 * joins two groups; {@link #free()} returns the ids. Every creation except {@link #createGroup} is a collective call
 * on this communicator and takes its place in the collective call order.
 */
public interface Communicator extends Comm, ScanCollectives, ObjectCollectives {
    /** Process kinds for {@link #splitType}. */
    public enum SplitType {
        /** Ranks that can share memory: the same host (every rank of an embedded, in-JVM job is on one host). */
        SHARED
    }

    /** Setting that gives the host id of a rank that shares memory with no other, for {@link #splitType} and the
     *  node-aware collectives (default: the host name). */
    String HOST_ID_PROP_NAME = dev.tutti.internal.Settings.HOST_ID.name();

    /**
     * Duplicates the communicator (MPI_Comm_dup): the same group in the same order, with its own context ids, so
     * that a library can talk on it without ever matching the caller's messages. Collective.
     *
     * @return the new communicator, named {@code <name>/dup#<block>}
     * @throws TuttiException of class {@link ErrorClass#COMM} if no context ids are free at every member, or if a
     *                        peer failed
     */
    Communicator dup();

    /**
     * Starts a duplication (MPI_Comm_idup) and returns at once. The call takes its place in the collective order
     * when it starts; other collectives may follow before it completes.
     *
     * <pre>{@code
     * ObjectRequest<Communicator> r = world.idup();
     * world.allreduce(...);                 // overlaps with the duplication
     * Communicator lib = r.get();
     * }</pre>
     *
     * @return a request whose {@link ObjectRequest#get()} waits and returns the new communicator
     * @throws TuttiException of class {@link ErrorClass#COMM} if this communicator is freed
     */
    ObjectRequest<Communicator> idup();

    /**
     * Splits the communicator (MPI_Comm_split): ranks that pass the same {@code color} form a new communicator,
     * ordered by {@code key} and then by their rank here. Collective.
     *
     * @param color a non-negative color, or {@link #UNDEFINED} to join no new communicator
     * @param key   the ordering key
     * @return the new communicator of this rank's color, or null for {@code UNDEFINED}
     * @throws TuttiException of class {@link ErrorClass#ARG} for a negative color other than {@code UNDEFINED};
     *                        of class {@link ErrorClass#COMM} if no context ids are free
     */
    Communicator split(int color, int key);

    /**
     * Splits by kind of process (MPI_Comm_split_type): with {@link SplitType#SHARED}, ranks on the same host form
     * one communicator, ordered by {@code key} then rank. The hosts are those the job learnt at {@code init}, which
     * the node-aware collectives use too: the ranks that share memory are one host; a rank that shares memory with
     * no other (a host of one rank, or {@code tutti.transport=tcp}) is on the host of the ranks with its host id
     * (the setting {@code tutti.host.id}, else the host name); a fake layout ({@code tutti.host.layout},
     * {@link Tutti.Options#hosts}) places the ranks as it says. So ranks on different machines that share a host
     * name (containers, network namespaces) are different hosts. Every rank of an embedded (in-JVM) job without a
     * fake layout is on one host. Collective.
     *
     * @param type the kind
     * @param key  the ordering key
     * @return the communicator of this rank's host
     * @throws TuttiException of class {@link ErrorClass#ARG} for a null type
     */
    Communicator splitType(SplitType type, int key);

    /**
     * Creates a communicator of the ranks of {@code group} (MPI_Comm_create), in the group's order. Collective
     * over this whole communicator: every rank passes the same group; ranks outside it get null.
     *
     * @param group a subgroup of this communicator's group
     * @return the new communicator, or null on ranks outside the group
     * @throws TuttiException of class {@link ErrorClass#RANK} if the group has a process that is not a member
     *                        here; of class {@link ErrorClass#COMM} if no context ids are free
     */
    Communicator create(Group group);

    /**
     * Creates a communicator of the ranks of {@code group}, collective over the group only (MPI-3
     * MPI_Comm_create_group): only its members call, the others go on with their work. Concurrent calls on
     * overlapping groups must use different tags.
     *
     * @param group a subgroup of this communicator's group that contains the calling rank
     * @param tag   distinguishes concurrent calls, {@code 0..TAG_UB}
     * @return the new communicator
     * @throws TuttiException of class {@link ErrorClass#RANK} if the calling rank is not in the group or the
     *                        group has a process that is not a member here; of class {@link ErrorClass#TAG} for
     *                        a negative tag
     */
    Communicator createGroup(Group group, int tag);

    /**
     * Creates an intercommunicator between this communicator's group and another, disjoint group
     * (MPI_Intercomm_create). Collective over this communicator, whose ranks all pass the same
     * {@code localLeader}; the two leaders talk through {@code peerComm}, a communicator that holds both of them
     * (often the world), using {@code tag}. The context ids are agreed by every rank of both groups.
     *
     * <pre>{@code
     * Communicator half = world.split(world.rank() % 2, 0);                  // evens and odds
     * Intercommunicator inter = half.createIntercomm(0, world, 1 - world.rank() % 2, 99);
     * }</pre>
     *
     * @param localLeader  the rank of this group's leader, here
     * @param peerComm     at the local leader, a communicator holding both leaders; ignored elsewhere (may be
     *                     null)
     * @param remoteLeader at the local leader, the rank of the other group's leader in {@code peerComm}
     * @param tag          the tag of the leaders' messages, {@code 0..TAG_UB}; distinguishes concurrent creations
     * @return the intercommunicator; its local group is this communicator's group
     * @throws TuttiException of class {@link ErrorClass#RANK} for a leader out of range; of class
     *                        {@link ErrorClass#ARG} if the groups overlap; of class {@link ErrorClass#COMM} if
     *                        no context ids are free at every rank of both groups
     */
    Intercommunicator createIntercomm(int localLeader, Comm peerComm, int remoteLeader,
        int tag);
}
