package mpi;

import dev.tutti.Intercommunicator;

/**
 * An intercommunicator between two groups (from {@link Comm#Create_intercomm}): {@code Size}, {@code Rank} and
 * {@code Group} describe the local group, {@link #Remote_size()} and {@link #Remote_group()} the other; the ranks
 * of point-to-point calls are the other group's.
 */
public class Intercomm extends Comm {
    Intercomm(final Intercommunicator c) {
        super(Kind.FIXED, c);
    }

    private Intercommunicator inter(final String call) {
        return (Intercommunicator) tc(call);
    }

    /**
     * @return the size of the other group
     * @throws MPIException if MPI is not initialized
     */
    public int Remote_size() throws MPIException {
        return inter("Intercomm.Remote_size").remoteSize();
    }

    /**
     * @return the other group
     * @throws MPIException if MPI is not initialized
     */
    public Group Remote_group() throws MPIException {
        return new Group(inter("Intercomm.Remote_group").remoteGroup());
    }

    /**
     * Merges the two groups into one intracommunicator; collective over both groups only.
     *
     * @param high whether the caller's group comes after the other's
     * @return the merged communicator
     * @throws MPIException for a failed peer
     */
    public Intracomm Merge(final boolean high) throws MPIException {
        final Intercommunicator c = inter("Intercomm.Merge");
        try {
            return new Intracomm(Kind.FIXED, c.merge(high));
        } catch (final RuntimeException e) {
            throw Fail.wrap("Intercomm.Merge", e);
        }
    }

    /**
     * @return a new intercommunicator between the same groups
     * @throws MPIException for a failed peer
     */
    @Override
    public Object clone() throws MPIException {
        final Intercommunicator c = inter("Intercomm.clone");
        try {
            return new Intercomm(c.dup());
        } catch (final RuntimeException e) {
            throw Fail.wrap("Intercomm.clone", e);
        }
    }
}
