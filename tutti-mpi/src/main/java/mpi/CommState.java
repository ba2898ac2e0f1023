package mpi;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.util.HashMap;
import java.util.Map;

/**
 * What the mpi layer keeps per communicator (and per datatype and window) beyond Tutti's own object: the error
 * handler, the name, and the attributes. Attribute values are stored serialized, as Open MPI's bindings do:
 * {@code getAttr} returns a fresh copy. Thread-safe (every method is synchronized).
 *
 * <p>Names work as in Open MPI: every object has a name for error reports ({@link #name()}), but {@code getName}
 * shows it ({@link #shownName()}) only for a predefined object or once {@code setName} was called; a new
 * communicator, datatype or window is unnamed (an empty string), as MPI says.
 */
final class CommState {
    private Errhandler handler = MPI.ERRORS_ARE_FATAL;
    private String name;
    /** Whether {@link #name} is the object's MPI name (predefined, or set), not only its name in reports. */
    private boolean named;
    private final Map<Integer, byte[]> attributes = new HashMap<>();

    /** @param name a predefined object's name, shown by getName ({@code MPI_COMM_WORLD}, {@code MPI_INT32_T}) */
    CommState(final String name) {
        this.name = name;
        this.named = true;
    }

    /**
     * Returns the state of a new object whose getName is empty until set.
     *
     * @param reportName its name in error reports
     * @return the state
     */
    static CommState unnamed(final String reportName) {
        final CommState s = new CommState(reportName);
        s.named = false;
        return s;
    }

    synchronized Errhandler handler() {
        return handler;
    }

    synchronized void handler(final Errhandler h) {
        handler = h;
    }

    synchronized String name() {
        return name;
    }

    /** @param n the name set by {@code setName} (shown by getName from now on) */
    synchronized void name(final String n) {
        name = n;
        named = true;
    }

    /**
     * Checks and fits a name given to {@code setName}: at most {@code MPI.MAX_OBJECT_NAME - 1} characters are kept,
     * as Open MPI truncates it.
     *
     * @param what the operation
     * @param n    the name
     * @return the name, truncated
     */
    static String fit(final String what, final String n) {
        if (null == n) {
            throw MpiErrors.error(MPI.ERR_ARG, what + ": name=null, expected a string");
        }
        return n.length() < MPI.MAX_OBJECT_NAME ? n : n.substring(0, MPI.MAX_OBJECT_NAME - 1);
    }

    /** @return the name getName shows: the predefined or set name, else an empty string */
    synchronized String shownName() {
        return named ? name : "";
    }

    /**
     * Stores an attribute, serialized.
     *
     * @param keyval the key
     * @param value  a serializable value, or null
     */
    synchronized void put(final int keyval, final Object value) {
        if (null != value && !(value instanceof Serializable)) {
            throw MpiErrors.error(MPI.ERR_ARG, "setAttr: value of " + value.getClass().getName()
                + " is not Serializable, expected a Serializable value");
        }
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        } catch (final IOException e) {
            throw MpiErrors.error(MPI.ERR_ARG, "setAttr: cannot serialize value: " + e);
        }
        attributes.put(keyval, bytes.toByteArray());
    }

    /**
     * Returns a fresh copy of an attribute.
     *
     * @param keyval the key
     * @return the value, or null if not set
     */
    synchronized Object get(final int keyval) {
        final byte[] b = attributes.get(keyval);
        if (null == b) {
            return null;
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(b))) {
            return in.readObject();
        } catch (final IOException | ClassNotFoundException e) {
            throw MpiErrors.error(MPI.ERR_INTERN, "getAttr: cannot deserialize value: " + e);
        }
    }

    synchronized void delete(final int keyval) {
        attributes.remove(keyval);
    }

    /**
     * Returns a copy for a duplicated object: same handler and attributes, no name.
     *
     * @param newName the copy's name
     * @return the copy
     */
    synchronized CommState copy(final String newName) {
        final CommState c = derive(newName);
        c.attributes.putAll(attributes);
        return c;
    }

    /**
     * Returns the state of an object made from this one other than by duplication (split, create, a topology, a
     * sub-grid, an intercommunicator, a merge, accept/connect): the error handler is inherited, the attributes
     * are not (MPI copies attributes on duplication only).
     *
     * @param newName the new object's name
     * @return the new state
     */
    synchronized CommState derive(final String newName) {
        final CommState c = unnamed(newName);
        c.handler = handler;
        return c;
    }
}
