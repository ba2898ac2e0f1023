package mpi;

/**
 * Blocks of an old type at given displacements: {@link Datatype#Indexed} (displacements in extents of the old
 * type) and {@link Datatype#Hindexed} (in array elements).
 */
public class Indexed extends Datatype {
    /**
     * @param array_of_blocklengths  items per block
     * @param array_of_displacements block starts
     * @param oldType                the item
     * @param unitsOfOldExtent       whether displacements count extents of {@code oldType} (else array elements)
     * @throws MPIException if the arrays are null or of different lengths, a length is negative, or the type null
     */
    public Indexed(final int[] array_of_blocklengths, final int[] array_of_displacements, final Datatype oldType,
        final boolean unitsOfOldExtent) throws MPIException {
        final String op = unitsOfOldExtent ? "Datatype.Indexed" : "Datatype.Hindexed";
        final Shape old = checkedOld(op, oldType);
        sameLength(op, array_of_blocklengths, array_of_displacements);
        final int[] starts = new int[array_of_displacements.length];
        for (int i = 0; i < starts.length; i++) {
            starts[i] = unitsOfOldExtent ? Math.multiplyExact(array_of_displacements[i], old.extent())
                : array_of_displacements[i];
        }
        this.baseType = oldType.baseType;
        this.shape = Shape.copies(Shape.blockCopies(array_of_blocklengths, starts, old.extent()), old);
    }
}
