package mpi;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.NotSerializableException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;

/**
 * Java serialisation of the elements of {@code MPI.OBJECT} buffers: one {@code Object[]} per message or block.
 * The bytes travel as Tutti {@code byte[]} object values, which Tutti's allow-list admits.
 *
 * <p>Implementation note: reading admits any class the reader can load, as MPJ Express does (its programs send
 * their own classes without declaring them); the peers are the job's own ranks, which Tutti authenticates. Classes
 * resolve as {@link mpjbuf.LoaderObjectInputStream} says.
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
        try (ObjectInputStream in = new mpjbuf.LoaderObjectInputStream(new ByteArrayInputStream(bytes))) {
            return (Object[]) in.readObject();
        } catch (final IOException | ClassNotFoundException | ClassCastException e) {
            throw Fail.error(call + ": cannot deserialise the MPI.OBJECT elements received: " + e);
        }
    }
}
