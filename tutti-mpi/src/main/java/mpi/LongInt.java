package mpi;

/**
 * The struct of {@code MPI.LONG_INT} (C {@code struct {long; int}}), for MINLOC and MAXLOC: the singleton
 * {@code MPI.longInt} gives views of (value, index) elements of a byte buffer.
 */
public final class LongInt extends Struct {
    private final int value = addLong();
    private final int index = setOffset(8).addInt();

    LongInt() {
        setOffset(16);
    }

    @Override
    protected Data newData() {
        return new Data();
    }

    /** One (value, index) element. */
    public final class Data extends Struct.Data {
        /** @return the value */
        public long getValue() {
            return getLong(value);
        }

        /** @return the index */
        public int getIndex() {
            return getInt(index);
        }

        /** @param v the value */
        public void putValue(final long v) {
            putLong(value, v);
        }

        /** @param v the index */
        public void putIndex(final int v) {
            putInt(index, v);
        }
    }
}
