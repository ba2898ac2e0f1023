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

    /** @param key the key @param value the value */
    public synchronized void set(final String key, final String value) throws MPIException {
        live().put(key, value);
    }

    /** @param key the key @return the value, or null */
    public synchronized String get(final String key) throws MPIException {
        return live().get(key);
    }

    /** @param key the key to remove; an absent key is an ERR_INFO_NOKEY error */
    public synchronized void delete(final String key) throws MPIException {
        if (null == live().remove(key)) {
            throw new MPIException(MPI.ERR_INFO_NOKEY, Errors.string(MPI.ERR_INFO_NOKEY),
                Errors.error(MPI.ERR_INFO_NOKEY, "delete: key=" + key + " is not set"));
        }
    }

    /** @return the number of keys */
    public synchronized int size() throws MPIException {
        return live().size();
    }

    /** @param i an index below {@link #size()} @return the i-th key */
    public synchronized String getKey(final int i) throws MPIException {
        final List<String> keys = new ArrayList<>(live().keySet());
        if (i < 0 || i >= keys.size()) {
            throw new MPIException(MPI.ERR_ARG, Errors.string(MPI.ERR_ARG),
                Errors.error(MPI.ERR_ARG, "getKey: i=" + i + " outside 0.." + (keys.size() - 1)));
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
        if (null == entries) {
            throw new MPIException(MPI.ERR_INFO, Errors.string(MPI.ERR_INFO),
                Errors.error(MPI.ERR_INFO, "the info is null or freed"));
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
