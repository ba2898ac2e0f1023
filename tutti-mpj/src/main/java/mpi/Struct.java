package mpi;

import java.util.Arrays;

/**
 * Blocks of several component types at displacements in array elements ({@link Datatype#Struct}). All components
 * share one base type (one Java array holds them); {@code MPI.LB} and {@code MPI.UB} entries mark the bounds.
 */
public class Struct extends Datatype {
    /**
     * @param array_of_blocklengths  items per block
     * @param array_of_displacements block starts in array elements
     * @param array_of_types         the item of each block
     * @throws MPIException if the base types differ ("Base types of all component types in a Struct must agree"),
     *                      or the arrays are null, of different lengths, or hold a null type
     */
    public Struct(final int[] array_of_blocklengths, final int[] array_of_displacements,
        final Datatype[] array_of_types) throws MPIException {
        this(build(array_of_blocklengths, array_of_displacements, array_of_types));
    }

    private Struct(final Shape s) {
        this.baseType = s.base.code;
        this.shape = s;
    }

    private static Shape build(final int[] lengths, final int[] disps, final Datatype[] types) {
        final String op = "Datatype.Struct";
        sameLength(op, lengths, disps);
        if (null == types || types.length != lengths.length) {
            throw new MPIException(op + ": array_of_types has " + (null == types ? "null" : types.length + " entries")
                + " (expected " + lengths.length + ", one per block)");
        }
        Base base = null;
        int[] map = new int[0];
        int lb = 0;
        int ub = 0;
        boolean any = false;
        Integer lbMark = null;
        Integer ubMark = null;
        for (int i = 0; i < types.length; i++) {
            final Shape t = checkedOld(op, types[i]);
            if (MPI.LB == types[i]) {
                lbMark = null == lbMark ? disps[i] : Math.min(lbMark, disps[i]);
                continue;
            }
            if (MPI.UB == types[i]) {
                ubMark = null == ubMark ? disps[i] : Math.max(ubMark, disps[i]);
                continue;
            }
            if (null != base && base != t.base) {
                throw new MPIException(op + ": Base types of all component types in a Struct must agree (block 0.."
                    + (i - 1) + " has " + base + ", block " + i + " has " + t.base + ")");
            }
            base = t.base;
            if (0 == lengths[i]) {
                continue;
            }
            final Shape block = Shape.copies(Shape.blockCopies(new int[] {lengths[i]}, new int[] {disps[i]},
                t.extent()), t);
            final int from = map.length;
            map = Arrays.copyOf(map, from + block.size());
            System.arraycopy(block.map, 0, map, from, block.size());
            lb = any ? Math.min(lb, block.lb) : block.lb;
            ub = any ? Math.max(ub, block.ub) : block.ub;
            any = true;
        }
        return new Shape(null == base ? Base.NULL : base, map, null != lbMark ? lbMark : lb,
            null != ubMark ? ubMark : ub);
    }
}
