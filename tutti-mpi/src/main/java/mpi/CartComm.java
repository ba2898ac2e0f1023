package mpi;

/** A topology communicator; not built yet ({@link Intracomm} refuses to create one). */
public final class CartComm extends Intracomm {
    private CartComm() {
        super((dev.tutti.Comm) null, new CommState("MPI_COMM_NULL"));
    }
}
