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
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * Where the data of a buffer that {@link MPI#slice} made really starts: the whole memory it is a view of and the
 * byte at which the view begins. A derived datatype may reach before its origin (a negative lower bound, such as a
 * vector with a negative stride): Open MPI addresses memory from the slice's address, so the bytes before the slice
 * are the buffer's own. A heap buffer says where it lies ({@link Buffer#arrayOffset()}); a direct slice does not,
 * so {@link MPI#slice} records the direct buffer it was cut from here.
 *
 * <p>Implementation note: a sorted map from the start address of each direct buffer that was sliced (the root: a
 * slice of a slice records the first buffer) to that buffer, weakly held, and its size; a direct buffer's base is
 * the recorded root whose memory holds it, found by the greatest start at or below its address. One entry per
 * sliced buffer, however many slices are cut from it; entries whose buffer is gone are passed over and dropped
 * when a look-up meets them, and all of them when the map grows past {@value #CLEAN_AT} entries. Only the derived-datatype path asks ({@link Bufs}); plain types
 * never reach before their origin. Thread-safe (a concurrent map).
 */
final class Slices {
    private static final int CLEAN_AT = 1024;

    /** A sliced direct buffer, weakly held, and its size in bytes. */
    private record Root(WeakReference<Buffer> buffer, long bytes) {
    }

    /** A buffer's memory and the byte of it where the buffer's element 0 lies. */
    record Base(MemorySegment whole, long originBytes) {
    }

    private static final ConcurrentSkipListMap<Long, Root> ROOTS = new ConcurrentSkipListMap<>();

    private Slices() {
    }

    /**
     * Records the buffer a direct slice was cut from.
     *
     * @param parent the buffer sliced
     * @param slice  the slice
     * @param <B>    the buffer type
     * @return {@code slice}
     */
    static <B extends Buffer> B remember(final Buffer parent, final B slice) {
        if (!slice.isDirect()) {
            return slice;
        }
        final MemorySegment p = MemorySegment.ofBuffer(parent.duplicate().clear());
        if (null == root(p.address(), p.byteSize())) {
            if (ROOTS.size() > CLEAN_AT) {
                ROOTS.values().removeIf(r -> null == r.buffer().get());
            }
            ROOTS.put(p.address(), new Root(new WeakReference<>(parent), p.byteSize()));
        }
        return slice;
    }

    /**
     * @return the recorded live buffer whose memory holds {@code [address, address + bytes)}, or null. Entries of
     *         buffers that are gone are passed over (and dropped): their memory may have been given to a buffer
     *         recorded at a lower address, which would otherwise be hidden behind them.
     */
    private static Buffer root(final long address, final long bytes) {
        Map.Entry<Long, Root> e = ROOTS.floorEntry(address);
        while (null != e) {
            final Buffer b = e.getValue().buffer().get();
            if (null != b) {
                return address + bytes <= e.getKey() + e.getValue().bytes() ? b : null;
            }
            ROOTS.remove(e.getKey(), e.getValue());
            e = ROOTS.lowerEntry(e.getKey());
        }
        return null;
    }

    /**
     * Returns a buffer's whole memory and where its element 0 lies in it.
     *
     * @param b a buffer
     * @return the base
     */
    static Base of(final Buffer b) {
        if (!b.isDirect() && b.hasArray()) {
            return new Base(Bufs.segment("slice", b.array()), (long) b.arrayOffset() * elementBytes(b));
        }
        final MemorySegment own = MemorySegment.ofBuffer(b.duplicate().clear());
        if (b.isDirect()) {
            final Buffer r = root(own.address(), own.byteSize());
            if (null != r) {
                final MemorySegment whole = MemorySegment.ofBuffer(r.duplicate().clear());
                return new Base(whole, own.address() - whole.address());
            }
        }
        return new Base(own, 0);
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
