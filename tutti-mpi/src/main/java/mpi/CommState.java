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
 * What the mpi layer keeps per communicator (and per datatype) beyond Tutti's own object: the error handler, the
 * name, and the attributes. Attribute values are stored serialized, as Open MPI's bindings do: {@code getAttr}
 * returns a fresh copy. Thread-safe (every method is synchronized).
 */
final class CommState {
    private Errhandler handler = MPI.ERRORS_ARE_FATAL;
    private String name;
    private final Map<Integer, byte[]> attributes = new HashMap<>();

    CommState(final String name) {
        this.name = name;
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

    synchronized void name(final String n) {
        name = n;
    }

    /**
     * Stores an attribute, serialized.
     *
     * @param keyval the key
     * @param value  a serializable value, or null
     */
    synchronized void put(final int keyval, final Object value) {
        if (null != value && !(value instanceof Serializable)) {
            throw Errors.error(MPI.ERR_ARG, "setAttr: value of " + value.getClass().getName()
                + " is not Serializable, expected a Serializable value");
        }
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        } catch (final IOException e) {
            throw Errors.error(MPI.ERR_ARG, "setAttr: cannot serialize value: " + e);
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
            throw Errors.error(MPI.ERR_INTERN, "getAttr: cannot deserialize value: " + e);
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
        final CommState c = new CommState(newName);
        c.handler = handler;
        return c;
    }
}
