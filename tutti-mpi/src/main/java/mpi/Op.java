package mpi;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A reduction operation: one of the predefined {@code MPI.MAX} ... {@code MPI.NO_OP}, or a user one built from a
 * {@link UserFunction}. Predefined operations map onto Tutti's ({@link dev.tutti.Op}); where Open MPI's meaning
 * differs from Tutti's for a type (unsigned {@code MPI.BYTE} in MAX/MIN, complex products, the pair types other than
 * {@code INT2}) the reduction runs through a kernel of this package. {@link Reductions} does the mapping.
 */
public final class Op implements Freeable {
    final String name;
    /** Tutti's operation for predefined ones, null for user ones and REPLACE/NO_OP. */
    final dev.tutti.Op tutti;
    final UserFunction function;
    private final boolean commute;
    private final boolean predefined;
    private volatile boolean freed;
    /** Tutti user operations built for this op, one per datatype it was used with. */
    final Map<Datatype, dev.tutti.Op> perType = new ConcurrentHashMap<>();
    /** The last reduction plan made for this op (see {@link Reductions#plan}); racy but immutable, so safe. */
    volatile Planned planned;

    /** A reduction plan with the datatype it was made for. */
    record Planned(Datatype type, Reductions.Plan plan) {
    }

    private Op(final String name, final dev.tutti.Op tutti) {
        this.name = name;
        this.tutti = tutti;
        this.function = null;
        this.commute = true;
        this.predefined = true;
    }

    /**
     * Builds a user operation; Tutti's operation is built at its first use.
     *
     * @param function the reduction
     * @param commute  whether it is commutative (if not, ranks' contributions are combined in rank order)
     */
    public Op(final UserFunction function, final boolean commute) {
        this.name = "user op";
        this.tutti = null;
        this.function = function;
        this.commute = commute;
        this.predefined = false;
    }

    /**
     * Builds a predefined operation.
     *
     * @param name  MPI's name
     * @param tutti Tutti's operation, or null for REPLACE and NO_OP
     * @return the operation
     */
    static Op predefined(final String name, final dev.tutti.Op tutti) {
        return new Op(name, tutti);
    }

    /** @return whether the operation is commutative (every predefined one is) */
    public boolean isCommutative() {
        return commute;
    }

    /** Frees a user operation; the handle becomes null. Freeing a predefined one is an ERR_OP error. */
    @Override
    public void free() throws MPIException {
        MPI.check();
        if (predefined) {
            throw new MPIException(MPI.ERR_OP, MpiErrors.string(MPI.ERR_OP),
                MpiErrors.error(MPI.ERR_OP, "free: " + name + " is predefined and cannot be freed"));
        }
        freed = true;
        perType.clear();
        planned = null;
    }

    /** @return whether the handle is null (freed) */
    public boolean isNull() {
        return freed;
    }

    /** @return whether this is a predefined operation */
    boolean isPredefined() {
        return predefined;
    }

    @Override
    public String toString() {
        return name;
    }
}
