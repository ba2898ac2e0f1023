package mpi;

import dev.tutti.Communicator;
import dev.tutti.ObjectRequest;

/**
 * The topology a {@link CartComm} or {@link GraphComm} carries: its kind, the neighbours of the calling process
 * in MPI's order, and a private communicator (a duplicate of the topology communicator, made when it was created)
 * that carries the neighbour collectives, so that they never meet the user's messages.
 *
 * <p>Implementation note: neighbour messages are matched by tag. On a Cartesian topology a process's neighbours in
 * dimension {@code d} are slots {@code 2d} (at {@code -1}) and {@code 2d + 1} (at {@code +1}); a message sent to
 * slot {@code j} carries tag {@code j}, and slot {@code 2d} receives tag {@code 2d + 1} (what the neighbour sent
 * towards {@code +1}), slot {@code 2d + 1} tag {@code 2d}. That keeps the two directions apart where both
 * neighbours are one process (a periodic dimension of size 1 or 2). Graph topologies use tag 0 for every edge:
 * several edges between two processes are matched in order, as MPI's non-overtaking rule orders them.
 */
final class Topology {
    /** The kind, as {@link Comm#getTopology()} reports it. */
    final int kind;
    /** Where neighbour blocks come from, in order; {@code MPI.PROC_NULL} at a non-periodic edge. */
    final int[] sources;
    /** Where neighbour blocks go, in order. */
    final int[] destinations;
    private final boolean cartesian;
    private volatile dev.tutti.Comm traffic;
    private volatile ObjectRequest<Communicator> pending;

    Topology(final int kind, final int[] sources, final int[] destinations, final Communicator traffic) {
        this.kind = kind;
        this.sources = sources;
        this.destinations = destinations;
        this.cartesian = MPI.CART == kind;
        this.traffic = traffic;
    }

    private Topology(final Topology t, final ObjectRequest<Communicator> pending) {
        this(t.kind, t.sources, t.destinations, null);
        this.pending = pending;
    }

    /** @return the private communicator of the neighbour collectives */
    dev.tutti.Comm traffic() {
        dev.tutti.Comm c = traffic;
        if (null == c) {
            final ObjectRequest<Communicator> p = pending;
            if (null == p) {
                throw MpiErrors.error(MPI.ERR_COMM, "the topology communicator is null or freed");
            }
            c = p.get();
            traffic = c;
            pending = null;
        }
        return c;
    }

    /** @return the tag of what is sent to neighbour slot {@code j} */
    int sendTag(final int j) {
        return cartesian ? j : 0;
    }

    /** @return the tag slot {@code j} receives */
    int recvTag(final int j) {
        return cartesian ? j ^ 1 : 0;
    }

    /** @return a copy over a duplicate of the private communicator (collective, as MPI_Comm_dup) */
    Topology dup() {
        return new Topology(kind, sources, destinations, ((Communicator) traffic()).dup());
    }

    /** @return a copy whose private communicator is duplicated in the background (MPI_Comm_idup) */
    Topology idup() {
        return new Topology(this, ((Communicator) traffic()).idup());
    }

    /** Frees the private communicator (with the topology communicator). */
    void free() {
        final dev.tutti.Comm c = traffic();
        traffic = null;
        c.free();
    }
}
