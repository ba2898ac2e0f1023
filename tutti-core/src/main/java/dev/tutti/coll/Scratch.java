package dev.tutti.coll;

import dev.tutti.Datatype;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Temporary memory for schedules: heap arrays when they fit, else native memory freed by the GC.
 *
 * <p>Scratch that a reduction reads or writes is an array of the elements' own primitive type
 * ({@link #allocate(long, Datatype)}): the reduction kernels run their loop on the arrays themselves when both
 * operands are arrays of the element type at the same index, and otherwise copy both through per-thread staging
 * chunks (see {@code dev.tutti.type.kernel.Kernels}). A user's {@code float[]} reduced with a {@code byte[]}
 * scratch would always take the staged way.
 */
public final class Scratch {
    private static final long HEAP_LIMIT = Integer.MAX_VALUE - 64;

    private Scratch() {
    }

    /**
     * Allocates zeroed scratch memory.
     *
     * @param bytes the size
     * @return the segment
     */
    public static MemorySegment allocate(final long bytes) {
        if (bytes <= HEAP_LIMIT) {
            return MemorySegment.ofArray(new byte[(int) bytes]);
        }
        return Arena.ofAuto().allocate(bytes, 8);
    }

    /**
     * Allocates zeroed scratch memory for elements of {@code type}: an array of its primitive type (its
     * component's, for a pair type), else as {@link #allocate(long)}.
     *
     * @param bytes the size, a multiple of the type's size
     * @param type  the element type
     * @return the segment
     */
    public static MemorySegment allocate(final long bytes, final Datatype type) {
        if (bytes > HEAP_LIMIT || 0 != bytes % type.sizeBytes()) {
            return allocate(bytes);
        }
        return switch (type) {
            case SHORT -> MemorySegment.ofArray(new short[(int) (bytes / Short.BYTES)]);
            case CHAR -> MemorySegment.ofArray(new char[(int) (bytes / Character.BYTES)]);
            case INT, INT_PAIR -> MemorySegment.ofArray(new int[(int) (bytes / Integer.BYTES)]);
            case FLOAT, FLOAT_PAIR -> MemorySegment.ofArray(new float[(int) (bytes / Float.BYTES)]);
            case LONG, LONG_PAIR -> MemorySegment.ofArray(new long[(int) (bytes / Long.BYTES)]);
            case DOUBLE, DOUBLE_PAIR -> MemorySegment.ofArray(new double[(int) (bytes / Double.BYTES)]);
            default -> allocate(bytes);
        };
    }
}
