package mpi;

/**
 * The function of {@code MPI.MINLOC} over (value, index) pairs of SHORT2, INT2, LONG2, FLOAT2 or DOUBLE2: keeps the
 * smaller value and its index; on a tie, the lower index.
 */
public class Minloc extends User_function {
    /** The function. */
    public Minloc() {
    }

    @Override
    public void Call(final Object invec, final int inoffset, final Object outvec, final int outoffset,
        final int count, final Datatype datatype) {
        Pairs.combine("MPI.MINLOC", false, invec, inoffset, outvec, outoffset, count * datatype.shape().size() / 2);
    }
}
