package mpi;

/**
 * A user reduction function, given to {@code new Op(function, commute)}. {@link #Call} must combine {@code invec}
 * into {@code inoutvec}: {@code inoutvec[i] = invec[i] op inoutvec[i]} for the items from the offsets on. Here
 * {@code invec} is always the lower-ranked operand, as MPI defines it, so non-commutative operations give MPI's
 * result.
 */
public abstract class User_function {
    /** For subclasses. */
    public User_function() {
    }

    /**
     * Combines {@code invec} into {@code inoutvec}.
     *
     * @param invec       the left operand: an array of the datatype's base type ({@code Object[]} for OBJECT)
     * @param inoffset    where its items start
     * @param inoutvec    the right operand, overwritten with the result
     * @param inoutoffset where its items start
     * @param count       the number of items of {@code datatype}
     * @param datatype    the datatype given to the collective (the same object)
     * @throws MPIException as the function wishes
     */
    public abstract void Call(Object invec, int inoffset, Object inoutvec, int inoutoffset, int count,
        Datatype datatype) throws MPIException;
}
