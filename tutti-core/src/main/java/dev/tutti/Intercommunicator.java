package dev.tutti;
/**
 * An intercommunicator: two disjoint groups, the local one (this rank's) and the remote one. Point-to-point
 * operations address ranks of the <em>remote</em> group ({@code send(buf, 2, tag)} goes to remote rank 2;
 * {@link #rank()} and {@link #size()} are the local group's, {@link #remoteSize()} the remote's). Created by
 * {@link Communicator#createIntercomm}; {@link #merge} turns it into an intracommunicator.
 *
 * <p><b>Collectives, MPI's standard forms</b> (MPI-4.1 §6.2.2). Rooted ones are one-way: the group that holds
 * the root passes {@link #ROOT} at the root and {@link #PROC_NULL} at its other ranks; the other group passes the
 * root's rank (in the remote group). Non-rooted ones are two-way: {@link #allgather} gives each rank the remote
 * group's blocks, {@link #allreduce} the reduction of the remote group's vectors, {@link #alltoall} exchanges a
 * block with every remote rank, and so on. Buffers are never {@link Buf#IN_PLACE} on an intercommunicator.
 *
 * <p><b>Symmetric collectives</b> (Tutti's extension, DESIGN.md §1.3): each group is sender and receiver at
 * once. In the rooted ones every rank names its own group's root and the remote group's root, and data flows
 * both ways in one call: {@link #bcast(Buf, Buf, int, int)} takes the local root's {@code send} to every remote
 * rank and brings the remote root's data to every local rank's {@code recv}; {@link #scatter(Buf, Buf, int,
 * int)}, {@link #gather(Buf, Buf, int, int)} and {@link #reduce(Buf, Buf, Op, int, int)} likewise. Each
 * direction has its own count and type (a null buffer is an empty direction); the non-rooted collectives above
 * are already symmetric in this sense. MPI's one-way forms are exactly the symmetric forms with one direction
 * empty, and are implemented that way; on an intracommunicator the same calls ({@link Comm#bcast(Buf, Buf, int,
 * int)}, ...) are the ordinary collectives, so code written against {@link Comm} serves both.
 *
 * <pre>{@code
 * // Producers (group A) and consumers (group B) of a pipeline swap their headers and sizes in one call:
 * int[] theirs = new int[4];
 * inter.bcast(Buf.of(myHeader), Buf.of(theirs), 0, 0);      // A's rank 0 -> all of B, B's rank 0 -> all of A
 * }</pre>
 *
 * <p>Ordering: as for intracommunicators, both groups must call the collectives of an intercommunicator in the
 * same order. Cost: see {@code dev.tutti.coll.inter.InterAlgorithms}; a symmetric call costs about one one-way
 * call, because the two directions proceed in parallel.
 */
public interface Intercommunicator extends Comm {
    /** The root argument of the rank that is the root of a one-way rooted collective (MPI_ROOT). */
    int ROOT = -3;

    /**
     * Merges the two groups into an intracommunicator (MPI_Intercomm_merge). The group whose ranks pass
     * {@code high = false} comes first; if both groups pass the same value, the group whose rank 0 has the lower
     * world rank comes first. Collective over both groups; every rank of a group passes the same value.
     *
     * @param high whether this group goes last
     * @return the merged communicator
     * @throws TuttiException of class {@link ErrorClass#COMM} if no context ids are free, or a failed peer
     */
    Communicator merge(boolean high);

    /**
     * Duplicates the intercommunicator: the same two groups, new context ids. Collective over both groups.
     *
     * @return the duplicate
     * @throws TuttiException of class {@link ErrorClass#COMM} if no context ids are free, or a failed peer
     */
    Intercommunicator dup();

    /**
     * Starts a duplication and returns at once (MPI_Comm_idup); ordered among the collectives where it starts.
     *
     * @return a request whose {@link ObjectRequest#get()} returns the duplicate
     * @throws TuttiException of class {@link ErrorClass#COMM} if this intercommunicator is freed
     */
    ObjectRequest<Intercommunicator> idup();

    /**
     * Splits the intercommunicator (MPI_Comm_split): the ranks of each group that pass the same color form the
     * two groups of a new intercommunicator, each ordered by key then rank. Collective over both groups.
     *
     * @param color a non-negative color, or {@link #UNDEFINED}
     * @param key   the ordering key within the group
     * @return the new intercommunicator, or null for {@code UNDEFINED} or a color that no remote rank chose
     * @throws TuttiException of class {@link ErrorClass#ARG} for a negative color other than {@code UNDEFINED}
     */
    Intercommunicator split(int color, int key);
}
