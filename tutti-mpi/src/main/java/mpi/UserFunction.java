package mpi;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A user-defined reduction, given to {@link Op#Op(UserFunction, boolean)}. Override
 * {@link #call(Object, Object, int, Datatype)} to work on primitive arrays of the datatype's base type, or
 * {@link #call(ByteBuffer, ByteBuffer, int, Datatype)} to work on the raw bytes. Either must set
 * {@code inOut[i] = in[i] op inOut[i]} for the {@code count} items.
 */
public abstract class UserFunction {

    /**
     * Combines arrays of the base type ({@code int[]} for {@code MPI.INT}, {@code boolean[]} for
     * {@code MPI.BOOLEAN}, {@code byte[]} for the pair types, ...), {@code count * datatype.getExtent()} elements.
     * The default throws {@link UnsupportedOperationException}.
     *
     * @param inVec    the left operand
     * @param inOutVec the right operand and the result
     * @param count    items of {@code datatype}
     * @param datatype the datatype the collective was called with
     * @throws MPIException to fail the reduction
     */
    public void call(final Object inVec, final Object inOutVec, final int count, final Datatype datatype)
        throws MPIException {
        throw new UnsupportedOperationException("Not supported yet.");
    }

    /**
     * Combines raw items in native byte order, {@code count * extent} bytes each. The default copies both into
     * arrays of the base type, calls {@link #call(Object, Object, int, Datatype)} and copies the result back.
     *
     * @param in       the left operand
     * @param inOut    the right operand and the result
     * @param count    items of {@code datatype}
     * @param datatype the datatype the collective was called with
     * @throws MPIException to fail the reduction
     */
    public void call(final ByteBuffer in, final ByteBuffer inOut, final int count, final Datatype datatype)
        throws MPIException {
        final int n = count * datatype.extentBytes / datatype.base.bytes;
        final ByteBuffer a = in.duplicate().order(ByteOrder.nativeOrder());
        final ByteBuffer b = inOut.duplicate().order(ByteOrder.nativeOrder());
        a.clear();
        b.clear();
        switch (datatype.base) {
            case BYTE, BOOLEAN -> {
                final byte[] x = new byte[n];
                final byte[] y = new byte[n];
                a.get(x);
                b.get(y);
                call(x, y, count, datatype);
                b.clear();
                b.put(y);
            }
            case CHAR -> {
                final char[] x = new char[n];
                final char[] y = new char[n];
                a.asCharBuffer().get(x);
                b.asCharBuffer().get(y);
                call(x, y, count, datatype);
                b.asCharBuffer().put(y);
            }
            case SHORT -> {
                final short[] x = new short[n];
                final short[] y = new short[n];
                a.asShortBuffer().get(x);
                b.asShortBuffer().get(y);
                call(x, y, count, datatype);
                b.asShortBuffer().put(y);
            }
            case INT -> {
                final int[] x = new int[n];
                final int[] y = new int[n];
                a.asIntBuffer().get(x);
                b.asIntBuffer().get(y);
                call(x, y, count, datatype);
                b.asIntBuffer().put(y);
            }
            case LONG -> {
                final long[] x = new long[n];
                final long[] y = new long[n];
                a.asLongBuffer().get(x);
                b.asLongBuffer().get(y);
                call(x, y, count, datatype);
                b.asLongBuffer().put(y);
            }
            case FLOAT -> {
                final float[] x = new float[n];
                final float[] y = new float[n];
                a.asFloatBuffer().get(x);
                b.asFloatBuffer().get(y);
                call(x, y, count, datatype);
                b.asFloatBuffer().put(y);
            }
            case DOUBLE -> {
                final double[] x = new double[n];
                final double[] y = new double[n];
                a.asDoubleBuffer().get(x);
                b.asDoubleBuffer().get(y);
                call(x, y, count, datatype);
                b.asDoubleBuffer().put(y);
            }
        }
    }
}
