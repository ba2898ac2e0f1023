package mpi;

/**
 * The function of {@code MPI.MAXLOC} over (value, index) pairs of SHORT2, INT2, LONG2, FLOAT2 or DOUBLE2: keeps the
 * larger value and its index; on a tie, the lower index.
 */
public class Maxloc extends User_function {
    /** The function. */
    public Maxloc() {
    }

    @Override
    public void Call(final Object invec, final int inoffset, final Object outvec, final int outoffset,
        final int count, final Datatype datatype) {
        Pairs.combine("MPI.MAXLOC", true, invec, inoffset, outvec, outoffset, count * datatype.shape().size() / 2);
    }
}
