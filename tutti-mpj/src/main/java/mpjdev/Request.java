package mpjdev;

/**
 * The type of MPJ Express's public implementation field {@code mpi.Request#req}. Tutti keeps
 * its state elsewhere, so this class is only a name: no program creates or reads one.
 */
public final class Request {
    private Request() {
    }
}
