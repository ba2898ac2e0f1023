package mpi;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.URL;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.util.Set;

/**
 * The entry point of MPJ Express's API: {@link #Init}/{@link #Finalize}, the predefined communicators, datatypes,
 * operators and constants (with MPJ Express 0.44's values; as there, most are non-final fields), the
 * buffered-mode buffer, time and error handlers. A program started by {@code tutti run} joins its job in
 * {@code Init}.
 *
 * <p>Implementation note: the datatypes, operators, {@link #EMPTY_STATUS} and {@link #REQUEST_NULL} exist from
 * class load on; {@code Init} makes {@link #COMM_WORLD}, {@link #COMM_SELF} and the null objects. Those two
 * communicator objects serve every rank of an embedded job: each call finds the calling rank's Tutti communicator
 * ({@link Env}).
 */
public class MPI {
    /** Always true, as in MPJ Express (debug output is not controlled by it here). */
    public static final boolean DEBUG = true;
    /** All processes of the job; null before the first {@link #Init}. */
    public static Intracomm COMM_WORLD;
    /** MPJ Express's choice of flat-tree collectives; Tutti chooses its algorithms itself, so always false. */
    public static boolean isOldSelected = false;
    /** The number of processors of this machine. */
    public static final int NUM_OF_PROCESSORS = Runtime.getRuntime().availableProcessors();
    /** No rank, no colour, no count. */
    public static int UNDEFINED = -1;

    /** The null datatype and the basic ones (sizes and extents count array elements: 1). */
    public static Datatype NULL = new BasicType(Base.NULL);
    public static Datatype BYTE = new BasicType(Base.BYTE);
    public static Datatype CHAR = new BasicType(Base.CHAR);
    public static Datatype SHORT = new BasicType(Base.SHORT);
    public static Datatype BOOLEAN = new BasicType(Base.BOOLEAN);
    public static Datatype INT = new BasicType(Base.INT);
    public static Datatype LONG = new BasicType(Base.LONG);
    public static Datatype FLOAT = new BasicType(Base.FLOAT);
    public static Datatype DOUBLE = new BasicType(Base.DOUBLE);
    /** Packed data: the buffer is an {@code mpjbuf.Buffer}, the count is bytes. */
    public static Datatype PACKED = new BasicType(Base.PACKED);
    /** Bound markers for {@link Datatype#Struct}. */
    public static Datatype LB = new BasicType(Base.MARKER);
    public static Datatype UB = new BasicType(Base.MARKER);
    /** Serialisable objects: the buffer is any reference array. */
    public static Datatype OBJECT = new BasicType(Base.OBJECT);

    /** Thread levels; {@link #queryThread()} answers {@link #THREAD_MULTIPLE}. */
    public static int THREAD_SINGLE = 1;
    public static int THREAD_FUNNELED = 2;
    public static int THREAD_SERIALIZED = 3;
    public static int THREAD_MULTIPLE = 4;

    /** (value, index) pairs for {@link #MAXLOC} and {@link #MINLOC}: {@code Contiguous(2, base)}. */
    public static Datatype SHORT2 = new Contiguous(2, SHORT);
    public static Datatype INT2 = new Contiguous(2, INT);
    public static Datatype LONG2 = new Contiguous(2, LONG);
    public static Datatype FLOAT2 = new Contiguous(2, FLOAT);
    public static Datatype DOUBLE2 = new Contiguous(2, DOUBLE);

    /** The predefined operators. */
    public static Op MAX = new Op(dev.tutti.Op.MAX, 1, null);
    public static Op MIN = new Op(dev.tutti.Op.MIN, 2, null);
    public static Op SUM = new Op(dev.tutti.Op.SUM, 3, null);
    public static Op PROD = new Op(dev.tutti.Op.PROD, 4, null);
    public static Op LAND = new Op(dev.tutti.Op.LAND, 5, null);
    public static Op BAND = new Op(dev.tutti.Op.BAND, 6, null);
    public static Op LOR = new Op(dev.tutti.Op.LOR, 7, null);
    public static Op BOR = new Op(dev.tutti.Op.BOR, 8, null);
    public static Op LXOR = new Op(dev.tutti.Op.LXOR, 9, null);
    public static Op BXOR = new Op(dev.tutti.Op.BXOR, 10, null);
    public static Op MAXLOC = new Op(dev.tutti.Op.MAXLOC, 11, new Maxloc());
    public static Op MINLOC = new Op(dev.tutti.Op.MINLOC, 12, new Minloc());

    /** Wildcards of receives and probes. */
    public static int ANY_SOURCE = -2;
    public static int ANY_TAG = -2;
    /** The status a wait on a null request returns (source and tag -2). */
    public static Status EMPTY_STATUS = emptyStatus();
    /** The null process: sends to it and receives from it complete at once, moving nothing. */
    public static int PROC_NULL = -3;
    /** Header bytes: a buffered send's room beyond its packed size, and an mpjbuf.Buffer's headers (none). */
    public static int BSEND_OVERHEAD = 0;
    public static int SEND_OVERHEAD = 0;
    public static int RECV_OVERHEAD = 0;
    /** The group with no process; made by {@link #Init}. */
    public static Group GROUP_EMPTY;
    /** The calling process alone (an {@link Intracomm}); made by {@link #Init}. */
    public static Comm COMM_SELF;
    /** Results of {@code Compare}. */
    public static final int IDENT = 0;
    public static final int CONGRUENT = 3;
    public static final int SIMILAR = 1;
    public static final int UNEQUAL = 2;
    /** What {@code Topo_test()} returns. */
    public static int GRAPH = 1;
    public static int CART = 2;
    /** Error handlers: a failure ends the job, or (the default) throws {@link MPIException}. */
    public static Errhandler ERRORS_ARE_FATAL = new Errhandler(true);
    public static Errhandler ERRORS_RETURN = new Errhandler(false);
    /** Attribute keys: MPJ Express never assigns them, so all are 0 and read the same attribute. */
    public static int TAG_UB;
    public static int HOST;
    public static int IO;
    /** A null request. */
    public static Request REQUEST_NULL = new Request((mpjdev.Request) null);
    /** The null communicator and group; made by {@link #Init}. */
    public static Comm COMM_NULL;
    public static Group GROUP_NULL;

    /** The launcher words MPJ Express's mpjrun.sh puts before a program's arguments, by device. */
    private static final Set<String> DEVICES = Set.of("smpdev", "niodev", "hybdev", "mxdev", "native", "multicore");
    /** Where {@link #Wtime()} counts from: the epoch, read once, advanced by the nanosecond clock. */
    private static final double CLOCK_ORIGIN = System.currentTimeMillis() / 1e3 - System.nanoTime() / 1e9;

    /** Not needed: everything is static; public as in MPJ Express. */
    public MPI() {
    }

    private static Status emptyStatus() {
        final Status s = new Status();
        s.source = -2;
        s.tag = -2;
        return s;
    }

    /**
     * Attaches the buffer of buffered-mode sends ({@code Bsend}, {@code Ibsend}).
     *
     * @param userBuffer the buffer; its capacity bounds the buffered messages on their way
     * @throws MPIException if it is null or a buffer is already attached
     */
    public static void Buffer_attach(final ByteBuffer userBuffer) throws MPIException {
        Env.check("MPI.Buffer_attach").buffered().attach(userBuffer);
    }

    /**
     * Waits until every buffered message has left, then detaches the buffer.
     *
     * @throws MPIException if a buffered send failed
     */
    public static void Buffer_detach() throws MPIException {
        Env.check("MPI.Buffer_detach").buffered().detach("MPI.Buffer_detach");
    }

    /**
     * Does nothing, as in MPJ Express: call {@link #Init}.
     *
     * @param required the level wanted
     * @param provided ignored
     * @param argv     ignored
     * @return null
     */
    public static String[] initThread(final int required, final int provided, final String[] argv) {
        return null;
    }

    /** @return true: any thread may call MPI */
    public static boolean isMainThread() {
        return true;
    }

    /** @return {@link #THREAD_MULTIPLE}: every call may be made from several threads of a rank at once */
    public static int queryThread() {
        return THREAD_MULTIPLE;
    }

    /**
     * Joins the job and makes {@link #COMM_WORLD}, {@link #COMM_SELF} and the null objects. May be called again
     * after {@link #Finalize} in an embedded job (ranks as threads).
     *
     * @param argv the arguments of {@code main}: if they start with the three words MPJ Express's launcher puts first
     *             (rank, size or configuration, device name), those are dropped
     * @return the program's own arguments
     * @throws MPIException if already initialized, or if the class path holds two {@code mpi} APIs
     */
    public static String[] Init(final String[] argv) throws MPIException {
        checkOneApi(MPI.class.getClassLoader());
        Env.init();
        synchronized (MPI.class) {
            if (null == COMM_WORLD) {
                COMM_WORLD = new Intracomm(Comm.Kind.WORLD, null);
                COMM_SELF = new Intracomm(Comm.Kind.SELF, null);
                COMM_NULL = new Comm(Comm.Kind.NULL, null);
                GROUP_EMPTY = new Group(dev.tutti.Group.EMPTY);
                GROUP_NULL = new Group(dev.tutti.Group.EMPTY);
            }
        }
        return programArgs(argv);
    }

    /** @return {@code argv} without the launcher words of mpjrun.sh, if it starts with them */
    static String[] programArgs(final String[] argv) {
        if (null == argv) {
            return new String[0];
        }
        if (argv.length >= 3 && argv[0].matches("\\d+") && DEVICES.contains(argv[2])) {
            final int skip = "hybdev".equals(argv[2]) ? Math.min(8, argv.length) : 3;
            final String[] rest = new String[argv.length - skip];
            System.arraycopy(argv, skip, rest, 0, rest.length);
            return rest;
        }
        return argv.clone();
    }

    /**
     * Refuses a class path with two implementations of package {@code mpi}: every jar of Tutti's mpi APIs ships a
     * marker resource, and two markers mean the classes of one would be mixed with the other's.
     */
    static void checkOneApi(final ClassLoader l) {
        final List<String> apis = new ArrayList<>();
        final java.util.Set<String> modules = new java.util.TreeSet<>();
        try {
            for (final URL u : Collections.list(null == l ? ClassLoader.getSystemResources(API_MARKER)
                : l.getResources(API_MARKER))) {
                final Properties p = new Properties();
                try (InputStream in = u.openStream()) {
                    p.load(in);
                }
                modules.add(p.getProperty("module", "?"));
                apis.add(p.getProperty("module", "?") + " (" + p.getProperty("api", "?") + ") at "
                    + u.toString().replace("!/" + API_MARKER, "").replace("/" + API_MARKER, ""));
            }
        } catch (final IOException e) {
            return; // the check cannot look; the program goes on
        }
        if (modules.size() > 1) { // the same jar twice (a directory and its jar) is not a mix-up
            throw new MPIException("MPI.Init: the class path holds " + apis.size() + " implementations of package "
                + "mpi: " + String.join(", ", apis) + ". An MPJ Express program needs tutti-mpj alone; an Open MPI "
                + "Java program needs tutti-mpi alone (remove the other from -cp)");
        }
    }

    /** The marker resource each mpi API jar ships. */
    private static final String API_MARKER = "META-INF/tutti/mpi-api.properties";

    /**
     * Leaves the job: waits for buffered sends, then for every rank (collective). {@link #Initialized()} is false
     * afterwards.
     *
     * @throws MPIException if not initialized, or a peer failed
     */
    public static void Finalize() throws MPIException {
        final Env e = Env.check("MPI.Finalize");
        try {
            e.finish();
        } catch (final RuntimeException x) {
            throw Fail.wrap("MPI.Finalize", x);
        }
    }

    /**
     * @return this machine's host name
     * @throws MPIException if it cannot be found
     */
    public static String Get_processor_name() throws MPIException {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (final UnknownHostException e) {
            throw new MPIException("MPI.Get_processor_name: " + e.getMessage(), e);
        }
    }

    /**
     * Sets the calling rank's error handler: {@link #ERRORS_RETURN} (a failed call throws, the default) or
     * {@link #ERRORS_ARE_FATAL} (a failed call ends the job).
     *
     * @param errhandler the handler
     * @throws MPIException if it is null or MPI is not initialized
     */
    public static void Errorhandler_set(final Errhandler errhandler) throws MPIException {
        final Env e = Env.check("MPI.Errorhandler_set");
        if (null == errhandler) {
            throw new MPIException("MPI.Errorhandler_set: errhandler=null (expected MPI.ERRORS_ARE_FATAL or "
                + "MPI.ERRORS_RETURN)");
        }
        e.handler(errhandler);
    }

    /**
     * @return the calling rank's error handler
     * @throws MPIException if MPI is not initialized
     */
    public static Errhandler Errorhandler_get() throws MPIException {
        return Env.check("MPI.Errorhandler_get").handler();
    }

    /**
     * @return seconds since the epoch, with the resolution of {@link System#nanoTime()}
     * @throws MPIException never; declared as in MPJ Express
     */
    public static double Wtime() throws MPIException {
        return CLOCK_ORIGIN + System.nanoTime() / 1e9;
    }

    /**
     * @return the resolution of {@link #Wtime()}: 1e-9 s
     * @throws MPIException never; declared as in MPJ Express
     */
    public static double Wtick() throws MPIException {
        return 1e-9;
    }

    /**
     * @return whether the calling rank is initialized and not finalized
     * @throws MPIException never; declared as in MPJ Express
     */
    public static boolean Initialized() throws MPIException {
        final Env e = Env.current();
        return null != e && e.isInitialized();
    }

    /** @return the name of a predefined datatype ({@code INT}), or null */
    static String nameOf(final Datatype t) {
        final Datatype[] all = {NULL, BYTE, CHAR, SHORT, BOOLEAN, INT, LONG, FLOAT, DOUBLE, PACKED, LB, UB, OBJECT,
            SHORT2, INT2, LONG2, FLOAT2, DOUBLE2};
        final String[] names = {"NULL", "BYTE", "CHAR", "SHORT", "BOOLEAN", "INT", "LONG", "FLOAT", "DOUBLE",
            "PACKED", "LB", "UB", "OBJECT", "SHORT2", "INT2", "LONG2", "FLOAT2", "DOUBLE2"};
        for (int i = 0; i < all.length; i++) {
            if (all[i] == t) {
                return names[i];
            }
        }
        return null;
    }
}
