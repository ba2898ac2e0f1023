package mpi;

import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;

/**
 * A view of one {@code MPI.DOUBLE_COMPLEX} item, (real, imaginary) doubles, at item {@code index} of a {@code double[]},
 * a {@code DoubleBuffer} (from element 0) or a {@code ByteBuffer} (from its position, in its byte order): writes go to
 * the buffer.
 */
public final class DoubleComplex {
    private final DoubleBuffer buffer;

    private DoubleComplex(final DoubleBuffer whole, final int index) {
        this.buffer = whole.slice(2 * index, 2);
    }

    /** @param buffer the buffer @return a view of item 0 */
    public static DoubleComplex get(final DoubleBuffer buffer) {
        return get(buffer, 0);
    }

    /** @param buffer the buffer @param index the item @return a view of it */
    public static DoubleComplex get(final DoubleBuffer buffer, final int index) {
        return new DoubleComplex(buffer, index);
    }

    /** @param array the array @return a view of item 0 */
    public static DoubleComplex get(final double[] array) {
        return get(array, 0);
    }

    /** @param array the array @param index the item @return a view of it */
    public static DoubleComplex get(final double[] array, final int index) {
        return new DoubleComplex(DoubleBuffer.wrap(array), index);
    }

    /** @param buffer the bytes @return a view of item 0 */
    public static DoubleComplex get(final ByteBuffer buffer) {
        return get(buffer, 0);
    }

    /** @param buffer the bytes @param index the item @return a view of it */
    public static DoubleComplex get(final ByteBuffer buffer, final int index) {
        return new DoubleComplex(buffer.duplicate().order(buffer.order()).asDoubleBuffer(), index);
    }

    /** @return the real part */
    public double getReal() {
        return buffer.get(0);
    }

    /** @return the imaginary part */
    public double getImag() {
        return buffer.get(1);
    }

    /** @param real the real part */
    public void putReal(final double real) {
        buffer.put(0, real);
    }

    /** @param imag the imaginary part */
    public void putImag(final double imag) {
        buffer.put(1, imag);
    }

    /** @return the two-element buffer of this item */
    public DoubleBuffer getBuffer() {
        return buffer;
    }
}
