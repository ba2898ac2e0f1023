package mpjbuf;

/**
 * The write side of {@link Buffer}: the methods that append elements to its current section, contiguously
 * ({@code write}), gathered by index ({@code gather}) or from a strided patch ({@code strGather}), one of each for
 * every element type of mpiJava's {@code mpjbuf.Buffer}. Programs call them on a {@code Buffer}, the one public class;
 * the read side, the buffer's storage and its sections stay there.
 *
 * <p>Implementation note: each method checks where its elements lie ({@link Placement}) and hands them to the
 * buffer's {@link Sections}, which checks the section's type and the capacity and copies them; no state here.
 */
abstract class SectionWrites {
    /** @return the buffer's sections (made at the first use) */
    abstract Sections sections();

    /**
     * Appends {@code numEls} elements of {@code source} from {@code srcOff} to the current section.
     *
     * @param source the elements
     * @param srcOff the first element's index
     * @param numEls the number of elements
     * @throws IllegalArgumentException if the section is of another type, or the elements are out of the array
     * @throws IllegalStateException    if the buffer is committed or full
     */
    public void write(final byte[] source, final int srcOff, final int numEls) {
        sections().put("write", source, Placement.contiguous(srcOff, numEls));
    }

    /**
     * Appends {@code source[indexes[offs + i]]} for {@code i < numEls} to the current section.
     *
     * @param source  the elements
     * @param numEls  the number of elements
     * @param offs    the first entry of {@code indexes} used
     * @param indexes the elements' indexes
     * @throws IllegalArgumentException as {@link #write(byte[], int, int)}, or for indexes out of range
     */
    public void gather(final byte[] source, final int numEls, final int offs, final int[] indexes) {
        sections().put("gather", source, Placement.listed("gather", indexes, offs, numEls));
    }

    /**
     * Appends a multi-dimensional strided patch of {@code source} to the current section: {@code rank}
     * dimensions with extents {@code shape[exts + d]} and strides {@code shape[strs + d]}, the first dimension
     * outermost, from element {@code srcOff}.
     *
     * @param source the elements
     * @param srcOff the patch's first element
     * @param rank   the number of dimensions
     * @param exts   where the extents start in {@code shape}
     * @param strs   where the strides start in {@code shape}
     * @param shape  the extents and strides
     * @throws IllegalArgumentException as {@link #write(byte[], int, int)}, or for a malformed shape
     */
    public void strGather(final byte[] source, final int srcOff, final int rank, final int exts, final int strs,
        final int[] shape) {
        sections().put("strGather", source, Placement.strided("strGather", srcOff, rank, exts, strs, shape));
    }

    /**
     * Appends {@code numEls} elements of {@code source} from {@code srcOff} to the current section.
     *
     * @param source the elements
     * @param srcOff the first element's index
     * @param numEls the number of elements
     * @throws IllegalArgumentException if the section is of another type, or the elements are out of the array
     * @throws IllegalStateException    if the buffer is committed or full
     */
    public void write(final char[] source, final int srcOff, final int numEls) {
        sections().put("write", source, Placement.contiguous(srcOff, numEls));
    }

    /**
     * Appends {@code source[indexes[offs + i]]} for {@code i < numEls} to the current section.
     *
     * @param source  the elements
     * @param numEls  the number of elements
     * @param offs    the first entry of {@code indexes} used
     * @param indexes the elements' indexes
     * @throws IllegalArgumentException as {@link #write(char[], int, int)}, or for indexes out of range
     */
    public void gather(final char[] source, final int numEls, final int offs, final int[] indexes) {
        sections().put("gather", source, Placement.listed("gather", indexes, offs, numEls));
    }

    /**
     * Appends a multi-dimensional strided patch of {@code source} to the current section: {@code rank}
     * dimensions with extents {@code shape[exts + d]} and strides {@code shape[strs + d]}, the first dimension
     * outermost, from element {@code srcOff}.
     *
     * @param source the elements
     * @param srcOff the patch's first element
     * @param rank   the number of dimensions
     * @param exts   where the extents start in {@code shape}
     * @param strs   where the strides start in {@code shape}
     * @param shape  the extents and strides
     * @throws IllegalArgumentException as {@link #write(char[], int, int)}, or for a malformed shape
     */
    public void strGather(final char[] source, final int srcOff, final int rank, final int exts, final int strs,
        final int[] shape) {
        sections().put("strGather", source, Placement.strided("strGather", srcOff, rank, exts, strs, shape));
    }

    /**
     * Appends {@code numEls} elements of {@code source} from {@code srcOff} to the current section.
     *
     * @param source the elements
     * @param srcOff the first element's index
     * @param numEls the number of elements
     * @throws IllegalArgumentException if the section is of another type, or the elements are out of the array
     * @throws IllegalStateException    if the buffer is committed or full
     */
    public void write(final short[] source, final int srcOff, final int numEls) {
        sections().put("write", source, Placement.contiguous(srcOff, numEls));
    }

    /**
     * Appends {@code source[indexes[offs + i]]} for {@code i < numEls} to the current section.
     *
     * @param source  the elements
     * @param numEls  the number of elements
     * @param offs    the first entry of {@code indexes} used
     * @param indexes the elements' indexes
     * @throws IllegalArgumentException as {@link #write(short[], int, int)}, or for indexes out of range
     */
    public void gather(final short[] source, final int numEls, final int offs, final int[] indexes) {
        sections().put("gather", source, Placement.listed("gather", indexes, offs, numEls));
    }

    /**
     * Appends a multi-dimensional strided patch of {@code source} to the current section: {@code rank}
     * dimensions with extents {@code shape[exts + d]} and strides {@code shape[strs + d]}, the first dimension
     * outermost, from element {@code srcOff}.
     *
     * @param source the elements
     * @param srcOff the patch's first element
     * @param rank   the number of dimensions
     * @param exts   where the extents start in {@code shape}
     * @param strs   where the strides start in {@code shape}
     * @param shape  the extents and strides
     * @throws IllegalArgumentException as {@link #write(short[], int, int)}, or for a malformed shape
     */
    public void strGather(final short[] source, final int srcOff, final int rank, final int exts, final int strs,
        final int[] shape) {
        sections().put("strGather", source, Placement.strided("strGather", srcOff, rank, exts, strs, shape));
    }

    /**
     * Appends {@code numEls} elements of {@code source} from {@code srcOff} to the current section.
     *
     * @param source the elements
     * @param srcOff the first element's index
     * @param numEls the number of elements
     * @throws IllegalArgumentException if the section is of another type, or the elements are out of the array
     * @throws IllegalStateException    if the buffer is committed or full
     */
    public void write(final boolean[] source, final int srcOff, final int numEls) {
        sections().put("write", source, Placement.contiguous(srcOff, numEls));
    }

    /**
     * Appends {@code source[indexes[offs + i]]} for {@code i < numEls} to the current section.
     *
     * @param source  the elements
     * @param numEls  the number of elements
     * @param offs    the first entry of {@code indexes} used
     * @param indexes the elements' indexes
     * @throws IllegalArgumentException as {@link #write(boolean[], int, int)}, or for indexes out of range
     */
    public void gather(final boolean[] source, final int numEls, final int offs, final int[] indexes) {
        sections().put("gather", source, Placement.listed("gather", indexes, offs, numEls));
    }

    /**
     * Appends a multi-dimensional strided patch of {@code source} to the current section: {@code rank}
     * dimensions with extents {@code shape[exts + d]} and strides {@code shape[strs + d]}, the first dimension
     * outermost, from element {@code srcOff}.
     *
     * @param source the elements
     * @param srcOff the patch's first element
     * @param rank   the number of dimensions
     * @param exts   where the extents start in {@code shape}
     * @param strs   where the strides start in {@code shape}
     * @param shape  the extents and strides
     * @throws IllegalArgumentException as {@link #write(boolean[], int, int)}, or for a malformed shape
     */
    public void strGather(final boolean[] source, final int srcOff, final int rank, final int exts, final int strs,
        final int[] shape) {
        sections().put("strGather", source, Placement.strided("strGather", srcOff, rank, exts, strs, shape));
    }

    /**
     * Appends {@code numEls} elements of {@code source} from {@code srcOff} to the current section.
     *
     * @param source the elements
     * @param srcOff the first element's index
     * @param numEls the number of elements
     * @throws IllegalArgumentException if the section is of another type, or the elements are out of the array
     * @throws IllegalStateException    if the buffer is committed or full
     */
    public void write(final int[] source, final int srcOff, final int numEls) {
        sections().put("write", source, Placement.contiguous(srcOff, numEls));
    }

    /**
     * Appends {@code source[indexes[offs + i]]} for {@code i < numEls} to the current section.
     *
     * @param source  the elements
     * @param numEls  the number of elements
     * @param offs    the first entry of {@code indexes} used
     * @param indexes the elements' indexes
     * @throws IllegalArgumentException as {@link #write(int[], int, int)}, or for indexes out of range
     */
    public void gather(final int[] source, final int numEls, final int offs, final int[] indexes) {
        sections().put("gather", source, Placement.listed("gather", indexes, offs, numEls));
    }

    /**
     * Appends a multi-dimensional strided patch of {@code source} to the current section: {@code rank}
     * dimensions with extents {@code shape[exts + d]} and strides {@code shape[strs + d]}, the first dimension
     * outermost, from element {@code srcOff}.
     *
     * @param source the elements
     * @param srcOff the patch's first element
     * @param rank   the number of dimensions
     * @param exts   where the extents start in {@code shape}
     * @param strs   where the strides start in {@code shape}
     * @param shape  the extents and strides
     * @throws IllegalArgumentException as {@link #write(int[], int, int)}, or for a malformed shape
     */
    public void strGather(final int[] source, final int srcOff, final int rank, final int exts, final int strs,
        final int[] shape) {
        sections().put("strGather", source, Placement.strided("strGather", srcOff, rank, exts, strs, shape));
    }

    /**
     * Appends {@code numEls} elements of {@code source} from {@code srcOff} to the current section.
     *
     * @param source the elements
     * @param srcOff the first element's index
     * @param numEls the number of elements
     * @throws IllegalArgumentException if the section is of another type, or the elements are out of the array
     * @throws IllegalStateException    if the buffer is committed or full
     */
    public void write(final long[] source, final int srcOff, final int numEls) {
        sections().put("write", source, Placement.contiguous(srcOff, numEls));
    }

    /**
     * Appends {@code source[indexes[offs + i]]} for {@code i < numEls} to the current section.
     *
     * @param source  the elements
     * @param numEls  the number of elements
     * @param offs    the first entry of {@code indexes} used
     * @param indexes the elements' indexes
     * @throws IllegalArgumentException as {@link #write(long[], int, int)}, or for indexes out of range
     */
    public void gather(final long[] source, final int numEls, final int offs, final int[] indexes) {
        sections().put("gather", source, Placement.listed("gather", indexes, offs, numEls));
    }

    /**
     * Appends a multi-dimensional strided patch of {@code source} to the current section: {@code rank}
     * dimensions with extents {@code shape[exts + d]} and strides {@code shape[strs + d]}, the first dimension
     * outermost, from element {@code srcOff}.
     *
     * @param source the elements
     * @param srcOff the patch's first element
     * @param rank   the number of dimensions
     * @param exts   where the extents start in {@code shape}
     * @param strs   where the strides start in {@code shape}
     * @param shape  the extents and strides
     * @throws IllegalArgumentException as {@link #write(long[], int, int)}, or for a malformed shape
     */
    public void strGather(final long[] source, final int srcOff, final int rank, final int exts, final int strs,
        final int[] shape) {
        sections().put("strGather", source, Placement.strided("strGather", srcOff, rank, exts, strs, shape));
    }

    /**
     * Appends {@code numEls} elements of {@code source} from {@code srcOff} to the current section.
     *
     * @param source the elements
     * @param srcOff the first element's index
     * @param numEls the number of elements
     * @throws IllegalArgumentException if the section is of another type, or the elements are out of the array
     * @throws IllegalStateException    if the buffer is committed or full
     */
    public void write(final float[] source, final int srcOff, final int numEls) {
        sections().put("write", source, Placement.contiguous(srcOff, numEls));
    }

    /**
     * Appends {@code source[indexes[offs + i]]} for {@code i < numEls} to the current section.
     *
     * @param source  the elements
     * @param numEls  the number of elements
     * @param offs    the first entry of {@code indexes} used
     * @param indexes the elements' indexes
     * @throws IllegalArgumentException as {@link #write(float[], int, int)}, or for indexes out of range
     */
    public void gather(final float[] source, final int numEls, final int offs, final int[] indexes) {
        sections().put("gather", source, Placement.listed("gather", indexes, offs, numEls));
    }

    /**
     * Appends a multi-dimensional strided patch of {@code source} to the current section: {@code rank}
     * dimensions with extents {@code shape[exts + d]} and strides {@code shape[strs + d]}, the first dimension
     * outermost, from element {@code srcOff}.
     *
     * @param source the elements
     * @param srcOff the patch's first element
     * @param rank   the number of dimensions
     * @param exts   where the extents start in {@code shape}
     * @param strs   where the strides start in {@code shape}
     * @param shape  the extents and strides
     * @throws IllegalArgumentException as {@link #write(float[], int, int)}, or for a malformed shape
     */
    public void strGather(final float[] source, final int srcOff, final int rank, final int exts, final int strs,
        final int[] shape) {
        sections().put("strGather", source, Placement.strided("strGather", srcOff, rank, exts, strs, shape));
    }

    /**
     * Appends {@code numEls} elements of {@code source} from {@code srcOff} to the current section.
     *
     * @param source the elements
     * @param srcOff the first element's index
     * @param numEls the number of elements
     * @throws IllegalArgumentException if the section is of another type, or the elements are out of the array
     * @throws IllegalStateException    if the buffer is committed or full
     */
    public void write(final double[] source, final int srcOff, final int numEls) {
        sections().put("write", source, Placement.contiguous(srcOff, numEls));
    }

    /**
     * Appends {@code source[indexes[offs + i]]} for {@code i < numEls} to the current section.
     *
     * @param source  the elements
     * @param numEls  the number of elements
     * @param offs    the first entry of {@code indexes} used
     * @param indexes the elements' indexes
     * @throws IllegalArgumentException as {@link #write(double[], int, int)}, or for indexes out of range
     */
    public void gather(final double[] source, final int numEls, final int offs, final int[] indexes) {
        sections().put("gather", source, Placement.listed("gather", indexes, offs, numEls));
    }

    /**
     * Appends a multi-dimensional strided patch of {@code source} to the current section: {@code rank}
     * dimensions with extents {@code shape[exts + d]} and strides {@code shape[strs + d]}, the first dimension
     * outermost, from element {@code srcOff}.
     *
     * @param source the elements
     * @param srcOff the patch's first element
     * @param rank   the number of dimensions
     * @param exts   where the extents start in {@code shape}
     * @param strs   where the strides start in {@code shape}
     * @param shape  the extents and strides
     * @throws IllegalArgumentException as {@link #write(double[], int, int)}, or for a malformed shape
     */
    public void strGather(final double[] source, final int srcOff, final int rank, final int exts, final int strs,
        final int[] shape) {
        sections().put("strGather", source, Placement.strided("strGather", srcOff, rank, exts, strs, shape));
    }

    /**
     * Appends {@code numEls} elements of {@code source} from {@code srcOff} to the current section.
     *
     * @param source the elements
     * @param srcOff the first element's index
     * @param numEls the number of elements
     * @throws IllegalArgumentException if the section is of another type, or the elements are out of the array
     * @throws IllegalStateException    if the buffer is committed or full
     */
    public void write(final Object[] source, final int srcOff, final int numEls) {
        sections().put("write", source, Placement.contiguous(srcOff, numEls));
    }

    /**
     * Appends {@code source[indexes[offs + i]]} for {@code i < numEls} to the current section.
     *
     * @param source  the elements
     * @param numEls  the number of elements
     * @param offs    the first entry of {@code indexes} used
     * @param indexes the elements' indexes
     * @throws IllegalArgumentException as {@link #write(Object[], int, int)}, or for indexes out of range
     */
    public void gather(final Object[] source, final int numEls, final int offs, final int[] indexes) {
        sections().put("gather", source, Placement.listed("gather", indexes, offs, numEls));
    }

    /**
     * Appends a multi-dimensional strided patch of {@code source} to the current section: {@code rank}
     * dimensions with extents {@code shape[exts + d]} and strides {@code shape[strs + d]}, the first dimension
     * outermost, from element {@code srcOff}.
     *
     * @param source the elements
     * @param srcOff the patch's first element
     * @param rank   the number of dimensions
     * @param exts   where the extents start in {@code shape}
     * @param strs   where the strides start in {@code shape}
     * @param shape  the extents and strides
     * @throws IllegalArgumentException as {@link #write(Object[], int, int)}, or for a malformed shape
     */
    public void strGather(final Object[] source, final int srcOff, final int rank, final int exts, final int strs,
        final int[] shape) {
        sections().put("strGather", source, Placement.strided("strGather", srcOff, rank, exts, strs, shape));
    }
}
