package mpi;

import java.nio.Buffer;

/**
 * An RMA window (MPI_Win). Tutti's mpi layer provides windows as objects for error handling and bookkeeping:
 * creation ({@code new Win(...)}, which checks its arguments), the group, name, info, attributes, error handlers
 * ({@code ERRORS_ARE_FATAL} by default, {@link #callErrhandler} ending the job with the code) and {@link #free()}.
 * One-sided communication itself (put, get, accumulate, synchronization) is not provided: those methods throw an
 * {@link MPIException} of class {@link MPI#ERR_UNSUPPORTED_OPERATION}, whatever the handler.
 */
public final class Win implements Freeable {
    /** The null window handle. */
    public static final int WIN_NULL = 0;
    /** Flavor of {@link #Win(int, int, Info, Comm, Buffer, int)}: memory private to each process. */
    public static final int FLAVOR_PRIVATE = 0;
    /** Flavor of {@link #Win(int, int, Info, Comm, Buffer, int)}: memory shared by the processes of a host. */
    public static final int FLAVOR_SHARED = 1;

    private final Guard guard = new Guard("MPI_WIN", MPI.ERRORS_ARE_FATAL, MPI.ERR_WIN);
    private final Group group;
    private volatile Info info;
    /** The predefined attributes: MPI_WIN_BASE (the memory's address), MPI_WIN_SIZE and MPI_WIN_DISP_UNIT (bytes). */
    private final long baseAddress;
    private final int sizeBytes;
    private final int dispUnitBytes;

    /**
     * Creates a window over memory (MPI_Win_create).
     *
     * @param base     the memory, a direct buffer
     * @param size     its size in elements of the buffer's type
     * @param dispUnit the displacement unit in elements
     * @param info     hints
     * @param comm     the processes of the window
     */
    public Win(final Buffer base, final int size, final int dispUnit, final Info info, final Comm comm)
        throws MPIException {
        Bufs.requireDirect(base, "The buffer must be direct.");
        this.group = create(comm, "MPI_Win_create", size, dispUnit);
        this.info = info;
        this.baseAddress = address(base);
        this.sizeBytes = size * elementBytes(base);
        this.dispUnitBytes = dispUnit * elementBytes(base);
    }

    /**
     * Allocates a window (MPI_Win_allocate, or MPI_Win_allocate_shared for {@link #FLAVOR_SHARED}).
     *
     * @param size     the size in elements of {@code base}'s type
     * @param dispUnit the displacement unit in elements
     * @param info     hints
     * @param comm     the processes of the window
     * @param base     the memory, a direct buffer
     * @param flavor   {@link #FLAVOR_PRIVATE} or {@link #FLAVOR_SHARED}
     */
    public Win(final int size, final int dispUnit, final Info info, final Comm comm, final Buffer base,
        final int flavor) throws MPIException {
        Bufs.requireDirect(base, "The buffer must be direct.");
        if (FLAVOR_PRIVATE != flavor && FLAVOR_SHARED != flavor) {
            throw new IllegalArgumentException("flavor=" + flavor + ", expected Win.FLAVOR_PRIVATE or "
                + "Win.FLAVOR_SHARED");
        }
        this.group = create(comm, FLAVOR_SHARED == flavor ? "MPI_Win_allocate_shared" : "MPI_Win_allocate", size,
            dispUnit);
        this.info = info;
        this.baseAddress = address(base);
        this.sizeBytes = size * elementBytes(base);
        this.dispUnitBytes = dispUnit * elementBytes(base);
    }

    /**
     * Creates a dynamic window (MPI_Win_create_dynamic).
     *
     * @param info hints
     * @param comm the processes of the window
     */
    public Win(final Info info, final Comm comm) throws MPIException {
        this.group = create(comm, "MPI_Win_create_dynamic", 0, 1);
        this.info = info;
        this.baseAddress = 0; // MPI_BOTTOM
        this.sizeBytes = 0;
        this.dispUnitBytes = 1;
    }

    private static long address(final Buffer base) {
        return null == base ? 0 : java.lang.foreign.MemorySegment.ofBuffer(base).address();
    }

    /** @return the bytes of one element of a buffer's type */
    private static int elementBytes(final Buffer b) {
        return switch (b) {
            case java.nio.ByteBuffer x -> 1;
            case java.nio.CharBuffer x -> 2;
            case java.nio.ShortBuffer x -> 2;
            case java.nio.IntBuffer x -> 4;
            case java.nio.FloatBuffer x -> 4;
            case java.nio.LongBuffer x -> 8;
            case java.nio.DoubleBuffer x -> 8;
            case null, default -> 1;
        };
    }

    /** Checks the arguments of a creation (through the communicator's handler) and returns the window's group. */
    private static Group create(final Comm comm, final String call, final int size, final int dispUnit)
        throws MPIException {
        MPI.check();
        if (null == comm) {
            throw new IllegalArgumentException("comm=null, expected a communicator");
        }
        return comm.get(call, () -> {
            if (comm.tc().isInter()) {
                throw MpiErrors.error(MPI.ERR_COMM, call + ": an intercommunicator, expected an intracommunicator");
            }
            if (size < 0) {
                throw MpiErrors.error(MPI.ERR_SIZE, call + ": size=" + size + ", expected >= 0");
            }
            if (dispUnit <= 0) {
                throw MpiErrors.error(MPI.ERR_DISP, call + ": dispUnit=" + dispUnit + ", expected > 0");
            }
            return new Group(comm.tc().group());
        });
    }

    /** Not supported: dynamic windows are not provided. */
    public void attach(final Buffer base, final int size) throws MPIException {
        throw guard.unsupported("MPI_Win_attach");
    }

    /** Not supported: dynamic windows are not provided. */
    public void detach(final Buffer base) throws MPIException {
        throw guard.unsupported("MPI_Win_detach");
    }

    /** @return the group of the processes of the window (MPI_Win_get_group) */
    public Group getGroup() throws MPIException {
        return guard.get("MPI_Win_get_group", () -> group);
    }

    /** Not supported: one-sided communication is not provided. */
    public void put(final Buffer origin, final int orgCount, final Datatype orgType, final int targetRank,
        final int targetDisp, final int targetCount, final Datatype targetType) throws MPIException {
        throw guard.unsupported("MPI_Put");
    }

    /** Not supported: one-sided communication is not provided. */
    public void get(final Buffer origin, final int orgCount, final Datatype orgType, final int targetRank,
        final int targetDisp, final int targetCount, final Datatype targetType) throws MPIException {
        throw guard.unsupported("MPI_Get");
    }

    /** Not supported: one-sided communication is not provided. */
    public void accumulate(final Buffer origin, final int orgCount, final Datatype orgType, final int targetRank,
        final int targetDisp, final int targetCount, final Datatype targetType, final Op op) throws MPIException {
        throw guard.unsupported("MPI_Accumulate");
    }

    /** Not supported: one-sided synchronization is not provided. */
    public void fence(final int assertion) throws MPIException {
        throw guard.unsupported("MPI_Win_fence");
    }

    /** Not supported: one-sided synchronization is not provided. */
    public void start(final Group group, final int assertion) throws MPIException {
        throw guard.unsupported("MPI_Win_start");
    }

    /** Not supported: one-sided synchronization is not provided. */
    public void complete() throws MPIException {
        throw guard.unsupported("MPI_Win_complete");
    }

    /** Not supported: one-sided synchronization is not provided. */
    public void post(final Group group, final int assertion) throws MPIException {
        throw guard.unsupported("MPI_Win_post");
    }

    /** Not supported: one-sided synchronization is not provided. */
    public void waitFor() throws MPIException {
        throw guard.unsupported("MPI_Win_wait");
    }

    /** Not supported: one-sided synchronization is not provided. */
    public boolean test() throws MPIException {
        throw guard.unsupported("MPI_Win_test");
    }

    /** Not supported: one-sided synchronization is not provided. */
    public void lock(final int lockType, final int rank, final int assertion) throws MPIException {
        throw guard.unsupported("MPI_Win_lock");
    }

    /** Not supported: one-sided synchronization is not provided. */
    public void unlock(final int rank) throws MPIException {
        throw guard.unsupported("MPI_Win_unlock");
    }

    /** @param errhandler the handler of this window's errors */
    public void setErrhandler(final Errhandler errhandler) throws MPIException {
        guard.setHandler(errhandler);
    }

    /** @return the current handler */
    public Errhandler getErrhandler() throws MPIException {
        return guard.handler();
    }

    /**
     * Invokes the handler with a code (MPI_Win_call_errhandler): under ERRORS_ARE_FATAL (the default) the job ends
     * with {@code errorCode} as its exit status; under ERRORS_RETURN this returns normally.
     *
     * @param errorCode the code
     */
    public void callErrhandler(final int errorCode) throws MPIException {
        guard.call("MPI_Win_call_errhandler", errorCode);
    }

    /** @return a new attribute key */
    public static int createKeyval() throws MPIException {
        MPI.check();
        return Keyvals.create(Keyvals.Kind.WIN);
    }

    /** @param keyval a key from {@link #createKeyval()}: it can no longer store values */
    public static void freeKeyval(final int keyval) throws MPIException {
        MPI.COMM_WORLD.run("MPI_Win_free_keyval", () -> Keyvals.free(Keyvals.Kind.WIN, keyval));
    }

    /** Stores a Serializable value as a copy under a key (MPI_Win_set_attr). */
    public void setAttr(final int keyval, final Object value) throws MPIException {
        guard.run("MPI_Win_set_attr", () -> {
            Keyvals.writable("setAttr", Keyvals.Kind.WIN, keyval);
            guard.state().put(keyval, value);
        });
    }

    /**
     * Returns an attribute (MPI_Win_get_attr): the predefined {@code MPI.WIN_BASE} (the memory's address, a
     * {@code Long}), {@code MPI.WIN_SIZE} and {@code MPI.WIN_DISP_UNIT} (in bytes, {@code Integer}s), or a copy of
     * the value stored under a key, or null.
     *
     * @param keyval the key
     * @return the value
     */
    public Object getAttr(final int keyval) throws MPIException {
        return guard.get("MPI_Win_get_attr", () -> {
            Keyvals.readable(keyval);
            return switch (keyval) {
                case MPI.WIN_BASE -> baseAddress;
                case MPI.WIN_SIZE -> sizeBytes;
                case MPI.WIN_DISP_UNIT -> dispUnitBytes;
                default -> guard.state().get(keyval);
            };
        });
    }

    /** Removes the value under a key. */
    public void deleteAttr(final int keyval) throws MPIException {
        guard.run("MPI_Win_delete_attr", () -> {
            Keyvals.deletable(Keyvals.Kind.WIN, keyval);
            guard.state().delete(keyval);
        });
    }

    /** Frees the window (MPI_Win_free); later calls fail with {@code MPI.ERR_WIN}. */
    @Override
    public void free() throws MPIException {
        guard.run("MPI_Win_free", guard::free);
    }

    /** @return the hints set, or an empty {@link Info} */
    public Info getInfo() throws MPIException {
        final Info i = guard.get("MPI_Win_get_info", () -> info);
        return null == i || i.isNull() ? new Info() : i.dup();
    }

    /** @param info hints to keep */
    public void setInfo(final Info info) throws MPIException {
        guard.run("MPI_Win_set_info", () -> this.info = info);
    }

    /** Not supported: one-sided communication is not provided. */
    public final Request rPut(final Buffer origin_addr, final int origin_count, final Datatype origin_datatype,
        final int target_rank, final int target_disp, final int target_count, final Datatype target_datatype)
        throws MPIException {
        throw guard.unsupported("MPI_Rput");
    }

    /** Not supported: one-sided communication is not provided. */
    public final Request rGet(final Buffer origin, final int orgCount, final Datatype orgType, final int targetRank,
        final int targetDisp, final int targetCount, final Datatype targetType) throws MPIException {
        throw guard.unsupported("MPI_Rget");
    }

    /** Not supported: one-sided communication is not provided. */
    public Request rAccumulate(final Buffer origin, final int orgCount, final Datatype orgType,
        final int targetRank, final int targetDisp, final int targetCount, final Datatype targetType, final Op op)
        throws MPIException {
        throw guard.unsupported("MPI_Raccumulate");
    }

    /** Not supported: one-sided communication is not provided. */
    public void getAccumulate(final Buffer origin, final int orgCount, final Datatype orgType,
        final Buffer resultAddr, final int resultCount, final Datatype resultType, final int targetRank,
        final int targetDisp, final int targetCount, final Datatype targetType, final Op op) throws MPIException {
        throw guard.unsupported("MPI_Get_accumulate");
    }

    /** Not supported: one-sided communication is not provided. */
    public Request rGetAccumulate(final Buffer origin, final int orgCount, final Datatype orgType,
        final Buffer resultAddr, final int resultCount, final Datatype resultType, final int targetRank,
        final int targetDisp, final int targetCount, final Datatype targetType, final Op op) throws MPIException {
        throw guard.unsupported("MPI_Rget_accumulate");
    }

    /** Not supported: one-sided synchronization is not provided. */
    public void lockAll(final int assertion) throws MPIException {
        throw guard.unsupported("MPI_Win_lock_all");
    }

    /** Not supported: one-sided synchronization is not provided. */
    public void unlockAll() throws MPIException {
        throw guard.unsupported("MPI_Win_unlock_all");
    }

    /** Not supported: one-sided synchronization is not provided. */
    public void sync() throws MPIException {
        throw guard.unsupported("MPI_Win_sync");
    }

    /** Not supported: one-sided synchronization is not provided. */
    public void flush(final int targetRank) throws MPIException {
        throw guard.unsupported("MPI_Win_flush");
    }

    /** Not supported: one-sided synchronization is not provided. */
    public void flushAll() throws MPIException {
        throw guard.unsupported("MPI_Win_flush_all");
    }

    /** Not supported: one-sided communication is not provided. */
    public void compareAndSwap(final Buffer origin, final Buffer compareAddr, final Buffer resultAddr,
        final Datatype targetType, final int targetRank, final int targetDisp) throws MPIException {
        throw guard.unsupported("MPI_Compare_and_swap");
    }

    /** Not supported: one-sided communication is not provided. */
    public void fetchAndOp(final Buffer origin, final Buffer resultAddr, final Datatype dataType,
        final int targetRank, final int targetDisp, final Op op) throws MPIException {
        throw guard.unsupported("MPI_Fetch_and_op");
    }

    /** Not supported: one-sided synchronization is not provided. */
    public void flushLocal(final int targetRank) throws MPIException {
        throw guard.unsupported("MPI_Win_flush_local");
    }

    /** Not supported: one-sided synchronization is not provided. */
    public void flushLocalAll() throws MPIException {
        throw guard.unsupported("MPI_Win_flush_local_all");
    }

    /** @return the window's name */
    public String getName() throws MPIException {
        return guard.get("MPI_Win_get_name", () -> guard.state().shownName());
    }

    /** @param name the window's new name */
    public void setName(final String name) throws MPIException {
        guard.run("MPI_Win_set_name", () -> guard.state().name(CommState.fit("setName", name)));
    }
}
