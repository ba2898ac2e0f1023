package mpi;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.CharBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;

/**
 * The entry point of the mpi API: {@link #Init}/{@link #Finalize}, the predefined communicators, datatypes,
 * operations and constants (with Open MPI 4.1's numeric values), the buffered-mode buffer, and helpers for direct
 * buffers and {@link #slice offsets}. A program started by {@code tutti run} joins its job in {@code Init}.
 */
public final class MPI {
    // Thread levels
    /** Only one thread. */
    public static final int THREAD_SINGLE = 0;
    /** Only the main thread calls MPI. */
    public static final int THREAD_FUNNELED = 1;
    /** One thread at a time calls MPI. */
    public static final int THREAD_SERIALIZED = 2;
    /** Any thread calls MPI at any time. */
    public static final int THREAD_MULTIPLE = 3;

    /** Topology kinds of {@link Comm#getTopology()}. */
    public static final int GRAPH = 2, DIST_GRAPH = 3, CART = 1;
    /** Wildcards and special ranks. */
    public static final int ANY_SOURCE = -1, ANY_TAG = -1, PROC_NULL = -2, ROOT = -4, UNDEFINED = -32766;
    /** Results of {@link Comm#compare} and {@link Group#compare}. */
    public static final int IDENT = 0, CONGRUENT = 1, SIMILAR = 2, UNEQUAL = 3;
    /** Predefined attribute keys. */
    public static final int TAG_UB = 0, HOST = 1, IO = 2, WTIME_IS_GLOBAL = 3, APPNUM = 4, LASTUSEDCODE = 5,
        UNIVERSE_SIZE = 6, WIN_BASE = 7, WIN_SIZE = 8, WIN_DISP_UNIT = 9;
    /** The MPI standard version implemented (3.1). */
    public static final int VERSION = 3, SUBVERSION = 1;
    /** An invalid keyval; the extra bytes each buffered message needs. */
    public static final int KEYVAL_INVALID = -1, BSEND_OVERHEAD = 128;
    /** Lengths of names and strings. */
    public static final int MAX_OBJECT_NAME = 64, MAX_PORT_NAME = 1024, MAX_DATAREP_STRING = 128,
        MAX_INFO_KEY = 36, MAX_INFO_VAL = 256;
    /** Array orders. */
    public static final int ORDER_C = 0, ORDER_FORTRAN = 1;
    /** Distributions of darray types. */
    public static final int DISTRIBUTE_BLOCK = 0, DISTRIBUTE_CYCLIC = 1, DISTRIBUTE_NONE = 2,
        DISTRIBUTE_DFLT_DARG = -1;
    /** File access modes. */
    public static final int MODE_CREATE = 1, MODE_RDONLY = 2, MODE_WRONLY = 4, MODE_RDWR = 8,
        MODE_DELETE_ON_CLOSE = 16, MODE_UNIQUE_OPEN = 32, MODE_EXCL = 64, MODE_APPEND = 128, MODE_SEQUENTIAL = 256;
    /** File view displacement meaning "the current position". */
    public static final int DISPLACEMENT_CURRENT = -54278278;
    /** Seek origins. */
    public static final int SEEK_SET = 600, SEEK_CUR = 602, SEEK_END = 604;
    /** One-sided assertions. */
    public static final int MODE_NOCHECK = 1, MODE_NOPRECEDE = 2, MODE_NOPUT = 4, MODE_NOSTORE = 8,
        MODE_NOSUCCEED = 16;
    /** Window lock types. */
    public static final int LOCK_EXCLUSIVE = 1, LOCK_SHARED = 2;

    // Error classes (Open MPI's values)
    /** Error classes, compared with {@link MPIException#getErrorClass()}. */
    public static final int SUCCESS = 0, ERR_BUFFER = 1, ERR_COUNT = 2, ERR_TYPE = 3, ERR_TAG = 4, ERR_COMM = 5,
        ERR_RANK = 6, ERR_REQUEST = 7, ERR_ROOT = 8, ERR_GROUP = 9, ERR_OP = 10, ERR_TOPOLOGY = 11, ERR_DIMS = 12,
        ERR_ARG = 13, ERR_UNKNOWN = 14, ERR_TRUNCATE = 15, ERR_OTHER = 16, ERR_INTERN = 17, ERR_IN_STATUS = 18,
        ERR_PENDING = 19, ERR_ACCESS = 20, ERR_AMODE = 21, ERR_ASSERT = 22, ERR_BAD_FILE = 23, ERR_BASE = 24,
        ERR_CONVERSION = 25, ERR_DISP = 26, ERR_DUP_DATAREP = 27, ERR_FILE_EXISTS = 28, ERR_FILE_IN_USE = 29,
        ERR_FILE = 30, ERR_INFO_KEY = 31, ERR_INFO_NOKEY = 32, ERR_INFO_VALUE = 33, ERR_INFO = 34, ERR_IO = 35,
        ERR_KEYVAL = 36, ERR_LOCKTYPE = 37, ERR_NAME = 38, ERR_NO_MEM = 39, ERR_NOT_SAME = 40, ERR_NO_SPACE = 41,
        ERR_NO_SUCH_FILE = 42, ERR_PORT = 43, ERR_QUOTA = 44, ERR_READ_ONLY = 45, ERR_RMA_CONFLICT = 46,
        ERR_RMA_SYNC = 47, ERR_SERVICE = 48, ERR_SIZE = 49, ERR_SPAWN = 50, ERR_UNSUPPORTED_DATAREP = 51,
        ERR_UNSUPPORTED_OPERATION = 52, ERR_WIN = 53, ERR_LASTCODE = 92;
    /** Declared by Open MPI's bindings but never set, so 0 (kept for compatibility). */
    public static final int ERR_SYSRESOURCE = 0;

    /** The error handlers. */
    public static final Errhandler ERRORS_ARE_FATAL = new Errhandler(true), ERRORS_RETURN = new Errhandler(false);

    /** All processes of the job, and the calling process alone. */
    public static final Intracomm COMM_WORLD = new Intracomm(Comm.WORLD), COMM_SELF = new Intracomm(Comm.SELF);

    /** Predefined operations. */
    public static final Op MAX = Op.predefined("MPI_MAX", dev.tutti.Op.MAX),
        MIN = Op.predefined("MPI_MIN", dev.tutti.Op.MIN), SUM = Op.predefined("MPI_SUM", dev.tutti.Op.SUM),
        PROD = Op.predefined("MPI_PROD", dev.tutti.Op.PROD), LAND = Op.predefined("MPI_LAND", dev.tutti.Op.LAND),
        BAND = Op.predefined("MPI_BAND", dev.tutti.Op.BAND), LOR = Op.predefined("MPI_LOR", dev.tutti.Op.LOR),
        BOR = Op.predefined("MPI_BOR", dev.tutti.Op.BOR), LXOR = Op.predefined("MPI_LXOR", dev.tutti.Op.LXOR),
        BXOR = Op.predefined("MPI_BXOR", dev.tutti.Op.BXOR), REPLACE = Op.predefined("MPI_REPLACE", null),
        NO_OP = Op.predefined("MPI_NO_OP", null);
    /** Location operations, over the pair types. */
    public static final Op MINLOC = Op.predefined("MPI_MINLOC", dev.tutti.Op.MINLOC),
        MAXLOC = Op.predefined("MPI_MAXLOC", dev.tutti.Op.MAXLOC);

    /** The null datatype. */
    public static final Datatype DATATYPE_NULL = Datatype.predefined("MPI_DATATYPE_NULL", Datatype.Base.BYTE,
        Datatype.Layout.NONE, 0, null, 1, 1);
    /**
     * Primitive datatypes, used with the Java arrays and buffers of their element type. Their names are those of
     * the C types Open MPI's bindings map them onto ({@code MPI.INT.getName()} is {@code MPI_INT32_T}).
     */
    public static final Datatype BYTE = prim("MPI_UINT8_T", Datatype.Base.BYTE, 1, dev.tutti.Datatype.BYTE, 1),
        CHAR = prim("MPI_UINT16_T", Datatype.Base.CHAR, 2, dev.tutti.Datatype.CHAR, 1),
        SHORT = prim("MPI_INT16_T", Datatype.Base.SHORT, 2, dev.tutti.Datatype.SHORT, 1),
        BOOLEAN = prim("MPI_UINT8_T", Datatype.Base.BOOLEAN, 1, dev.tutti.Datatype.BOOLEAN, 1),
        INT = prim("MPI_INT32_T", Datatype.Base.INT, 4, dev.tutti.Datatype.INT, 1),
        LONG = prim("MPI_INT64_T", Datatype.Base.LONG, 8, dev.tutti.Datatype.LONG, 1),
        FLOAT = prim("MPI_FLOAT", Datatype.Base.FLOAT, 4, dev.tutti.Datatype.FLOAT, 1),
        DOUBLE = prim("MPI_DOUBLE", Datatype.Base.DOUBLE, 8, dev.tutti.Datatype.DOUBLE, 1),
        PACKED = prim("MPI_PACKED", Datatype.Base.BYTE, 1, dev.tutti.Datatype.BYTE, 1),
        FLOAT_COMPLEX = Datatype.predefined("MPI_C_COMPLEX", Datatype.Base.FLOAT, Datatype.Layout.FLOAT_COMPLEX,
            8, dev.tutti.Datatype.FLOAT, 2, 1),
        DOUBLE_COMPLEX = Datatype.predefined("MPI_C_DOUBLE_COMPLEX", Datatype.Base.DOUBLE,
            Datatype.Layout.DOUBLE_COMPLEX, 16, dev.tutti.Datatype.DOUBLE, 2, 1);
    /** (value, index) pair types for MINLOC/MAXLOC, used with byte buffers. */
    public static final Datatype INT2 = pair("MPI_2INT", Datatype.Layout.INT2, 8, dev.tutti.Datatype.INT_PAIR);
    /** (short, int) pairs: short at byte 0, int at byte 4. */
    public static final Datatype SHORT_INT = pair("MPI_SHORT_INT", Datatype.Layout.SHORT_INT, 8,
        dev.tutti.Datatype.LONG);
    /** (long, int) pairs: long at byte 0, int at byte 8. */
    public static final Datatype LONG_INT = pair("MPI_LONG_INT", Datatype.Layout.LONG_INT, 16,
        dev.tutti.Datatype.LONG_PAIR);
    /** (float, int) pairs: float at byte 0, int at byte 4. */
    public static final Datatype FLOAT_INT = pair("MPI_FLOAT_INT", Datatype.Layout.FLOAT_INT, 8,
        dev.tutti.Datatype.LONG);
    /** (double, int) pairs: double at byte 0, int at byte 8. */
    public static final Datatype DOUBLE_INT = pair("MPI_DOUBLE_INT", Datatype.Layout.DOUBLE_INT, 16,
        dev.tutti.Datatype.LONG_PAIR);

    /** The structs of the pair types: views of (value, index) elements of byte buffers. */
    public static final Int2 int2 = new Int2();
    /** The struct of {@link #SHORT_INT}. */
    public static final ShortInt shortInt = new ShortInt();
    /** The struct of {@link #LONG_INT}. */
    public static final LongInt longInt = new LongInt();
    /** The struct of {@link #FLOAT_INT}. */
    public static final FloatInt floatInt = new FloatInt();
    /** The struct of {@link #DOUBLE_INT}. */
    public static final DoubleInt doubleInt = new DoubleInt();

    /** The null request. */
    public static final Request REQUEST_NULL = Request.nullRequest();
    /** The empty group. */
    public static final Group GROUP_EMPTY = new Group(dev.tutti.Group.EMPTY);
    /** The environment's info (empty here) and the null info. */
    public static final Info INFO_ENV = newInfo(), INFO_NULL = Info.nullInfo();

    private static final long START = System.nanoTime();

    private static Datatype prim(final String name, final Datatype.Base base, final int bytes,
        final dev.tutti.Datatype wire, final int per) {
        return Datatype.predefined(name, base, Datatype.Layout.NONE, bytes, wire, per, 1);
    }

    private static Datatype pair(final String name, final Datatype.Layout layout, final int bytes,
        final dev.tutti.Datatype wire) {
        return Datatype.predefined(name, Datatype.Base.BYTE, layout, bytes, wire, 1, 2);
    }

    private static Info newInfo() {
        try {
            return new Info();
        } catch (final MPIException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Checks that MPI is initialized and not finalized.
     *
     * @throws MPIException "MPI is not initialized." or "MPI is finalized."
     */
    static void check() throws MPIException {
        Env.check();
    }

    /**
     * Initializes MPI in this process (or rank thread): joins the job {@code tutti run} started, or runs alone.
     *
     * @param args the program's arguments
     * @return the arguments (Tutti passes none of its own)
     * @throws MPIException if already initialized
     */
    public static String[] Init(final String[] args) throws MPIException {
        Env.init(THREAD_SINGLE);
        EnvInfo.fill(INFO_ENV, args, COMM_WORLD.getSize(), THREAD_SINGLE);
        return args;
    }

    /**
     * Initializes MPI with a thread level. Tutti is thread-safe, so the level asked for is granted.
     *
     * @param args     the program's arguments
     * @param required the level the program needs
     * @return the level provided
     */
    public static int InitThread(final String[] args, final int required) throws MPIException {
        final int level = Math.max(THREAD_SINGLE, Math.min(THREAD_MULTIPLE, required));
        Env.init(level);
        EnvInfo.fill(INFO_ENV, args, COMM_WORLD.getSize(), level);
        return level;
    }

    /** @return the thread level granted by Init */
    public static int queryThread() throws MPIException {
        return Env.check().threadLevel();
    }

    /** @return whether the calling thread called Init */
    public static boolean isThreadMain() throws MPIException {
        return Env.check().mainThread() == Thread.currentThread();
    }

    /** Finalizes MPI: waits for every process, then leaves the job. */
    public static void Finalize() throws MPIException {
        final Env e = Env.check();
        try {
            e.finish();
        } catch (final RuntimeException x) {
            throw COMM_WORLD.fail("MPI_Finalize", x);
        }
    }

    /** @return seconds since an arbitrary origin in the past */
    public static double wtime() throws MPIException {
        check();
        return (System.nanoTime() - START) / 1e9;
    }

    /** @return the resolution of {@link #wtime()} in seconds */
    public static double wtick() throws MPIException {
        check();
        return 1e-9;
    }

    /** @return the MPI standard version, 3.1 */
    public static Version getVersion() {
        return new Version(VERSION, SUBVERSION);
    }

    /** @return the library's version string */
    public static String getLibVersion() {
        final String v = MPI.class.getPackage().getImplementationVersion();
        return "Tutti mpi " + (null == v ? "(development)" : v) + ", API of Open MPI v4.1 Java bindings";
    }

    /** @return the host name (at most 256 characters) */
    public static String getProcessorName() throws MPIException {
        check();
        String name;
        try {
            name = InetAddress.getLocalHost().getHostName();
        } catch (final UnknownHostException e) {
            name = "localhost";
        }
        return name.length() > 256 ? name.substring(0, 256) : name;
    }

    /** @return whether Init has been called (usable at any time) */
    public static boolean isInitialized() throws MPIException {
        final Env e = Env.current();
        return null != e && e.initialized();
    }

    /** @return whether Finalize has been called (usable at any time) */
    public static boolean isFinalized() throws MPIException {
        final Env e = Env.current();
        return null != e && e.finalized();
    }

    /**
     * Attaches the buffer of buffered-mode sends (MPI_Buffer_attach): each buffered message above the eager limit
     * (8 KiB, as Open MPI sends smaller ones eagerly without this buffer) takes its size plus
     * {@link #BSEND_OVERHEAD} bytes of it until its send completes. A second buffer is an ERR_BUFFER error.
     *
     * @param buffer the buffer
     */
    public static void attachBuffer(final byte[] buffer) throws MPIException {
        final Env e = Env.check();
        COMM_WORLD.run("MPI_Buffer_attach", () -> e.buffered().attach(buffer));
    }

    /** @return the buffer passed to {@link #attachBuffer} (null if none), once every buffered message is out */
    public static byte[] detachBuffer() throws MPIException {
        final Env e = Env.check();
        return COMM_WORLD.get("MPI_Buffer_detach", () -> e.buffered().detach());
    }

    /** Profiling control: does nothing. */
    public static void pControl(final int level, final Object obj) {
        // no profiling layer
    }

    /** @param capacity bytes @return a direct buffer in native byte order */
    public static ByteBuffer newByteBuffer(final int capacity) {
        return ByteBuffer.allocateDirect(capacity).order(ByteOrder.nativeOrder());
    }

    /** @param capacity chars @return a direct buffer in native byte order */
    public static CharBuffer newCharBuffer(final int capacity) {
        return newByteBuffer(2 * capacity).asCharBuffer();
    }

    /** @param capacity shorts @return a direct buffer in native byte order */
    public static ShortBuffer newShortBuffer(final int capacity) {
        return newByteBuffer(2 * capacity).asShortBuffer();
    }

    /** @param capacity ints @return a direct buffer in native byte order */
    public static IntBuffer newIntBuffer(final int capacity) {
        return newByteBuffer(4 * capacity).asIntBuffer();
    }

    /** @param capacity longs @return a direct buffer in native byte order */
    public static LongBuffer newLongBuffer(final int capacity) {
        return newByteBuffer(8 * capacity).asLongBuffer();
    }

    /** @param capacity floats @return a direct buffer in native byte order */
    public static FloatBuffer newFloatBuffer(final int capacity) {
        return newByteBuffer(4 * capacity).asFloatBuffer();
    }

    /** @param capacity doubles @return a direct buffer in native byte order */
    public static DoubleBuffer newDoubleBuffer(final int capacity) {
        return newByteBuffer(8 * capacity).asDoubleBuffer();
    }

    /** @param buf a buffer @param offset elements @return a view from element {@code offset} on (native order) */
    public static ByteBuffer slice(final ByteBuffer buf, final int offset) {
        return Slices.remember(buf.clear().position(offset), buf.slice().order(ByteOrder.nativeOrder()));
    }

    /** @param buf a buffer @param offset elements @return a view from element {@code offset} on */
    public static CharBuffer slice(final CharBuffer buf, final int offset) {
        return Slices.remember(buf.clear().position(offset), buf.slice());
    }

    /** @param buf a buffer @param offset elements @return a view from element {@code offset} on */
    public static ShortBuffer slice(final ShortBuffer buf, final int offset) {
        return Slices.remember(buf.clear().position(offset), buf.slice());
    }

    /** @param buf a buffer @param offset elements @return a view from element {@code offset} on */
    public static IntBuffer slice(final IntBuffer buf, final int offset) {
        return Slices.remember(buf.clear().position(offset), buf.slice());
    }

    /** @param buf a buffer @param offset elements @return a view from element {@code offset} on */
    public static LongBuffer slice(final LongBuffer buf, final int offset) {
        return Slices.remember(buf.clear().position(offset), buf.slice());
    }

    /** @param buf a buffer @param offset elements @return a view from element {@code offset} on */
    public static FloatBuffer slice(final FloatBuffer buf, final int offset) {
        return Slices.remember(buf.clear().position(offset), buf.slice());
    }

    /** @param buf a buffer @param offset elements @return a view from element {@code offset} on */
    public static DoubleBuffer slice(final DoubleBuffer buf, final int offset) {
        return Slices.remember(buf.clear().position(offset), buf.slice());
    }

    /** @param buf an array @param offset elements @return a heap buffer from element {@code offset} on */
    public static ByteBuffer slice(final byte[] buf, final int offset) {
        return ByteBuffer.wrap(buf, offset, buf.length - offset).slice().order(ByteOrder.nativeOrder());
    }

    /** @param buf an array @param offset elements @return a heap buffer from element {@code offset} on */
    public static CharBuffer slice(final char[] buf, final int offset) {
        return CharBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    /** @param buf an array @param offset elements @return a heap buffer from element {@code offset} on */
    public static ShortBuffer slice(final short[] buf, final int offset) {
        return ShortBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    /** @param buf an array @param offset elements @return a heap buffer from element {@code offset} on */
    public static IntBuffer slice(final int[] buf, final int offset) {
        return IntBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    /** @param buf an array @param offset elements @return a heap buffer from element {@code offset} on */
    public static LongBuffer slice(final long[] buf, final int offset) {
        return LongBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    /** @param buf an array @param offset elements @return a heap buffer from element {@code offset} on */
    public static FloatBuffer slice(final float[] buf, final int offset) {
        return FloatBuffer.wrap(buf, offset, buf.length - offset).slice();
    }

    /** @param buf an array @param offset elements @return a heap buffer from element {@code offset} on */
    public static DoubleBuffer slice(final double[] buf, final int offset) {
        return DoubleBuffer.wrap(buf, offset, buf.length - offset).slice();
    }
}
