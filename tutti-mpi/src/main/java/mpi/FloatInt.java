package mpi;

/**
 * The struct of {@code MPI.FLOAT_INT} (C {@code struct {float; int}}), for MINLOC and MAXLOC: the singleton
 * {@code MPI.floatInt} gives views of (value, index) elements of a byte buffer.
 */
public final class FloatInt extends Struct {
    private final int value = addFloat();
    private final int index = setOffset(4).addInt();

    FloatInt() {
        setOffset(8);
    }

    @Override
    protected Data newData() {
        return new Data();
    }

    /** One (value, index) element. */
    public final class Data extends Struct.Data {
        /** @return the value */
        public float getValue() {
            return getFloat(value);
        }

        /** @return the index */
        public int getIndex() {
            return getInt(index);
        }

        /** @param v the value */
        public void putValue(final float v) {
            putFloat(value, v);
        }

        /** @param v the index */
        public void putIndex(final int v) {
            putInt(index, v);
        }
    }
}
