package mpi;

/**
 * A reduction operator: one of the predefined ones ({@code MPI.SUM}, ..., {@code MPI.MAXLOC}; {@link #opCode} 1 to
 * 12) or a user one ({@code new Op(function, commute)}, {@link #opCode} -1).
 *
 * <p>Implementation note: a predefined operator maps onto Tutti's own (reduced in Tutti's kernels); a user one
 * runs its {@link User_function} on whole operands through Tutti's object reductions, which apply it in rank order.
 */
public class Op {
    /** 1..12 for MAX MIN SUM PROD LAND BAND LOR BOR LXOR BXOR MAXLOC MINLOC, -1 for a user operator. */
    public int opCode;

    final User_function function;
    final boolean commute;
    /** Tutti's operator for a predefined one, else null. */
    final dev.tutti.Op predefined;

    /**
     * A user operator.
     *
     * @param function the function
     * @param commute  whether it is commutative
     * @throws MPIException if {@code function} is null
     */
    public Op(final User_function function, final boolean commute) throws MPIException {
        this(function, commute, -1);
    }

    /**
     * A user operator with a code of its own choosing.
     *
     * @param function the function
     * @param commute  whether it is commutative
     * @param opCode_  the code to report in {@link #opCode}
     * @throws MPIException if {@code function} is null
     */
    public Op(final User_function function, final boolean commute, final int opCode_) throws MPIException {
        if (null == function) {
            throw new MPIException("new Op: function=null (expected a User_function)");
        }
        this.function = function;
        this.commute = commute;
        this.opCode = opCode_;
        this.predefined = null;
    }

    Op(final dev.tutti.Op predefined, final int opCode, final User_function function) {
        this.predefined = predefined;
        this.opCode = opCode;
        this.function = function;
        this.commute = true;
    }

    /** @return whether this is MAXLOC or MINLOC, which reduce (value, index) pairs */
    final boolean isLocation() {
        return dev.tutti.Op.MAXLOC == predefined || dev.tutti.Op.MINLOC == predefined;
    }

    /**
     * Frees the operator: nothing to release.
     *
     * @throws MPIException never; declared as in MPJ Express
     */
    public void free() throws MPIException {
        // nothing held
    }

    /**
     * Nothing to release.
     *
     * @throws MPIException never; declared as in MPJ Express
     */
    @Override
    @SuppressWarnings({"removal", "deprecation"})
    public void finalize() throws MPIException {
        // nothing held outside the Java heap
    }

    @Override
    public String toString() {
        return null != predefined ? "MPI." + predefined.name() : "Op(user" + (commute ? ")" : ", non-commutative)");
    }
}
