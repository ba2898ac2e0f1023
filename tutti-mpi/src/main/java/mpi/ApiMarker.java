package mpi;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;

/**
 * Refuses a class path with two implementations of package {@code mpi} (this one and tutti-mpj's MPJ Express API):
 * each jar ships the marker {@code META-INF/tutti/mpi-api.properties}, and two markers mean the classes of one would
 * be mixed with the other's, failing later with a {@code NoSuchMethodError}.
 */
final class ApiMarker {
    private static final String MARKER = "META-INF/tutti/mpi-api.properties";

    private ApiMarker() {
    }

    /**
     * @param l the class loader to look in
     * @throws MPIException naming every jar with a marker, if there is more than one
     */
    static void checkOne(final ClassLoader l) throws MPIException {
        final List<String> apis = new ArrayList<>();
        final java.util.Set<String> modules = new java.util.TreeSet<>();
        try {
            for (final URL u : Collections.list(null == l ? ClassLoader.getSystemResources(MARKER)
                : l.getResources(MARKER))) {
                final Properties p = new Properties();
                try (InputStream in = u.openStream()) {
                    p.load(in);
                }
                modules.add(p.getProperty("module", "?"));
                apis.add(p.getProperty("module", "?") + " (" + p.getProperty("api", "?") + ") at "
                    + u.toString().replace("!/" + MARKER, "").replace("/" + MARKER, ""));
            }
        } catch (final IOException e) {
            return; // the check cannot look; the program goes on
        }
        if (modules.size() > 1) { // the same jar twice (a directory and its jar) is not a mix-up
            throw new MPIException(MPI.ERR_OTHER, "MPI.Init: the class path holds " + apis.size()
                + " implementations of package mpi: " + String.join(", ", apis) + ". An Open MPI Java program needs "
                + "tutti-mpi alone; an MPJ Express program needs tutti-mpj alone (remove the other from -cp)", null);
        }
    }
}
