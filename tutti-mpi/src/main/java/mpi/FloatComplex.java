package mpi;

import java.nio.ByteBuffer;
import java.nio.FloatBuffer;

/**
 * A view of one {@code MPI.FLOAT_COMPLEX} item, (real, imaginary) floats, at item {@code index} of a {@code float[]},
 * a {@code FloatBuffer} (from element 0) or a {@code ByteBuffer} (from its position, in its byte order): writes go to
 * the buffer.
 */
public final class FloatComplex {
    private final FloatBuffer buffer;

    private FloatComplex(final FloatBuffer whole, final int index) {
        this.buffer = whole.slice(2 * index, 2);
    }

    /** @param buffer the buffer @return a view of item 0 */
    public static FloatComplex get(final FloatBuffer buffer) {
        return get(buffer, 0);
    }

    /** @param buffer the buffer @param index the item @return a view of it */
    public static FloatComplex get(final FloatBuffer buffer, final int index) {
        return new FloatComplex(buffer, index);
    }

    /** @param array the array @return a view of item 0 */
    public static FloatComplex get(final float[] array) {
        return get(array, 0);
    }

    /** @param array the array @param index the item @return a view of it */
    public static FloatComplex get(final float[] array, final int index) {
        return new FloatComplex(FloatBuffer.wrap(array), index);
    }

    /** @param buffer the bytes @return a view of item 0 */
    public static FloatComplex get(final ByteBuffer buffer) {
        return get(buffer, 0);
    }

    /** @param buffer the bytes @param index the item @return a view of it */
    public static FloatComplex get(final ByteBuffer buffer, final int index) {
        return new FloatComplex(buffer.duplicate().order(buffer.order()).asFloatBuffer(), index);
    }

    /** @return the real part */
    public float getReal() {
        return buffer.get(0);
    }

    /** @return the imaginary part */
    public float getImag() {
        return buffer.get(1);
    }

    /** @param real the real part */
    public void putReal(final float real) {
        buffer.put(0, real);
    }

    /** @param imag the imaginary part */
    public void putImag(final float imag) {
        buffer.put(1, imag);
    }

    /** @return the two-element buffer of this item */
    public FloatBuffer getBuffer() {
        return buffer;
    }
}
