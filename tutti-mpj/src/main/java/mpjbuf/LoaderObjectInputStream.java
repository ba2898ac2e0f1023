package mpjbuf;

import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectStreamClass;

/**
 * Reads serialised objects, resolving their classes through the thread's context class loader first (where a
 * rank's own classes are when ranks are threads of one JVM, each with a loader of its own), then the usual lookup.
 * Used for {@code MPI.OBJECT} messages and for the sections of a {@link Buffer}; it admits any class the reader can
 * load, as MPJ Express does, since the peers are the job's own ranks, which Tutti authenticates.
 */
public final class LoaderObjectInputStream extends ObjectInputStream {
    /**
     * @param in the serialised bytes
     * @throws IOException if the stream header cannot be read
     */
    public LoaderObjectInputStream(final InputStream in) throws IOException {
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
