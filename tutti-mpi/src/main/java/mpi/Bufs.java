package mpi;

import dev.tutti.Buf;

import java.lang.foreign.MemorySegment;
import java.nio.Buffer;
import java.util.Arrays;

/**
 * Turns the buffer arguments of the mpi API into Tutti {@link Buf}s, with Open MPI's rules: a primitive array is
 * used from element 0; a direct NIO buffer from its base address; a heap NIO buffer from its {@code arrayOffset()}
 * (which is how {@code MPI.slice} passes an offset); position and limit are ignored; null is allowed when nothing
 * moves. The memory is viewed, never copied. The datatype decides the Tutti element type; the data is taken as raw
 * memory of the right length, as MPI does. The views of plain (non-derived) datatypes are reused from call to call
 * through {@link BufCache}.
 */
final class Bufs {
    private Bufs() {
    }

    /**
     * Returns a Tutti buffer over {@code count} items of {@code type} at the start of {@code buf}.
     *
     * @param what  the operation, for messages
     * @param buf   an array, an NIO buffer, or null when nothing moves
     * @param count items
     * @param type  the datatype
     * @return the buffer
     * @throws MpiErrors.MpiError ERR_COUNT for a negative count, ERR_TYPE for a null or uncommitted type, ERR_BUFFER
     *                         for an unsupported kind of object or a buffer shorter than {@code count} items
     */
    static Buf of(final String what, final Object buf, final int count, final Datatype type) {
        return of(what, buf, count, type, null);
    }

    /**
     * As {@link #of(String, Object, int, Datatype)}, with the calling thread's view cache given (a hot path that
     * has looked up its {@link Env} passes {@link Env#bufCache()}, and saves a thread-local lookup).
     *
     * @param what  the operation, for messages
     * @param buf   an array, an NIO buffer, or null when nothing moves
     * @param count items
     * @param type  the datatype
     * @param cache the calling thread's cache, or null to look it up
     * @return the buffer
     */
    static Buf of(final String what, final Object buf, final int count, final Datatype type, final BufCache cache) {
        return of(what, buf, count, type, null == type ? null : type.wire, null == type ? 1 : type.wirePerItem,
            cache);
    }

    /**
     * Returns a Tutti buffer over {@code count} items of {@code type}, moved as {@code perItem} elements of
     * {@code unit} each (a reduction's unit, see {@link Reductions}).
     *
     * @param what    the operation, for messages
     * @param buf     an array, an NIO buffer, or null when nothing moves
     * @param count   items
     * @param type    the datatype
     * @param unit    the Tutti element type
     * @param perItem units per item
     * @param cache   the calling thread's view cache, or null to look it up
     * @return the buffer
     */
    static Buf of(final String what, final Object buf, final int count, final Datatype type,
        final dev.tutti.Datatype unit, final int perItem, final BufCache cache) {
        if (count < 0) {
            throw MpiErrors.error(MPI.ERR_COUNT, what + ": count=" + count + ", expected count >= 0");
        }
        if (null == type) {
            throw MpiErrors.error(MPI.ERR_TYPE, what + ": datatype=null, expected a datatype");
        }
        if (!type.settled) { // a predefined type is always live and committed: the hot path skips both checks
            type.committedFor(what); // the one place a datatype becomes a buffer: MPI's commit rule, for any count
            if (0 == count && (null == buf || type.isNull())) {
                return empty(type.isNull() ? dev.tutti.Datatype.BYTE : unit);
            }
            type.live(what);
        } else if (0 == count && null == buf) {
            return empty(unit);
        }
        if (null == type.shape && null != buf) {
            final BufCache c = null == cache ? BufCache.mine() : cache;
            Buf view = c.find(buf, count, type, unit, perItem);
            if (null == view) {
                view = plain(what, buf, count, type, unit, perItem);
                c.keep(buf, count, type, unit, perItem, view);
            }
            return view;
        }
        if (null != type.shape && type.dense() && (unit != type.wire || perItem != type.wirePerItem)) {
            return plain(what, buf, count, type, unit, perItem); // a user reduction's units over dense items
        }
        if (null != type.shape) {
            if (unit != type.wire || perItem != type.wirePerItem) {
                throw MpiErrors.error(MPI.ERR_UNSUPPORTED_OPERATION, what + ": datatype=" + type
                    + " cannot be moved as " + perItem + " x " + unit);
            }
            if (buf instanceof Buffer nb) { // a layout may reach before the origin: give it the whole memory
                final Slices.Base base = Slices.of(nb);
                return Buf.of(base.whole(), base.originBytes(), type.shape, count);
            }
            return Buf.of(segment(what, buf), 0, type.shape, count);
        }
        return plain(what, buf, count, type, unit, perItem);
    }

    /** The view of a run of whole items (no derived layout). */
    private static Buf plain(final String what, final Object buf, final int count, final Datatype type,
        final dev.tutti.Datatype unit, final int perItem) {
        final int n = count * perItem;
        if (buf instanceof boolean[] b) {
            if (dev.tutti.Datatype.BOOLEAN != unit) {
                throw MpiErrors.error(MPI.ERR_TYPE, what + ": datatype=" + type + " used with a boolean[] buffer, "
                    + "expected MPI.BOOLEAN");
            }
            if (b.length < n) {
                throw tooSmall(what, b.length, n, type);
            }
            return Buf.of(b, 0, n);
        }
        final MemorySegment seg = segment(what, buf);
        final long bytes = (long) count * type.extentBytes;
        if (seg.byteSize() < bytes) {
            throw tooSmall(what, seg.byteSize(), bytes, type);
        }
        final dev.tutti.Datatype wire = dev.tutti.Datatype.BOOLEAN == unit ? dev.tutti.Datatype.BYTE : unit;
        return Buf.of(seg.asSlice(0, bytes), wire);
    }

    /**
     * Returns the first {@code n} entries of a per-process array of a v- or w-collective (counts, displacements,
     * datatypes). MPI reads exactly {@code n} entries (one per process of the group, or of the remote group) and
     * Open MPI's bindings pass the whole Java array, so a longer array is accepted and its extra entries are never
     * read; a shorter one would be read past its end in C, and is an error here.
     *
     * @param what  the operation, for messages
     * @param arg   the argument's name, for messages
     * @param a     the array, or null
     * @param n     the entries the operation reads
     * @param whose whose processes the entries stand for, for messages ("the group", "the remote group")
     * @return {@code a} itself when it has {@code n} entries, else a copy of its first {@code n}
     * @throws MpiErrors.MpiError ERR_ARG for null or fewer than {@code n} entries
     */
    static int[] first(final String what, final String arg, final int[] a, final int n, final String whose) {
        if (null == a || a.length < n) {
            throw shortArray(what, null == a ? arg + "=null" : arg + ".length=" + a.length, n, whose);
        }
        return a.length == n ? a : Arrays.copyOf(a, n);
    }

    /**
     * As {@link #first(String, String, int[], int, String)}, for the datatypes of a w-collective.
     *
     * @param what  the operation, for messages
     * @param arg   the argument's name, for messages
     * @param a     the array, or null
     * @param n     the entries the operation reads
     * @param whose whose processes the entries stand for, for messages
     * @return {@code a} itself when it has {@code n} entries, else a copy of its first {@code n}
     * @throws MpiErrors.MpiError ERR_ARG for null or fewer than {@code n} entries
     */
    static Datatype[] first(final String what, final String arg, final Datatype[] a, final int n,
        final String whose) {
        if (null == a || a.length < n) {
            throw shortArray(what, null == a ? arg + "=null" : arg + ".length=" + a.length, n, whose);
        }
        return a.length == n ? a : Arrays.copyOf(a, n);
    }

    private static MpiErrors.MpiError shortArray(final String what, final String got, final int n, final String whose) {
        return MpiErrors.error(MPI.ERR_ARG, what + ": " + got + ", expected at least " + n
            + " entries (one per process of " + whose + ")");
    }

    /**
     * Returns a buffer spanning the blocks of a vector collective: up to the end of the farthest block.
     *
     * @param what   the operation
     * @param buf    the buffer
     * @param counts items per block
     * @param displs item offset of each block
     * @param type   the datatype
     * @return the buffer
     */
    static Buf span(final String what, final Object buf, final int[] counts, final int[] displs,
        final Datatype type) {
        if (null == counts || null == displs || counts.length != displs.length) {
            throw MpiErrors.error(MPI.ERR_ARG, what + ": counts and displs must be non-null arrays of one length");
        }
        int end = 0;
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] > 0) {
                end = Math.max(end, displs[i] + counts[i]);
            }
        }
        return of(what, buf, end, type);
    }

    /**
     * Scales item counts or offsets to Tutti elements.
     *
     * @param a    counts or displacements in items, or null
     * @param type the datatype
     * @return the scaled copy (or {@code a} itself when one item is one element)
     */
    static int[] scale(final int[] a, final Datatype type) {
        if (null == a || 1 == type.wirePerItem) {
            return a;
        }
        final int[] s = new int[a.length];
        for (int i = 0; i < a.length; i++) {
            s[i] = a[i] * type.wirePerItem;
        }
        return s;
    }

    /**
     * Scales a vector collective's displacements to Tutti elements, with the displacement of every empty block
     * set to 0: MPI uses an empty block's displacement for nothing (it may point anywhere, even past the buffer),
     * while Tutti requires every block inside the buffer.
     *
     * @param counts the counts in items (checked later; a mismatched length is left to Tutti's check)
     * @param displs the displacements in items, or null
     * @param type   the datatype
     * @return the scaled displacements (a copy if any changed, else {@link #scale}'s result)
     */
    static int[] displs(final int[] counts, final int[] displs, final Datatype type) {
        final int[] d = scale(displs, type);
        if (null == counts || null == d || counts.length != d.length) {
            return d;
        }
        int[] out = d;
        for (int i = 0; i < d.length; i++) {
            if (0 == counts[i] && 0 != d[i]) {
                if (out == displs) {
                    out = d.clone();
                }
                out[i] = 0;
            }
        }
        return out;
    }

    /**
     * Checks that a buffer of a nonblocking call is direct, as Open MPI demands.
     *
     * @param buf     the buffer, or null
     * @param message the exception's message
     */
    static void requireDirect(final Buffer buf, final String message) {
        if (null != buf && !buf.isDirect()) {
            throw new IllegalArgumentException(message);
        }
    }

    /**
     * Returns the memory of an array or NIO buffer from its start (see the class comment).
     *
     * @param what the operation
     * @param buf  the object
     * @return the segment
     */
    static MemorySegment segment(final String what, final Object buf) {
        return switch (buf) {
            case byte[] a -> MemorySegment.ofArray(a);
            case char[] a -> MemorySegment.ofArray(a);
            case short[] a -> MemorySegment.ofArray(a);
            case int[] a -> MemorySegment.ofArray(a);
            case long[] a -> MemorySegment.ofArray(a);
            case float[] a -> MemorySegment.ofArray(a);
            case double[] a -> MemorySegment.ofArray(a);
            case Buffer b -> MemorySegment.ofBuffer(b.duplicate().clear());
            case null -> throw MpiErrors.error(MPI.ERR_BUFFER, what + ": buffer=null with a non-zero count, expected "
                + "an array or a java.nio buffer");
            default -> throw MpiErrors.error(MPI.ERR_BUFFER, what + ": buffer of " + buf.getClass().getName()
                + " is not supported, expected a primitive array or a java.nio buffer");
        };
    }

    /**
     * Returns an empty buffer of a Tutti type.
     *
     * @param wire the type
     * @return a buffer of count 0
     */
    static Buf empty(final dev.tutti.Datatype wire) {
        if (dev.tutti.Datatype.BOOLEAN == wire) {
            return Buf.of(new boolean[0]);
        }
        return Buf.of(MemorySegment.ofArray(new long[0]), wire);
    }

    private static MpiErrors.MpiError tooSmall(final String what, final long have, final long need,
        final Datatype type) {
        return MpiErrors.error(MPI.ERR_BUFFER, what + ": buffer holds " + have + (type.wire
            == dev.tutti.Datatype.BOOLEAN ? " booleans" : " bytes") + ", expected at least " + need
            + " for the count of " + type);
    }
}
