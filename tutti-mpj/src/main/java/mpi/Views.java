package mpi;

import java.lang.ref.WeakReference;

/**
 * The views ({@link Slab.Sink}s over the caller's elements, with their Tutti {@code Buf}) that one rank's thread built
 * last, so that a loop that passes the same array, offset and count again and again, as MPJ programs do, gets the
 * same view instead of a new {@code Buf} (a memory segment and its slice) per call. A view over a run of a primitive
 * array is immutable and an array's length never changes, so a view built once for a key is right for every later
 * call with that key.
 *
 * <p>Implementation note: a few slots, replaced round-robin, keyed by the array's identity, the offset and the number
 * of elements. The cache belongs to the thread that called {@code MPI.Init} (its {@link Env} holds it); any other
 * thread of the rank builds its views afresh, so there is no sharing and no locking. The key and the view are held
 * weakly: the cache never keeps a program's array alive, and a collected view is built again (once per garbage
 * collection at most). Cost of a hit: a thread comparison, up to {@link #SLOTS} {@code refersTo} and two int
 * comparisons, and the read of the view's reference.
 */
final class Views {
    private static final int SLOTS = 4;

    /** One cached view: the array is the referent. */
    private static final class Entry extends WeakReference<Object> {
        final int offset;
        final int elements;
        final WeakReference<Slab.Sink> view;

        Entry(final Object array, final int offset, final int elements, final Slab.Sink view) {
            super(array);
            this.offset = offset;
            this.elements = elements;
            this.view = new WeakReference<>(view);
        }
    }

    private final Thread owner;
    private final Entry[] slots = new Entry[SLOTS];
    private int next;

    Views(final Thread owner) {
        this.owner = owner;
    }

    /**
     * @return a view over {@code elements} elements of the primitive {@code array} from {@code offset}: the cached one
     *         if the calling thread owns this cache and built it before, else a new one (kept if the thread owns it)
     */
    Slab.Sink of(final Object array, final int offset, final int elements) {
        if (Thread.currentThread() != owner) {
            return Slab.Sink.direct(Slab.make(array, offset, elements));
        }
        for (int i = 0; i < SLOTS; i++) {
            final Entry e = slots[i];
            if (null != e && e.refersTo(array) && offset == e.offset && elements == e.elements) {
                final Slab.Sink v = e.view.get();
                if (null != v) {
                    return v;
                }
                slots[i] = null; // collected: built again below, in a new slot
            }
        }
        final Slab.Sink v = Slab.Sink.direct(Slab.make(array, offset, elements));
        slots[next] = new Entry(array, offset, elements, v);
        next = (next + 1) % SLOTS;
        return v;
    }
}
