package mpi;

import dev.tutti.Buf;

import java.lang.reflect.Array;

/**
 * The one place where an MPJ buffer argument ({@code Object buf, int offset, int count, Datatype type}) is checked
 * and turned into what Tutti moves: a {@link Buf} over the caller's array when the items are one run of elements,
 * else over a dense copy ({@link #pack}) or a dense scratch array that is spread back after a receive
 * ({@link Sink#finish}). Objects are gathered into an {@code Object[]} the same way.
 *
 * <p>Implementation note: item {@code i} of a datatype starts at array element {@code offset + i * extent}; its
 * elements lie at the {@link Shape} displacements from there. Copies go run by run with
 * {@link System#arraycopy}, which serves every array type.
 */
final class Slab {
    private Slab() {
    }

    /**
     * Checks a buffer argument: a datatype with elements, an array of its base type, a non-negative count, and
     * every element the items touch inside the array.
     *
     * @throws MPIException naming the call, the argument and what was expected
     */
    static void check(final String call, final String arg, final Object buf, final int offset, final int count,
        final Datatype type) {
        if (null == type) {
            throw Fail.error(call + ": datatype=null (expected a datatype such as MPI.INT)");
        }
        final Shape s = type.shape();
        if (count < 0) {
            throw Fail.error(call + ": count=" + count + " (expected >= 0)");
        }
        if (0 == count || 0 == s.size()) {
            return;
        }
        if (!s.base.isPrimitive() && Base.OBJECT != s.base) {
            throw Fail.error(call + ": datatype " + type + " has no buffer elements (base " + s.base + ")");
        }
        if (null == buf) {
            throw Fail.error(call + ": " + arg + "=null (expected a " + s.base.arrayName() + " for " + type + ")");
        }
        final boolean fits = Base.OBJECT == s.base ? buf instanceof Object[] : s.base.arrayClass == buf.getClass();
        if (!fits) {
            throw Fail.wrap(call, new ClassCastException(arg + " is a " + buf.getClass().getSimpleName()
                + ", expected a " + s.base.arrayName() + " for datatype " + type));
        }
        final long ext = s.extent();
        final long low = offset + (long) s.minDisp + Math.min(0, (count - 1) * ext);
        final long high = offset + (long) s.maxDisp + Math.max(0, (count - 1) * ext);
        final int length = Array.getLength(buf);
        if (offset < 0 || low < 0 || high >= length) {
            throw Fail.error(call + ": " + arg + " offset=" + offset + " count=" + count + " of " + type
                + " reaches elements " + low + ".." + high + ", outside the array of length " + length);
        }
    }

    /** @return the number of elements of {@code count} items, or an error if it overflows */
    static int elements(final String call, final int count, final Datatype type) {
        final long n = (long) count * type.shape().size();
        if (n > Integer.MAX_VALUE) {
            throw Fail.error(call + ": count=" + count + " items of " + type + " are more than 2^31-1 elements");
        }
        return (int) n;
    }

    /** @return the elements of the items, dense, in type-map order, in a new array of the base type */
    static Object pack(final Object buf, final int offset, final int count, final Shape s) {
        final Object dense = s.base.newArray(count * s.size());
        int pos = 0;
        for (int i = 0; i < count; i++) {
            final int origin = offset + i * s.extent();
            for (int r = 0; r < s.runStart.length; r++) {
                System.arraycopy(buf, origin + s.runStart[r], dense, pos, s.runLength[r]);
                pos += s.runLength[r];
            }
        }
        return dense;
    }

    /**
     * Spreads {@code elements} dense elements from {@code dense[from]} on into the items' places in {@code buf}.
     */
    static void unpack(final Object dense, final int from, final int elements, final Object buf, final int offset,
        final Shape s) {
        int left = elements;
        int pos = from;
        for (int i = 0; left > 0; i++) {
            final int origin = offset + i * s.extent();
            for (int r = 0; r < s.runStart.length && left > 0; r++) {
                final int n = Math.min(left, s.runLength[r]);
                System.arraycopy(dense, pos, buf, origin + s.runStart[r], n);
                pos += n;
                left -= n;
            }
        }
    }

    /** @return a buffer of no elements of the base type (a message's type must match its receive's) */
    static Buf empty(final Shape s) {
        return make(s.base.isPrimitive() ? s.base.newArray(0) : new byte[0], 0, 0);
    }

    /**
     * @return a Tutti buffer over {@code n} elements of a primitive array from {@code off}: the calling rank's cached
     *         view ({@link Views}) when the rank is initialized
     */
    static Buf buf(final Object array, final int off, final int n) {
        return view(array, off, n).buf;
    }

    /** @return a view over {@code n} elements of a primitive array from {@code off}, cached as {@link #buf} says */
    private static Sink view(final Object array, final int off, final int n) {
        final Env e = Env.current();
        return null == e ? Sink.direct(make(array, off, n)) : e.views().of(array, off, n);
    }

    /** @return a new Tutti buffer over {@code n} elements of a primitive array from {@code off} */
    static Buf make(final Object array, final int off, final int n) {
        return switch (array) {
            case byte[] a -> Buf.of(a, off, n);
            case char[] a -> Buf.of(a, off, n);
            case short[] a -> Buf.of(a, off, n);
            case boolean[] a -> Buf.of(a, off, n);
            case int[] a -> Buf.of(a, off, n);
            case long[] a -> Buf.of(a, off, n);
            case float[] a -> Buf.of(a, off, n);
            case double[] a -> Buf.of(a, off, n);
            default -> throw new IllegalStateException("no Tutti buffer for " + array.getClass());
        };
    }

    /**
     * The data to send: a buffer over the caller's elements if they are one run, else over a dense copy.
     *
     * @return the buffer
     * @throws MPIException for a bad argument
     */
    static Buf send(final String call, final String arg, final Object buf, final int offset, final int count,
        final Datatype type) {
        check(call, arg, buf, offset, count, type);
        return sendChecked(call, buf, offset, count, type);
    }

    /** {@link #send} of a buffer argument that {@link #check} has passed. */
    static Buf sendChecked(final String call, final Object buf, final int offset, final int count,
        final Datatype type) {
        final Shape s = type.shape();
        final int n = elements(call, count, type);
        if (0 == n) {
            return empty(s);
        }
        return s.contiguous ? buf(buf, offset, n) : make(pack(buf, offset, count, s), 0, n);
    }

    /**
     * The elements to send as objects.
     *
     * @return a new array holding the items' elements in type-map order
     */
    static Object[] objects(final String call, final String arg, final Object buf, final int offset,
        final int count, final Datatype type) {
        check(call, arg, buf, offset, count, type);
        if (0 == count || 0 == type.shape().size()) {
            return new Object[0];
        }
        return (Object[]) pack(buf, offset, count, type.shape());
    }

    /**
     * Stores received objects into the items' places.
     *
     * @throws MPIException if more arrived than the items hold
     */
    static void storeObjects(final String call, final Object[] values, final Object buf, final int offset,
        final int count, final Datatype type) {
        final int capacity = count * type.shape().size();
        if (values.length > capacity) {
            throw Fail.error(call + ": count " + capacity + " is less than length " + values.length
                + " (the message holds more MPI.OBJECT elements than the receive buffer)");
        }
        unpack(values, 0, values.length, buf, offset, type.shape());
    }

    /**
     * Where received data goes: the caller's elements if they are one run, else a dense scratch array that
     * {@link Sink#finish} spreads into them.
     *
     * @throws MPIException for a bad argument
     */
    static Sink recv(final String call, final String arg, final Object buf, final int offset, final int count,
        final Datatype type) {
        check(call, arg, buf, offset, count, type);
        return recvChecked(call, buf, offset, count, type);
    }

    /** {@link #recv} of a buffer argument that {@link #check} has passed. */
    static Sink recvChecked(final String call, final Object buf, final int offset, final int count,
        final Datatype type) {
        final Shape s = type.shape();
        final int n = elements(call, count, type);
        if (0 == n) {
            return Sink.direct(empty(s));
        }
        if (s.contiguous) {
            return view(buf, offset, n);
        }
        final Object scratch = s.base.newArray(n);
        return new Sink(make(scratch, 0, n), scratch, buf, offset, s);
    }

    /** A receive buffer, and how its data reaches the caller's array. */
    static final class Sink {
        final Buf buf;
        private final Object scratch;
        private final Object target;
        private final int offset;
        private final Shape shape;

        /** @return a sink that is the caller's elements themselves (nothing to spread) */
        static Sink direct(final Buf buf) {
            return new Sink(buf, null, null, 0, null);
        }

        Sink(final Buf buf, final Object scratch, final Object target, final int offset, final Shape shape) {
            this.buf = buf;
            this.scratch = scratch;
            this.target = target;
            this.offset = offset;
            this.shape = shape;
        }

        /** Spreads the first {@code elements} received elements into the caller's array (if they went to scratch). */
        void finish(final int elements) {
            if (null != scratch) {
                unpack(scratch, 0, elements, target, offset, shape);
            }
        }
    }
}
