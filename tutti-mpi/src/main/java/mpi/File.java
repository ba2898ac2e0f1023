package mpi;

import dev.tutti.Buf;
import dev.tutti.Communicator;

import java.io.IOException;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.EnumSet;
import java.util.Set;

/**
 * An MPI-IO file (MPI_File). Tutti's mpi layer opens, closes and deletes files as MPI says (the access modes and
 * their error classes: {@code ERR_AMODE}, {@code ERR_NO_SUCH_FILE}, {@code ERR_FILE_EXISTS}, ...), and keeps a
 * file's size, group, access mode, view, atomicity, info and error handler ({@code ERRORS_RETURN} by default, as
 * MPI has it for files). Data access (reads, writes, file pointers) is not provided: those methods throw an
 * {@link MPIException} of class {@link MPI#ERR_UNSUPPORTED_OPERATION}, whatever the handler.
 *
 * <p>Opening is collective: rank 0 of the communicator checks existence and creates the file, tells the others
 * the outcome (a broadcast), and then every process opens its own channel to it.
 */
public final class File {
    private static final Set<String> DATAREPS = Set.of("native", "internal", "external32");

    private final Guard guard;
    private final Communicator comm;
    private final Path path;
    private final int amode;
    private final FileChannel channel;
    private volatile Info info;
    private volatile FileView view = new FileView(0, MPI.BYTE, MPI.BYTE, "native");
    private volatile boolean atomicity;

    /**
     * Opens a file (MPI_File_open), collective over {@code comm}.
     *
     * @param comm     the processes that open it (an intracommunicator)
     * @param filename the file's path
     * @param amode    the access mode: {@code MPI.MODE_*} flags, exactly one of RDONLY, WRONLY, RDWR
     */
    public File(final Comm comm, final String filename, final int amode) throws MPIException {
        this(comm, filename, amode, MPI.INFO_NULL);
    }

    /**
     * Opens a file (MPI_File_open) with hints, collective over {@code comm}.
     *
     * @param comm     the processes that open it (an intracommunicator)
     * @param filename the file's path
     * @param amode    the access mode
     * @param info     hints (kept, not used)
     */
    public File(final Comm comm, final String filename, final int amode, final Info info) throws MPIException {
        this.guard = new Guard(String.valueOf(filename), MPI.ERRORS_RETURN, MPI.ERR_FILE);
        this.amode = amode;
        this.info = info;
        this.comm = guard.get("MPI_File_open", () -> {
            if (null == comm || !(comm.tc() instanceof Communicator c)) {
                throw MpiErrors.error(MPI.ERR_COMM, "File: comm must be an intracommunicator");
            }
            if (null == filename) {
                throw MpiErrors.error(MPI.ERR_BAD_FILE, "File: filename=null, expected a path");
            }
            return c;
        });
        this.path = Path.of(filename);
        this.channel = guard.get("MPI_File_open", this::open);
    }

    private FileChannel open() {
        checkAmode(amode);
        final int[] outcome = new int[1];
        if (0 == comm.rank()) {
            outcome[0] = create();
        }
        comm.bcast(Buf.of(outcome), 0);
        if (MPI.SUCCESS != outcome[0]) {
            throw MpiErrors.error(outcome[0], "File: cannot open " + path);
        }
        final Set<StandardOpenOption> options = EnumSet.noneOf(StandardOpenOption.class);
        if (0 == (amode & MPI.MODE_WRONLY)) {
            options.add(StandardOpenOption.READ);
        }
        if (0 == (amode & MPI.MODE_RDONLY)) {
            options.add(StandardOpenOption.WRITE);
        }
        try {
            return FileChannel.open(path, options);
        } catch (final IOException e) {
            throw MpiErrors.error(ioClass(e), "File: cannot open " + path + ": " + e);
        }
    }

    /** At rank 0: checks existence and creates the file; @return the error class, or SUCCESS */
    private int create() {
        final boolean exists = Files.exists(path);
        if (exists && 0 != (amode & MPI.MODE_CREATE) && 0 != (amode & MPI.MODE_EXCL)) {
            return MPI.ERR_FILE_EXISTS;
        }
        if (!exists && 0 == (amode & MPI.MODE_CREATE)) {
            return MPI.ERR_NO_SUCH_FILE;
        }
        if (!exists) {
            try {
                Files.createFile(path);
            } catch (final IOException e) {
                return ioClass(e);
            }
        }
        return MPI.SUCCESS;
    }

    private static void checkAmode(final int amode) {
        final int access = Integer.bitCount(amode & (MPI.MODE_RDONLY | MPI.MODE_WRONLY | MPI.MODE_RDWR));
        final boolean readOnly = 0 != (amode & MPI.MODE_RDONLY);
        if (1 != access || readOnly && 0 != (amode & (MPI.MODE_CREATE | MPI.MODE_EXCL))
            || 0 != (amode & MPI.MODE_RDWR) && 0 != (amode & MPI.MODE_SEQUENTIAL)) {
            throw MpiErrors.error(MPI.ERR_AMODE, "File: amode=" + amode + ", expected exactly one of MODE_RDONLY, "
                + "MODE_WRONLY, MODE_RDWR, no CREATE or EXCL with RDONLY, no SEQUENTIAL with RDWR");
        }
    }

    private static int ioClass(final IOException e) {
        return switch (e) {
            case NoSuchFileException x -> MPI.ERR_NO_SUCH_FILE;
            case FileAlreadyExistsException x -> MPI.ERR_FILE_EXISTS;
            case AccessDeniedException x -> MPI.ERR_ACCESS;
            default -> MPI.ERR_IO;
        };
    }

    private <T> T io(final String call, final IoBody<T> body) throws MPIException {
        return guard.get(call, () -> {
            try {
                return body.run();
            } catch (final IOException e) {
                throw MpiErrors.error(ioClass(e), call + ": " + path + ": " + e);
            }
        });
    }

    /** A file operation. */
    @FunctionalInterface
    private interface IoBody<T> {
        T run() throws IOException;
    }

    /** Closes the file (MPI_File_close), collective; with {@code MODE_DELETE_ON_CLOSE} rank 0 then deletes it. */
    public void close() throws MPIException {
        io("MPI_File_close", () -> {
            channel.close();
            if (0 != (amode & MPI.MODE_DELETE_ON_CLOSE)) { // every channel closed, then deleted, then return
                comm.barrier();
                if (0 == comm.rank()) {
                    Files.deleteIfExists(path);
                }
                comm.barrier();
            }
            guard.free();
            return null;
        });
    }

    /** Deletes a file (MPI_File_delete); a missing file fails with {@code MPI.ERR_NO_SUCH_FILE}. */
    public static void delete(final String filename) throws MPIException {
        delete(filename, MPI.INFO_NULL);
    }

    /** As {@link #delete(String)}; {@code info} is ignored. */
    public static void delete(final String filename, final Info info) throws MPIException {
        MPI.check();
        try {
            if (null == filename) {
                throw MpiErrors.error(MPI.ERR_BAD_FILE, "delete: filename=null, expected a path");
            }
            Files.delete(Path.of(filename));
        } catch (final IOException e) {
            throw MpiErrors.handle(MPI.ERRORS_RETURN, "MPI_File_delete", filename, MpiErrors.error(ioClass(e),
                "delete: " + filename + ": " + e));
        } catch (final RuntimeException e) {
            throw MpiErrors.handle(MPI.ERRORS_RETURN, "MPI_File_delete", filename, e);
        }
    }

    /** @param size the new size in bytes: the file is truncated or extended (MPI_File_set_size) */
    public void setSize(final long size) throws MPIException {
        io("MPI_File_set_size", () -> {
            checkSize("setSize", size);
            if (size < channel.size()) {
                channel.truncate(size);
            } else {
                grow(size);
            }
            return null;
        });
    }

    /** @param size bytes the file should hold at least (MPI_File_preallocate) */
    public void preallocate(final long size) throws MPIException {
        io("MPI_File_preallocate", () -> {
            checkSize("preallocate", size);
            grow(size);
            return null;
        });
    }

    private void checkSize(final String what, final long size) {
        if (size < 0) {
            throw MpiErrors.error(MPI.ERR_ARG, what + ": size=" + size + ", expected >= 0");
        }
        if (0 != (amode & MPI.MODE_RDONLY)) {
            throw MpiErrors.error(MPI.ERR_READ_ONLY, what + ": " + path + " is open read-only");
        }
    }

    private void grow(final long size) throws IOException {
        if (size > channel.size()) {
            channel.write(ByteBuffer.allocate(1), size - 1);
        }
    }

    /** @return the file's size in bytes (MPI_File_get_size) */
    public long getSize() throws MPIException {
        return io("MPI_File_get_size", channel::size);
    }

    /** @return the group of the processes that opened the file */
    public Group getGroup() throws MPIException {
        return guard.get("MPI_File_get_group", () -> new Group(comm.group()));
    }

    /** @return the access mode the file was opened with */
    public int getAMode() throws MPIException {
        return guard.get("MPI_File_get_amode", () -> amode);
    }

    /** @param info hints to keep */
    public void setInfo(final Info info) throws MPIException {
        guard.run("MPI_File_set_info", () -> this.info = info);
    }

    /** @return the hints set, or an empty {@link Info} */
    public Info getInfo() throws MPIException {
        final Info i = guard.get("MPI_File_get_info", () -> info);
        return null == i || i.isNull() ? new Info() : i.dup();
    }

    /** Sets the view (MPI_File_set_view); kept for {@link #getView()}. */
    public void setView(final long disp, final Datatype etype, final Datatype filetype, final String datarep)
        throws MPIException {
        setView(disp, etype, filetype, datarep, MPI.INFO_NULL);
    }

    /**
     * Sets the view (MPI_File_set_view); kept for {@link #getView()}.
     *
     * @param disp     the displacement in bytes
     * @param etype    the elementary type
     * @param filetype the file type
     * @param datarep  "native", "internal" or "external32"
     * @param info     hints (ignored)
     */
    public void setView(final long disp, final Datatype etype, final Datatype filetype, final String datarep,
        final Info info) throws MPIException {
        guard.run("MPI_File_set_view", () -> {
            if (null == etype || null == filetype) {
                throw MpiErrors.error(MPI.ERR_TYPE, "setView: etype and filetype must be datatypes");
            }
            if (!DATAREPS.contains(datarep)) {
                throw MpiErrors.error(MPI.ERR_UNSUPPORTED_DATAREP, "setView: datarep='" + datarep + "', expected "
                    + "native, internal or external32");
            }
            view = new FileView(disp, etype, filetype, datarep);
        });
    }

    /** @return the view last set (default: displacement 0, BYTE, BYTE, "native") */
    public FileView getView() {
        return view;
    }

    /** Not supported: MPI-IO data access is not provided (MPI_File_read_at). */
    public Status readAt(final long offset, final Object buf, final int count, final Datatype type)
        throws MPIException {
        throw guard.unsupported("MPI_File_read_at");
    }

    /** Not supported: MPI-IO data access is not provided (MPI_File_read_at_all). */
    public Status readAtAll(final long offset, final Object buf, final int count, final Datatype type)
        throws MPIException {
        throw guard.unsupported("MPI_File_read_at_all");
    }

    /** Not supported: MPI-IO data access is not provided (MPI_File_write_at). */
    public Status writeAt(final long offset, final Object buf, final int count, final Datatype type)
        throws MPIException {
        throw guard.unsupported("MPI_File_write_at");
    }

    /** Not supported: MPI-IO data access is not provided (MPI_File_write_at_all). */
    public Status writeAtAll(final long offset, final Object buf, final int count, final Datatype type)
        throws MPIException {
        throw guard.unsupported("MPI_File_write_at_all");
    }

    /** Not supported: MPI-IO data access is not provided (MPI_File_iread_at). */
    public Request iReadAt(final long offset, final Buffer buf, final int count, final Datatype type)
        throws MPIException {
        throw guard.unsupported("MPI_File_iread_at");
    }

    /** Not supported: MPI-IO data access is not provided (MPI_File_iread_at_all). */
    public Request iReadAtAll(final long offset, final Buffer buf, final int count, final Datatype type)
        throws MPIException {
        throw guard.unsupported("MPI_File_iread_at_all");
    }

    /** Not supported: MPI-IO data access is not provided (MPI_File_iwrite_at). */
    public Request iWriteAt(final long offset, final Buffer buf, final int count, final Datatype type)
        throws MPIException {
        throw guard.unsupported("MPI_File_iwrite_at");
    }

    /** Not supported: MPI-IO data access is not provided (MPI_File_iwrite_at_all). */
    public Request iWriteAtAll(final long offset, final Buffer buf, final int count, final Datatype type)
        throws MPIException {
        throw guard.unsupported("MPI_File_iwrite_at_all");
    }

    /** Not supported: MPI-IO data access is not provided (MPI_File_read). */
    public Status read(final Object buf, final int count, final Datatype type) throws MPIException {
        throw guard.unsupported("MPI_File_read");
    }

    /** Not supported: MPI-IO data access is not provided (MPI_File_read_all). */
    public Status readAll(final Object buf, final int count, final Datatype type) throws MPIException {
        throw guard.unsupported("MPI_File_read_all");
    }

    /** Not supported: MPI-IO data access is not provided (MPI_File_write). */
    public Status write(final Object buf, final int count, final Datatype type) throws MPIException {
        throw guard.unsupported("MPI_File_write");
    }

    /** Not supported: MPI-IO data access is not provided (MPI_File_write_all). */
    public Status writeAll(final Object buf, final int count, final Datatype type) throws MPIException {
        throw guard.unsupported("MPI_File_write_all");
    }

    /** Not supported: MPI-IO data access is not provided (MPI_File_iread). */
    public Request iRead(final Buffer buf, final int count, final Datatype type) throws MPIException {
        throw guard.unsupported("MPI_File_iread");
    }

    /** Not supported: MPI-IO data access is not provided (MPI_File_iread_all). */
    public Request iReadAll(final Buffer buf, final int count, final Datatype type) throws MPIException {
        throw guard.unsupported("MPI_File_iread_all");
    }

    /** Not supported: MPI-IO data access is not provided (MPI_File_iwrite). */
    public Request iWrite(final Buffer buf, final int count, final Datatype type) throws MPIException {
        throw guard.unsupported("MPI_File_iwrite");
    }

    /** Not supported: MPI-IO data access is not provided (MPI_File_iwrite_all). */
    public Request iWriteAll(final Buffer buf, final int count, final Datatype type) throws MPIException {
        throw guard.unsupported("MPI_File_iwrite_all");
    }

    /** Not supported: MPI-IO data access is not provided (MPI_File_seek). */
    public void seek(final long offset, final int whence) throws MPIException {
        throw guard.unsupported("MPI_File_seek");
    }

    /** Not supported: MPI-IO data access is not provided (MPI_File_get_position). */
    public long getPosition() throws MPIException {
        throw guard.unsupported("MPI_File_get_position");
    }

    /** Not supported: MPI-IO data access is not provided (MPI_File_get_byte_offset). */
    public long getByteOffset(final long offset) throws MPIException {
        throw guard.unsupported("MPI_File_get_byte_offset");
    }

    /** Not supported: MPI-IO data access is not provided (MPI_File_read_shared). */
    public Status readShared(final Object buf, final int count, final Datatype type) throws MPIException {
        throw guard.unsupported("MPI_File_read_shared");
    }

    /** Not supported: MPI-IO data access is not provided (MPI_File_write_shared). */
    public Status writeShared(final Object buf, final int count, final Datatype type) throws MPIException {
        throw guard.unsupported("MPI_File_write_shared");
    }

    /** Not supported: MPI-IO data access is not provided (MPI_File_iread_shared). */
    public Request iReadShared(final Buffer buf, final int count, final Datatype type) throws MPIException {
        throw guard.unsupported("MPI_File_iread_shared");
    }

    /** Not supported: MPI-IO data access is not provided (MPI_File_iwrite_shared). */
    public Request iWriteShared(final Buffer buf, final int count, final Datatype type) throws MPIException {
        throw guard.unsupported("MPI_File_iwrite_shared");
    }

    /** Not supported: MPI-IO data access is not provided (MPI_File_read_ordered). */
    public Status readOrdered(final Object buf, final int count, final Datatype type) throws MPIException {
        throw guard.unsupported("MPI_File_read_ordered");
    }

    /** Not supported: MPI-IO data access is not provided (MPI_File_write_ordered). */
    public Status writeOrdered(final Object buf, final int count, final Datatype type) throws MPIException {
        throw guard.unsupported("MPI_File_write_ordered");
    }

    /** Not supported: MPI-IO data access is not provided (MPI_File_seek_shared). */
    public void seekShared(final long offset, final int whence) throws MPIException {
        throw guard.unsupported("MPI_File_seek_shared");
    }

    /** Not supported: MPI-IO data access is not provided (MPI_File_get_position_shared). */
    public long getPositionShared() throws MPIException {
        throw guard.unsupported("MPI_File_get_position_shared");
    }

    /** Not supported: MPI-IO data access is not provided (MPI_File_read_at_all_begin). */
    public void readAtAllBegin(final long offset, final Object buf, final int count, final Datatype type)
        throws MPIException {
        throw guard.unsupported("MPI_File_read_at_all_begin");
    }

    /** Not supported: MPI-IO data access is not provided (MPI_File_read_at_all_end). */
    public Status readAtAllEnd(final Object buf) throws MPIException {
        throw guard.unsupported("MPI_File_read_at_all_end");
    }

    /** Not supported: MPI-IO data access is not provided (MPI_File_write_at_all_begin). */
    public void writeAtAllBegin(final long offset, final Object buf, final int count, final Datatype type)
        throws MPIException {
        throw guard.unsupported("MPI_File_write_at_all_begin");
    }

    /** Not supported: MPI-IO data access is not provided (MPI_File_write_at_all_end). */
    public Status writeAtAllEnd(final Object buf) throws MPIException {
        throw guard.unsupported("MPI_File_write_at_all_end");
    }

    /** Not supported: MPI-IO data access is not provided (MPI_File_read_all_begin). */
    public void readAllBegin(final Object buf, final int count, final Datatype type) throws MPIException {
        throw guard.unsupported("MPI_File_read_all_begin");
    }

    /** Not supported: MPI-IO data access is not provided (MPI_File_read_all_end). */
    public Status readAllEnd(final Object buf) throws MPIException {
        throw guard.unsupported("MPI_File_read_all_end");
    }

    /** Not supported: MPI-IO data access is not provided (MPI_File_write_all_begin). */
    public void writeAllBegin(final Object buf, final int count, final Datatype type) throws MPIException {
        throw guard.unsupported("MPI_File_write_all_begin");
    }

    /** Not supported: MPI-IO data access is not provided (MPI_File_write_all_end). */
    public Status writeAllEnd(final Object buf) throws MPIException {
        throw guard.unsupported("MPI_File_write_all_end");
    }

    /** Not supported: MPI-IO data access is not provided (MPI_File_read_ordered_begin). */
    public void readOrderedBegin(final Object buf, final int count, final Datatype type) throws MPIException {
        throw guard.unsupported("MPI_File_read_ordered_begin");
    }

    /** Not supported: MPI-IO data access is not provided (MPI_File_read_ordered_end). */
    public Status readOrderedEnd(final Object buf) throws MPIException {
        throw guard.unsupported("MPI_File_read_ordered_end");
    }

    /** Not supported: MPI-IO data access is not provided (MPI_File_write_ordered_begin). */
    public void writeOrderedBegin(final Object buf, final int count, final Datatype type) throws MPIException {
        throw guard.unsupported("MPI_File_write_ordered_begin");
    }

    /** Not supported: MPI-IO data access is not provided (MPI_File_write_ordered_end). */
    public Status writeOrderedEnd(final Object buf) throws MPIException {
        throw guard.unsupported("MPI_File_write_ordered_end");
    }

    /** @param type a datatype @return its extent in the file, in elements of its base type */
    public int getTypeExtent(final Datatype type) throws MPIException {
        guard.run("MPI_File_get_type_extent", () -> {
            if (null == type) {
                throw MpiErrors.error(MPI.ERR_TYPE, "getTypeExtent: type=null");
            }
        });
        return type.getExtent();
    }

    /** @param atomicity whether accesses are atomic (kept) */
    public void setAtomicity(final boolean atomicity) throws MPIException {
        guard.run("MPI_File_set_atomicity", () -> this.atomicity = atomicity);
    }

    /** @return the atomicity set */
    public boolean getAtomicity() throws MPIException {
        return guard.get("MPI_File_get_atomicity", () -> atomicity);
    }

    /** Forces written data to the storage device (MPI_File_sync). */
    public void sync() throws MPIException {
        io("MPI_File_sync", () -> {
            channel.force(true);
            return null;
        });
    }

    /** @param errhandler the handler of this file's errors */
    public void setErrhandler(final Errhandler errhandler) throws MPIException {
        guard.setHandler(errhandler);
    }

    /** @return the current handler */
    public Errhandler getErrhandler() throws MPIException {
        return guard.handler();
    }

    /**
     * Invokes the handler with a code (MPI_File_call_errhandler): under ERRORS_RETURN (a file's default) this
     * returns normally; under ERRORS_ARE_FATAL the job ends with {@code errorCode} as its exit status.
     *
     * @param errorCode the code
     */
    public void callErrhandler(final int errorCode) throws MPIException {
        guard.call("MPI_File_call_errhandler", errorCode);
    }
}
