package mpi;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * Fills {@link MPI#INFO_ENV} at initialization with the execution environment (MPI 9.2, the reserved keys of
 * MPI_INFO_ENV), with Open MPI's values and its own keys: {@code command} (the main class, or the jar, as the
 * JVM was started with it), {@code argv}, {@code maxprocs} and {@code ompi_np} (the job's size), {@code host} (the
 * local host name), {@code arch}, {@code wdir} ({@code $PWD}, else the JVM's working directory),
 * {@code thread_level}, {@code ompi_num_apps} (1) and {@code ompi_first_rank} (0).
 *
 * <p>Implementation note: the info is one object for the JVM; each initialization writes it again under its lock
 * (the ranks of an embedded job are threads that write the same values; a later job of the JVM its own).
 */
final class EnvInfo {
    private static final String[] LEVELS = {"MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED", "MPI_THREAD_SERIALIZED",
        "MPI_THREAD_MULTIPLE"};

    private EnvInfo() {
    }

    /**
     * Fills the info.
     *
     * @param info  MPI.INFO_ENV
     * @param args  the program's arguments
     * @param size  the job's size
     * @param level the thread level granted
     */
    static void fill(final Info info, final String[] args, final int size, final int level) throws MPIException {
        synchronized (info) {
            final String command = System.getProperty("sun.java.command", "").trim();
            put(info, "command", command.isEmpty() ? "java" : command.split("\\s+", 2)[0]);
            if (null != args && args.length > 0) {
                put(info, "argv", String.join(" ", args));
            }
            put(info, "maxprocs", Integer.toString(size));
            put(info, "ompi_np", Integer.toString(size));
            put(info, "host", hostName());
            put(info, "arch", System.getProperty("os.arch", "unknown"));
            final String pwd = System.getenv("PWD");
            put(info, "wdir", null != pwd ? pwd : System.getProperty("user.dir", "."));
            put(info, "thread_level", LEVELS[level]);
            put(info, "ompi_num_apps", "1");
            put(info, "ompi_first_rank", "0");
        }
    }

    /** Sets a key, cut to what an info holds (values longer than MPI.MAX_INFO_VAL - 1 are shortened). */
    private static void put(final Info info, final String key, final String value) throws MPIException {
        if (!value.isEmpty()) {
            info.set(key, value.length() < MPI.MAX_INFO_VAL ? value : value.substring(0, MPI.MAX_INFO_VAL - 1));
        }
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (final UnknownHostException e) {
            return "localhost"; // no name resolution: the loopback name is what the host is called then
        }
    }
}
