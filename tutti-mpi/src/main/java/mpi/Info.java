package mpi;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** An ordered set of string hints (MPI_Info). {@link #get} returns null for an absent key. */
public final class Info implements Freeable, Cloneable {
    private Map<String, String> entries = new LinkedHashMap<>();

    /** Creates an empty info. */
    public Info() throws MPIException {
        // usable before Init too: it is only a map here
    }

    /**
     * Sets a key's value (MPI_Info_set): an empty key or one of {@code MPI.MAX_INFO_KEY} or more characters is an
     * ERR_INFO_KEY error, an empty value or one of {@code MPI.MAX_INFO_VAL} or more an ERR_INFO_VALUE error.
     *
     * @param key   the key
     * @param value the value
     */
    public synchronized void set(final String key, final String value) throws MPIException {
        final Map<String, String> m = live("MPI_Info_set");
        key("MPI_Info_set", key);
        if (null == value || value.isEmpty() || value.length() >= MPI.MAX_INFO_VAL) {
            throw fail("MPI_Info_set", MPI.ERR_INFO_VALUE, "set: value of " + (null == value ? "null"
                : value.length() + " characters") + ", expected 1.." + (MPI.MAX_INFO_VAL - 1) + " characters");
        }
        m.put(key, value);
    }

    /** @param key the key @return the value, or null */
    public synchronized String get(final String key) throws MPIException {
        final Map<String, String> m = live("MPI_Info_get");
        key("MPI_Info_get", key);
        return m.get(key);
    }

    /** @param key the key to remove; an absent key is an ERR_INFO_NOKEY error */
    public synchronized void delete(final String key) throws MPIException {
        final Map<String, String> m = live("MPI_Info_delete");
        key("MPI_Info_delete", key);
        if (null == m.remove(key)) {
            throw fail("MPI_Info_delete", MPI.ERR_INFO_NOKEY, "delete: key=" + key + " is not set");
        }
    }

    private static void key(final String call, final String key) throws MPIException {
        if (null == key || key.isEmpty() || key.length() >= MPI.MAX_INFO_KEY) {
            throw fail(call, MPI.ERR_INFO_KEY, "key=" + key + ", expected 1.." + (MPI.MAX_INFO_KEY - 1)
                + " characters");
        }
    }

    /*
     * Info errors go to MPI_COMM_WORLD's handler, as Open MPI does (an info belongs to no communicator); before
     * Init or after Finalize they are thrown.
     */
    private static MPIException fail(final String call, final int errorClass, final String detail)
        throws MPIException {
        final MpiErrors.MpiError e = MpiErrors.error(errorClass, detail);
        if (MPI.isInitialized() && !MPI.isFinalized()) {
            return MPI.COMM_WORLD.fail(call, e);
        }
        return new MPIException(errorClass, MpiErrors.string(errorClass), e);
    }

    /** @return the number of keys */
    public synchronized int size() throws MPIException {
        return live().size();
    }

    /** @param i an index below {@link #size()} @return the i-th key */
    public synchronized String getKey(final int i) throws MPIException {
        final List<String> keys = new ArrayList<>(live().keySet());
        if (i < 0 || i >= keys.size()) {
            throw new MPIException(MPI.ERR_ARG, MpiErrors.string(MPI.ERR_ARG),
                MpiErrors.error(MPI.ERR_ARG, "getKey: i=" + i + " outside 0.." + (keys.size() - 1)));
        }
        return keys.get(i);
    }

    /** @return a copy */
    @Override
    public synchronized Info clone() {
        try {
            return dup();
        } catch (final MPIException e) {
            throw new RuntimeException(e);
        }
    }

    /** @return a copy */
    public synchronized Info dup() throws MPIException {
        final Info i = new Info();
        i.entries = new LinkedHashMap<>(live());
        return i;
    }

    /** Frees the info; the handle becomes null. */
    @Override
    public synchronized void free() throws MPIException {
        entries = null;
    }

    /** @return whether the handle is null (freed, or MPI.INFO_NULL) */
    public synchronized boolean isNull() {
        return null == entries;
    }

    private Map<String, String> live() throws MPIException {
        return live("MPI_Info");
    }

    private Map<String, String> live(final String call) throws MPIException {
        if (null == entries) {
            throw fail(call, MPI.ERR_INFO, "the info is null or freed");
        }
        return entries;
    }

    /** @return a null info (MPI.INFO_NULL) */
    static Info nullInfo() {
        try {
            final Info i = new Info();
            i.entries = null;
            return i;
        } catch (final MPIException e) {
            throw new IllegalStateException(e);
        }
    }
}
