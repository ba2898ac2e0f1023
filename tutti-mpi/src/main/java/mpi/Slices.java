package mpi;

import java.lang.foreign.MemorySegment;
import java.lang.ref.WeakReference;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where the data of a buffer that {@link MPI#slice} made really starts: the whole memory it is a view of and the
 * byte at which the view begins. A derived datatype may reach before its origin (a negative lower bound, such as a
 * vector with a negative stride): Open MPI addresses memory from the slice's address, so the bytes before the slice
 * are the buffer's own. A heap buffer says where it lies ({@link Buffer#arrayOffset()}); a direct slice does not,
 * so {@link MPI#slice} records it here.
 *
 * <p>Implementation note: a map from a direct slice's start address to its parent (weakly held) and its byte
 * offset in the parent; an address whose parent is gone is ignored, and such entries are dropped when the map grows
 * past {@value #CLEAN_AT} entries. Only the derived-datatype path asks ({@link Bufs}); plain types never reach before
 * their origin. Thread-safe (a concurrent map).
 */
final class Slices {
    private static final int CLEAN_AT = 1024;

    /** A direct slice's parent and where in it the slice starts. */
    private record Parent(WeakReference<Buffer> buffer, long offsetBytes) {
    }

    /** A buffer's memory and the byte of it where the buffer's element 0 lies. */
    record Base(MemorySegment whole, long originBytes) {
    }

    private static final Map<Long, Parent> DIRECT = new ConcurrentHashMap<>();

    private Slices() {
    }

    /**
     * Records a direct slice of a buffer.
     *
     * @param parent the buffer sliced (its position was the slice's start)
     * @param slice  the slice
     * @param <B>    the buffer type
     * @return {@code slice}
     */
    static <B extends Buffer> B remember(final Buffer parent, final B slice) {
        if (!slice.isDirect()) {
            return slice;
        }
        final Base p = of(parent);
        final long at = MemorySegment.ofBuffer(slice).address();
        final long offset = at - p.whole().address();
        if (DIRECT.size() > CLEAN_AT) {
            DIRECT.values().removeIf(e -> null == e.buffer().get());
        }
        final Buffer root = root(parent);
        DIRECT.put(at, new Parent(new WeakReference<>(root), offset));
        return slice;
    }

    /** @return the buffer a direct buffer was sliced from, following slices of slices, or the buffer itself */
    private static Buffer root(final Buffer b) {
        final Parent e = DIRECT.get(MemorySegment.ofBuffer(b.duplicate().clear()).address());
        final Buffer p = null == e ? null : e.buffer().get();
        return null == p ? b : p;
    }

    /**
     * Returns a buffer's whole memory and where its element 0 lies in it.
     *
     * @param b a buffer
     * @return the base
     */
    static Base of(final Buffer b) {
        if (!b.isDirect() && b.hasArray()) {
            return new Base(array(b), (long) b.arrayOffset() * elementBytes(b));
        }
        final MemorySegment own = MemorySegment.ofBuffer(b.duplicate().clear());
        if (b.isDirect()) {
            final Parent e = DIRECT.get(own.address());
            final Buffer p = null == e ? null : e.buffer().get();
            if (null != p) {
                final MemorySegment whole = MemorySegment.ofBuffer(p.duplicate().clear());
                if (e.offsetBytes() + own.byteSize() <= whole.byteSize()) {
                    return new Base(whole, e.offsetBytes());
                }
            }
        }
        return new Base(own, 0);
    }

    private static MemorySegment array(final Buffer b) {
        return switch (b.array()) {
            case byte[] a -> MemorySegment.ofArray(a);
            case char[] a -> MemorySegment.ofArray(a);
            case short[] a -> MemorySegment.ofArray(a);
            case int[] a -> MemorySegment.ofArray(a);
            case long[] a -> MemorySegment.ofArray(a);
            case float[] a -> MemorySegment.ofArray(a);
            case double[] a -> MemorySegment.ofArray(a);
            default -> MemorySegment.ofBuffer(b.duplicate().clear());
        };
    }

    private static int elementBytes(final Buffer b) {
        return switch (b) {
            case ByteBuffer x -> 1;
            case CharBuffer x -> 2;
            case ShortBuffer x -> 2;
            case IntBuffer x -> 4;
            case FloatBuffer x -> 4;
            case LongBuffer x -> 8;
            case DoubleBuffer x -> 8;
            default -> 1;
        };
    }
}
