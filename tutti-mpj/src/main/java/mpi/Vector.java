package mpi;

/**
 * Strided blocks of an old type: {@link Datatype#Vector} (stride in extents of the old type) and
 * {@link Datatype#Hvector} (stride in array elements).
 */
public class Vector extends Datatype {
    /**
     * @param count             blocks, {@code >= 0}
     * @param blockLength       items per block, {@code >= 0}
     * @param stride            distance of block starts
     * @param oldType           the item
     * @param unitsOfOldExtent  whether {@code stride} counts extents of {@code oldType} (else array elements)
     * @throws MPIException for a negative count or block length, or a null type
     */
    public Vector(final int count, final int blockLength, final int stride, final Datatype oldType,
        final boolean unitsOfOldExtent) throws MPIException {
        final String op = unitsOfOldExtent ? "Datatype.Vector" : "Datatype.Hvector";
        final Shape old = checkedOld(op, oldType);
        nonNegative(op, "count", count);
        nonNegative(op, "blocklength", blockLength);
        final int[] lengths = new int[count];
        final int[] starts = new int[count];
        for (int i = 0; i < count; i++) {
            lengths[i] = blockLength;
            starts[i] = Math.multiplyExact(i, unitsOfOldExtent ? Math.multiplyExact(stride, old.extent()) : stride);
        }
        this.baseType = oldType.baseType;
        this.shape = Shape.copies(Shape.blockCopies(lengths, starts, old.extent()), old);
    }
}
