package mpi;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The attribute keyvals of the process (MPI 6.7.2): which exist, for which kind of object, and which were freed.
 * A call with a keyval that was never created (for example {@code MPI.KEYVAL_INVALID}) is an ERR_KEYVAL error, as
 * Open MPI reports it; so is storing, deleting or freeing with a keyval of another kind of object, a freed one
 * (storing and freeing only) or a predefined one. Reading and deleting with a freed keyval still work: MPI keeps a
 * freed keyval's attributes until they are deleted.
 *
 * <p>Implementation note: one map from keyval to its entry, shared by the rank threads of an embedded job (keyvals
 * are numbers, distinct across ranks, which is harmless); the predefined ones (0..9) are entered at class load.
 */
final class Keyvals {
    /** The kind of object a keyval is for. */
    enum Kind {
        COMM, TYPE, WIN
    }

    /** One keyval: its kind, whether it is predefined, whether it was freed. */
    private record Entry(Kind kind, boolean predefined, boolean freed) {
    }

    /** The next user keyval; 0..9 are the predefined ones. */
    private static final AtomicInteger NEXT = new AtomicInteger(16);
    private static final Map<Integer, Entry> KEYVALS = new ConcurrentHashMap<>();

    static {
        for (final int k : new int[] {MPI.TAG_UB, MPI.HOST, MPI.IO, MPI.WTIME_IS_GLOBAL, MPI.APPNUM,
            MPI.LASTUSEDCODE, MPI.UNIVERSE_SIZE}) {
            KEYVALS.put(k, new Entry(Kind.COMM, true, false));
        }
        for (final int k : new int[] {MPI.WIN_BASE, MPI.WIN_SIZE, MPI.WIN_DISP_UNIT}) {
            KEYVALS.put(k, new Entry(Kind.WIN, true, false));
        }
    }

    private Keyvals() {
    }

    /**
     * Creates a keyval.
     *
     * @param kind the kind of object it is for
     * @return the keyval
     */
    static int create(final Kind kind) {
        final int k = NEXT.getAndIncrement();
        KEYVALS.put(k, new Entry(kind, false, false));
        return k;
    }

    /**
     * Frees a keyval: it can no longer store values.
     *
     * @param kind   the kind of object the caller is
     * @param keyval the keyval
     * @throws MpiErrors.MpiError ERR_KEYVAL for an unknown, freed, predefined or other-kind keyval
     */
    static void free(final Kind kind, final int keyval) {
        final Entry e = writable("freeKeyval", kind, keyval);
        KEYVALS.put(keyval, new Entry(e.kind(), false, true));
    }

    /**
     * Checks a keyval for reading an attribute.
     *
     * @param keyval the keyval
     * @throws MpiErrors.MpiError ERR_KEYVAL if it was never created
     */
    static void readable(final int keyval) {
        if (null == KEYVALS.get(keyval)) {
            throw MpiErrors.error(MPI.ERR_KEYVAL, "getAttr: keyval=" + keyval + " was never created, expected one from "
                + "createKeyval or a predefined one");
        }
    }

    /**
     * Checks a keyval for storing or deleting an attribute.
     *
     * @param what   the operation, for messages
     * @param kind   the kind of object the caller is
     * @param keyval the keyval
     * @return its entry
     * @throws MpiErrors.MpiError ERR_KEYVAL for an unknown, freed, predefined or other-kind keyval
     */
    static Entry writable(final String what, final Kind kind, final int keyval) {
        return check(what, kind, keyval, false);
    }

    /**
     * Checks a keyval for deleting an attribute: as {@link #writable}, but a freed keyval's attributes may still be
     * deleted.
     *
     * @param kind   the kind of object the caller is
     * @param keyval the keyval
     * @throws MpiErrors.MpiError ERR_KEYVAL for an unknown, predefined or other-kind keyval
     */
    static void deletable(final Kind kind, final int keyval) {
        check("deleteAttr", kind, keyval, true);
    }

    private static Entry check(final String what, final Kind kind, final int keyval, final boolean freedOk) {
        final Entry e = KEYVALS.get(keyval);
        final String problem = null == e ? "was never created" : e.predefined() ? "is predefined"
            : e.freed() && !freedOk ? "was freed" : e.kind() != kind ? "is a keyval of " + e.kind() + " objects"
            : null;
        if (null != problem) {
            throw MpiErrors.error(MPI.ERR_KEYVAL, what + ": keyval=" + keyval + " " + problem + ", expected one from "
                + "createKeyval of " + kind + " objects");
        }
        return e;
    }
}
