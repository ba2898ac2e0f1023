package mpi;

import dev.tutti.Buf;

import java.lang.ref.WeakReference;

/**
 * The Tutti buffers {@link Bufs} built last in the calling thread, so that a loop that passes the same array (or
 * NIO buffer), count and datatype again and again, as MPI programs do, gets the same {@link Buf} instead of a new
 * view (three objects) per call. A {@code Buf} is an immutable view and an array's length or a buffer's memory
 * never changes, so a buffer built once for a key is right for every later call with that key.
 *
 * <p>Implementation note: a few slots per thread, replaced round-robin; the key is the object's identity with the
 * count, datatype and reduction unit. One cache belongs to one thread and is never shared, so no locking: the
 * thread that called {@code MPI.Init} finds its cache through its {@link Env} (a field read, see
 * {@link Env#bufCache()}), any other thread through a thread-local. Both the key and the view are held weakly: the
 * cache never keeps a program's array alive, and a collected view is built again (once per garbage collection at
 * most). Derived datatypes are not cached: {@link Bufs} checks them per call. Cost of a hit: up to {@link #SLOTS}
 * {@code refersTo} (a load and a compare, no read barrier; it fails first on another buffer's slot, as the count and
 * type of a loop's buffers are often alike), four field comparisons and one read of the view's reference.
 */
final class BufCache {
    private static final int SLOTS = 4;
    private static final ThreadLocal<BufCache> MINE = ThreadLocal.withInitial(BufCache::new);

    /** One cached view: the key object is the referent. */
    private static final class Entry extends WeakReference<Object> {
        final int count;
        final Datatype type;
        final dev.tutti.Datatype unit;
        final int perItem;
        final WeakReference<Buf> view;

        Entry(final Object key, final int count, final Datatype type, final dev.tutti.Datatype unit,
            final int perItem, final Buf view) {
            super(key);
            this.count = count;
            this.type = type;
            this.unit = unit;
            this.perItem = perItem;
            this.view = new WeakReference<>(view);
        }
    }

    private final Entry[] slots = new Entry[SLOTS];
    private int next;

    BufCache() {
    }

    /** @return the calling thread's cache, through the thread-local (see {@link Env#bufCache()} for the cheaper way) */
    static BufCache mine() {
        return MINE.get();
    }

    /**
     * @return the view built for this key, or null
     */
    Buf find(final Object buf, final int count, final Datatype type, final dev.tutti.Datatype unit,
        final int perItem) {
        for (int i = 0; i < SLOTS; i++) {
            final Entry e = slots[i];
            if (null != e && e.refersTo(buf) && count == e.count && type == e.type && unit == e.unit
                && perItem == e.perItem) {
                final Buf view = e.view.get();
                if (null == view) {
                    slots[i] = null; // collected: built again and kept in a new slot
                }
                return view;
            }
        }
        return null;
    }

    /** Keeps a view for its key, replacing the oldest slot. */
    void keep(final Object buf, final int count, final Datatype type, final dev.tutti.Datatype unit,
        final int perItem, final Buf view) {
        slots[next] = new Entry(buf, count, type, unit, perItem, view);
        next = (next + 1) % SLOTS;
    }
}
