package mpi;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.NotSerializableException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;

/**
 * Java serialisation of the elements of {@code MPI.OBJECT} buffers: one {@code Object[]} per message or block.
 * The bytes travel as Tutti {@code byte[]} object values, which Tutti's allow-list admits.
 *
 * <p>Implementation note: reading admits any class the reader can load, as MPJ Express does (its programs send
 * their own classes without declaring them); the peers are the job's own ranks, which Tutti authenticates. Classes
 * resolve through the thread's context class loader first, then the usual lookup.
 */
final class Wire {
    private Wire() {
    }

    /**
     * @param call   the MPJ call, for the error message
     * @param values the elements
     * @return their bytes
     * @throws MPIException if an element is not serialisable
     */
    static byte[] write(final String call, final Object[] values) {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(values);
        } catch (final NotSerializableException e) {
            throw Fail.error(call + ": an MPI.OBJECT element of class " + e.getMessage() + " is not Serializable "
                + "(expected java.io.Serializable elements)");
        } catch (final IOException e) {
            throw Fail.error(call + ": cannot serialise the MPI.OBJECT elements: " + e);
        }
        return bytes.toByteArray();
    }

    /**
     * @param call  the MPJ call, for the error message
     * @param bytes what {@link #write} made
     * @return the elements
     * @throws MPIException if the bytes cannot be read back
     */
    static Object[] read(final String call, final byte[] bytes) {
        try (ObjectInputStream in = new LoaderStream(new ByteArrayInputStream(bytes))) {
            return (Object[]) in.readObject();
        } catch (final IOException | ClassNotFoundException | ClassCastException e) {
            throw Fail.error(call + ": cannot deserialise the MPI.OBJECT elements received: " + e);
        }
    }

    /** Resolves classes through the context class loader, where a rank's classes are. */
    private static final class LoaderStream extends ObjectInputStream {
        LoaderStream(final InputStream in) throws IOException {
            super(in);
        }

        @Override
        protected Class<?> resolveClass(final ObjectStreamClass desc) throws IOException, ClassNotFoundException {
            final ClassLoader l = Thread.currentThread().getContextClassLoader();
            if (null != l) {
                try {
                    return Class.forName(desc.getName(), false, l);
                } catch (final ClassNotFoundException e) {
                    // fall back to the default lookup (primitive types, the caller's loader)
                }
            }
            return super.resolveClass(desc);
        }
    }
}
