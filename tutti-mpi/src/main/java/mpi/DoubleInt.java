package mpi;

/**
 * The struct of {@code MPI.DOUBLE_INT} (C {@code struct {double; int}}), for MINLOC and MAXLOC: the singleton
 * {@code MPI.doubleInt} gives views of (value, index) elements of a byte buffer.
 */
public final class DoubleInt extends Struct {
    private final int value = addDouble();
    private final int index = setOffset(8).addInt();

    DoubleInt() {
        setOffset(16);
    }

    @Override
    protected Data newData() {
        return new Data();
    }

    /** One (value, index) element. */
    public final class Data extends Struct.Data {
        /** @return the value */
        public double getValue() {
            return getDouble(value);
        }

        /** @return the index */
        public int getIndex() {
            return getInt(index);
        }

        /** @param v the value */
        public void putValue(final double v) {
            putDouble(value, v);
        }

        /** @param v the index */
        public void putIndex(final int v) {
            putInt(index, v);
        }
    }
}
