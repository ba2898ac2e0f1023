package mpi;

/**
 * The struct of {@code MPI.SHORT_INT} (C {@code struct {short; int}}), for MINLOC and MAXLOC: the singleton
 * {@code MPI.shortInt} gives views of (value, index) elements of a byte buffer.
 */
public final class ShortInt extends Struct {
    private final int value = addShort();
    private final int index = setOffset(4).addInt();

    ShortInt() {
        setOffset(8);
    }

    @Override
    protected Data newData() {
        return new Data();
    }

    /** One (value, index) element. */
    public final class Data extends Struct.Data {
        /** @return the value */
        public short getValue() {
            return getShort(value);
        }

        /** @return the index */
        public int getIndex() {
            return getInt(index);
        }

        /** @param v the value */
        public void putValue(final short v) {
            putShort(value, v);
        }

        /** @param v the index */
        public void putIndex(final int v) {
            putInt(index, v);
        }
    }
}
