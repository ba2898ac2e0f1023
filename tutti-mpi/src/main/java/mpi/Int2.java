package mpi;

/**
 * The struct of {@code MPI.INT2} (C {@code struct {int; int}}), for MINLOC and MAXLOC: the singleton
 * {@code MPI.int2} gives views of (value, index) elements of a byte buffer.
 */
public final class Int2 extends Struct {
    private final int value = addInt();
    private final int index = setOffset(4).addInt();

    Int2() {
        setOffset(8);
    }

    @Override
    protected Data newData() {
        return new Data();
    }

    /** One (value, index) element. */
    public final class Data extends Struct.Data {
        /** @return the value */
        public int getValue() {
            return getInt(value);
        }

        /** @return the index */
        public int getIndex() {
            return getInt(index);
        }

        /** @param v the value */
        public void putValue(final int v) {
            putInt(value, v);
        }

        /** @param v the index */
        public void putIndex(final int v) {
            putInt(index, v);
        }
    }
}
