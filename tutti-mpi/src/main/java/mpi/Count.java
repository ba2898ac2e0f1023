package mpi;

/** A mutable {@code long} count (MPI_Count), as used by {@link Status#getElementsX}. */
@SuppressWarnings("rawtypes") // the API implements the raw Comparable, as Open MPI's does
public final class Count implements Comparable {
    private long count;

    /** @param count the initial value */
    public Count(final long count) {
        this.count = count;
    }

    /** @return the value */
    public long getCount() {
        return count;
    }

    /** @param count the new value */
    public void setCount(final long count) {
        this.count = count;
    }

    @Override
    public boolean equals(final Object obj) {
        return obj instanceof Count c && c.count == count;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(count);
    }

    @Override
    public int compareTo(final Object obj) {
        return Long.compare(count, ((Count) obj).count);
    }

    @Override
    public String toString() {
        return Long.toString(count);
    }
}
