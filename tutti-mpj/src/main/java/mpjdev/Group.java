package mpjdev;

/**
 * The type of MPJ Express's public implementation field {@code mpi.Group#mpjdevGroup}. Tutti keeps
 * its state elsewhere, so this class is only a name: no program creates or reads one.
 */
public final class Group {
    private Group() {
    }
}
