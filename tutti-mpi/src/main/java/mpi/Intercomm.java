package mpi;

import dev.tutti.Intercommunicator;
import dev.tutti.ObjectRequest;

/**
 * An intercommunicator: two disjoint groups. Point-to-point ranks name processes of the remote group; the
 * collectives of {@link Comm} are MPI's intercommunicator collectives ({@code MPI.ROOT}/{@code MPI.PROC_NULL}
 * at the root's group).
 */
public final class Intercomm extends Comm {

    Intercomm(final dev.tutti.Comm handle, final CommState state) {
        super(handle, state);
    }

    Intercomm(final ObjectRequest<? extends dev.tutti.Comm> pending, final CommState state) {
        super(pending, state);
    }

    private Intercommunicator inter() {
        return (Intercommunicator) tc();
    }

    /** @return a duplicate; failures are wrapped in a RuntimeException */
    @Override
    public Intercomm clone() {
        return (Intercomm) super.clone();
    }

    /** @return a duplicate (MPI_Comm_dup) */
    @Override
    public Intercomm dup() throws MPIException {
        return (Intercomm) super.dup();
    }

    /** @return a duplicate made in the background (MPI_Comm_idup) */
    @Override
    public Intercomm iDup() throws MPIException {
        return (Intercomm) super.iDup();
    }

    /** @return a duplicate (MPI_Comm_dup_with_info) */
    @Override
    public Intercomm dupWithInfo(final Info info) throws MPIException {
        return (Intercomm) super.dupWithInfo(info);
    }

    /** @return the size of the remote group */
    public int getRemoteSize() throws MPIException {
        return get("MPI_Comm_remote_size", () -> inter().remoteSize());
    }

    /** @return the remote group */
    public Group getRemoteGroup() throws MPIException {
        return get("MPI_Comm_remote_group", () -> new Group(inter().remoteGroup()));
    }

    /**
     * Merges both groups into an intracommunicator (MPI_Intercomm_merge).
     *
     * @param high whether this group's processes come after the other group's
     * @return the intracommunicator
     */
    public Intracomm merge(final boolean high) throws MPIException {
        return get("MPI_Intercomm_merge", () -> new Intracomm(inter().merge(high), state().derive("merged")));
    }

    /** @return a null intercommunicator: Tutti does not spawn, so no process has a parent */
    public static Intercomm getParent() throws MPIException {
        MPI.check();
        return new Intercomm((dev.tutti.Comm) null, new CommState("MPI_COMM_NULL"));
    }
}
