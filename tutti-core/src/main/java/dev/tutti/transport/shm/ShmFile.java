package dev.tutti.transport.shm;

import dev.tutti.internal.Failures;
import dev.tutti.internal.SegmentCopy;
import dev.tutti.runtime.Configuration;
import dev.tutti.internal.Settings;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static dev.tutti.transport.shm.ShmLayoutDescriptor.*;
import static dev.tutti.transport.shm.ShmRing.LONG;

/**
 * A rank's mapping of its job's shared-memory file: creation (the first rank to arrive initializes the header),
 * registration of the rank in its slot, the view of which ranks are on this host, leaving, and deletion by the
 * last rank. Also the detection and removal of stale files left by jobs whose processes are all gone.
 *
 * <p>Implementation notes. Every rank opens the file with CREATE and extends it (sparse) to the layout's size if it
 * is shorter, so no rank maps past the end of the file; it maps the whole file in a shared {@link Arena}. The header
 * is initialized once: the rank that wins the CAS of {@code initState} 0 → 1 writes the parameters and then
 * <b>release</b>-stores 2; the others <b>acquire</b>-load it until 2 and then compare the parameters with theirs. A
 * rank's slot is written (pid, start time) before the <b>release</b>-store of its state; peers <b>acquire</b>-load
 * the state before reading them. {@code liveRanks} counts joined ranks (getAndAdd); the rank that brings it to
 * zero deletes the file (the mappings of the others stay valid until they unmap). All ranks of a host join
 * before the job's rendezvous fence and leave after it, so the count never reaches zero early.
 */
final class ShmFile implements AutoCloseable {
    /** A file without any registered rank is stale once this old. */
    static final long STALE_UNREGISTERED_MS = TimeUnit.SECONDS.toMillis(60);
    private static final long INIT_WAIT_MS = 10_000;
    private static final dev.tutti.runtime.Log LOG = dev.tutti.runtime.Log.of(ShmFile.class);

    final Path path;
    final ShmLayoutDescriptor layout;
    final MemorySegment segment;
    final int rank;
    private final Arena arena;
    private boolean closed;

    private ShmFile(final Path path, final ShmLayoutDescriptor layout, final MemorySegment segment, final Arena arena,
        final int rank) {
        this.path = path;
        this.layout = layout;
        this.segment = segment;
        this.arena = arena;
        this.rank = rank;
    }

    /**
     * Maps the job's file (creating it if this rank is the first) and registers this rank.
     *
     * @param path   the file
     * @param jobId  the job id (recorded for diagnostics)
     * @param rank   this rank
     * @param size   the job's size
     * @param config layout values
     * @return the mapping
     * @throws IOException           if the file cannot be created or mapped
     * @throws IllegalStateException if the file belongs to a job with other parameters, or the slot is taken by a
     *                               live process
     */
    static ShmFile join(final Path path, final String jobId, final int rank, final int size, final ShmConfig config)
        throws IOException {
        final ShmLayoutDescriptor layout = new ShmLayoutDescriptor(size, config.ringBytes(), config.chunkBytes(),
            config.chunksPerChannel(size), config.arenaBytes());
        removeStale(path.getParent());
        final Arena arena = Arena.ofShared();
        boolean ok = false;
        try {
            final MemorySegment seg;
            try (FileChannel ch = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
                if (ch.size() < layout.totalBytes) {
                    ch.write(ByteBuffer.wrap(new byte[1]), layout.totalBytes - 1); // sparse extension
                }
                seg = ch.map(FileChannel.MapMode.READ_WRITE, 0, layout.totalBytes, arena);
            }
            initHeader(seg, layout, jobId, path);
            register(seg, layout, rank, path);
            ok = true;
            return new ShmFile(path, layout, seg, arena, rank);
        } finally {
            if (!ok) {
                arena.close();
            }
        }
    }

    private static void initHeader(final MemorySegment seg, final ShmLayoutDescriptor layout, final String jobId,
        final Path path) {
        if (LONG.compareAndSet(seg, INIT_STATE_OFFSET, INIT_FRESH, INIT_BUSY)) {
            seg.set(ValueLayout.JAVA_LONG, MAGIC_OFFSET, MAGIC);
            seg.set(ValueLayout.JAVA_LONG, VERSION_OFFSET, VERSION);
            seg.set(ValueLayout.JAVA_LONG, RANKS_OFFSET, layout.ranks);
            seg.set(ValueLayout.JAVA_LONG, RING_BYTES_OFFSET, layout.ringBytes);
            seg.set(ValueLayout.JAVA_LONG, CHUNK_BYTES_OFFSET, layout.chunkBytes);
            seg.set(ValueLayout.JAVA_LONG, CHUNKS_OFFSET, layout.chunksPerChannel);
            seg.set(ValueLayout.JAVA_LONG, ARENA_BYTES_OFFSET, layout.arenaBytes);
            seg.set(ValueLayout.JAVA_LONG, TOTAL_BYTES_OFFSET, layout.totalBytes);
            seg.set(ValueLayout.JAVA_LONG, CREATOR_PID_OFFSET, ProcessHandle.current().pid());
            seg.set(ValueLayout.JAVA_LONG, CREATED_MILLIS_OFFSET, System.currentTimeMillis());
            final byte[] id = jobId.getBytes(StandardCharsets.UTF_8);
            final int n = Math.min(id.length, MAX_JOB_ID_BYTES);
            seg.set(ValueLayout.JAVA_LONG, JOB_ID_LENGTH_OFFSET, n);
            SegmentCopy.copy(MemorySegment.ofArray(id), 0, seg, JOB_ID_OFFSET, n);
            // Release pairs with the acquire below in the other ranks: the parameters are visible before READY.
            LONG.setRelease(seg, INIT_STATE_OFFSET, INIT_READY);
            return;
        }
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(INIT_WAIT_MS);
        // Acquire pairs with the creator's release of READY above.
        while (INIT_READY != (long) LONG.getAcquire(seg, INIT_STATE_OFFSET)) {
            if (System.nanoTime() - deadline > 0) {
                throw Failures.badState("shm file " + path + " was not initialized within " + INIT_WAIT_MS
                    + " ms by the rank that created it (initState="
                    + (long) LONG.getAcquire(seg, INIT_STATE_OFFSET) + ")");
            }
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(100));
        }
        check(seg, MAGIC_OFFSET, MAGIC, "magic", path);
        check(seg, VERSION_OFFSET, VERSION, "version", path);
        check(seg, RANKS_OFFSET, layout.ranks, "ranks", path);
        check(seg, RING_BYTES_OFFSET, layout.ringBytes, "ringBytes (" + Settings.SHM_RING_BYTES.name() + ")",
            path);
        check(seg, CHUNK_BYTES_OFFSET, layout.chunkBytes, "chunkBytes ("
            + Settings.SHM_CHUNK_BYTES.name() + ")", path);
        check(seg, CHUNKS_OFFSET, layout.chunksPerChannel, "chunks (" + Settings.SHM_CHUNKS.name() + ")",
            path);
        check(seg, ARENA_BYTES_OFFSET, layout.arenaBytes, "arenaBytes (" + Settings.SHM_ARENA_MIB.name()
            + ")", path);
    }

    private static void check(final MemorySegment seg, final long offset, final long expected, final String what,
        final Path path) {
        final long actual = seg.get(ValueLayout.JAVA_LONG, offset);
        if (actual != expected) {
            throw Failures.badState("shm file " + path + " has " + what + "=" + actual + ", this rank expects "
                + expected + " (every rank of a job must use the same shm settings)");
        }
    }

    private static void register(final MemorySegment seg, final ShmLayoutDescriptor layout, final int rank,
        final Path path) {
        final long slot = layout.slot(rank);
        // Acquire pairs with the release of the state by a previous owner of the slot.
        final long state = (long) LONG.getAcquire(seg, slot + SLOT_STATE);
        if (STATE_JOINED == state) {
            final long pid = seg.get(ValueLayout.JAVA_LONG, slot + SLOT_PID);
            final long start = seg.get(ValueLayout.JAVA_LONG, slot + SLOT_START_MILLIS);
            if (alive(pid, start)) {
                throw Failures.badState("shm file " + path + ": rank " + rank + " is already attached by the "
                    + "live process pid=" + pid + "; two processes claim the same rank");
            }
        }
        final ProcessHandle self = ProcessHandle.current();
        seg.set(ValueLayout.JAVA_LONG, slot + SLOT_PID, self.pid());
        seg.set(ValueLayout.JAVA_LONG, slot + SLOT_START_MILLIS,
            self.info().startInstant().map(java.time.Instant::toEpochMilli).orElse(-1L));
        // Release pairs with the peers' acquire of the state (ranksOnHost, liveness): pid and start are visible.
        LONG.setRelease(seg, slot + SLOT_STATE, STATE_JOINED);
        LONG.getAndAdd(seg, LIVE_RANKS_OFFSET, 1L);
    }

    /**
     * Returns which ranks have registered in this file, i.e. run on this host. Call after the job's fence: every
     * rank of this host has registered by then.
     *
     * @return per world rank, whether it is on this host (this rank included)
     */
    boolean[] ranksOnHost() {
        final boolean[] on = new boolean[layout.ranks];
        for (int r = 0; r < on.length; r++) {
            // Acquire pairs with the release in register().
            on[r] = STATE_EMPTY != (long) LONG.getAcquire(segment, layout.slot(r) + SLOT_STATE);
        }
        return on;
    }

    /** @return rank r's state word (acquire) */
    long state(final int r) {
        // Acquire pairs with the release in register() and close().
        return (long) LONG.getAcquire(segment, layout.slot(r) + SLOT_STATE);
    }

    /** @return rank r's pid (valid after its state was seen non-empty) */
    long pid(final int r) {
        return segment.get(ValueLayout.JAVA_LONG, layout.slot(r) + SLOT_PID);
    }

    /** @return rank r's process start time in epoch ms, -1 if unknown */
    long startMillis(final int r) {
        return segment.get(ValueLayout.JAVA_LONG, layout.slot(r) + SLOT_START_MILLIS);
    }

    /** Leaves as aborted (see {@link #leave(boolean)}). */
    @Override
    public void close() {
        leave(false);
    }

    /**
     * Leaves: marks the slot left (after a clean goodbye) or aborted, and deletes the file if this was the last rank
     * of the host; then unmaps. Idempotent.
     *
     * @param clean whether every goodbye was written
     */
    void leave(final boolean clean) {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        // Release pairs with the peers' acquire of the state in their liveness checks: a rank marked LEFT has
        // written its goodbye into every peer's inbox before this store.
        LONG.setRelease(segment, layout.slot(rank) + SLOT_STATE, clean ? STATE_LEFT : STATE_ABORTED);
        final long before = (long) LONG.getAndAdd(segment, LIVE_RANKS_OFFSET, -1L);
        if (1 == before) {
            try {
                Files.deleteIfExists(path);
            } catch (final IOException e) {
                LOG.log(System.Logger.Level.WARNING, "shm: cannot delete {0}: {1}", path, e);
            }
        }
        arena.close();
    }

    /**
     * Returns whether a process is alive and, if a start time is known, is the same process (not a reused pid).
     *
     * @param pid         the pid
     * @param startMillis its start time in epoch ms, or -1
     * @return true if alive
     */
    static boolean alive(final long pid, final long startMillis) {
        return null != process(pid, startMillis);
    }

    /**
     * Returns the live process with this pid and, if a start time is known, this start time (not a reused pid). Its
     * {@link ProcessHandle#isAlive()} is the cheap check to repeat (one read of {@code /proc/<pid>/stat}, and the
     * handle tells a reused pid by its start time), while this lookup reads the process's command line and owner too,
     * which costs far more.
     *
     * @param pid         the pid
     * @param startMillis its start time in epoch ms, or -1
     * @return the process, or null if it is gone
     */
    static ProcessHandle process(final long pid, final long startMillis) {
        return ProcessHandle.of(pid).filter(ProcessHandle::isAlive)
            .filter(p -> startMillis < 0 || p.info().startInstant()
                .map(i -> Math.abs(i.toEpochMilli() - startMillis) < 2_000).orElse(true))
            .orElse(null);
    }

    /**
     * Deletes the Tutti shm files in a directory that belong to dead jobs: files with registered ranks none of
     * whose processes is alive (and still joined), and files older than {@value #STALE_UNREGISTERED_MS} ms in which
     * no rank ever registered. Files that cannot be read are left alone.
     *
     * @param dir the directory (usually /dev/shm)
     * @return the files deleted
     */
    static List<Path> removeStale(final Path dir) {
        final List<Path> removed = new ArrayList<>();
        if (null == dir || !Files.isDirectory(dir)) {
            return removed;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir,
            Configuration.SHM_FILE_PREFIX + "*" + Configuration.SHM_FILE_SUFFIX)) {
            for (final Path f : files) {
                try {
                    if (isStale(f)) {
                        Files.deleteIfExists(f);
                        removed.add(f);
                        // DEBUG: routine housekeeping, not news for the job's user; with the JDK's default
                        // logging an INFO record is printed on every rank's stderr, as two lines.
                        LOG.log(System.Logger.Level.DEBUG, "shm: removed stale job file {0}", f);
                    }
                } catch (final NoSuchFileException e) {
                    // Deleted meanwhile by its job's last rank or another scanner.
                } catch (final IOException e) {
                    LOG.log(System.Logger.Level.DEBUG, "shm: cannot check {0}: {1}", f, e);
                }
            }
        } catch (final IOException e) {
            LOG.log(System.Logger.Level.DEBUG, "shm: cannot list {0}: {1}", dir, e);
        }
        return removed;
    }

    /**
     * Reads a file's header and slots (plain reads: a heuristic on a file that may be in use).
     *
     * @param f the file
     * @return whether it belongs to a dead job
     * @throws IOException if it cannot be read
     */
    static boolean isStale(final Path f) throws IOException {
        final long ageMs = System.currentTimeMillis() - Files.getLastModifiedTime(f).toMillis();
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ)) {
            final ByteBuffer header = ByteBuffer.allocate((int) HEADER_BYTES).order(ByteOrder.nativeOrder());
            readFully(ch, header, 0);
            header.flip();
            if (header.limit() < HEADER_BYTES || MAGIC != header.getLong((int) MAGIC_OFFSET)
                || INIT_READY != header.getLong((int) INIT_STATE_OFFSET)) {
                return ageMs > STALE_UNREGISTERED_MS;
            }
            final long ranks = header.getLong((int) RANKS_OFFSET);
            if (ranks < 1 || ranks > 1 << 20) {
                return ageMs > STALE_UNREGISTERED_MS;
            }
            final ByteBuffer slots = ByteBuffer.allocate((int) (ranks * SLOT_BYTES)).order(ByteOrder.nativeOrder());
            readFully(ch, slots, SLOTS_OFFSET);
            slots.flip();
            boolean anyRegistered = false;
            for (int r = 0; r < ranks && (r + 1) * SLOT_BYTES <= slots.limit(); r++) {
                final int at = (int) (r * SLOT_BYTES);
                final long state = slots.getLong(at + (int) SLOT_STATE);
                if (STATE_EMPTY == state) {
                    continue;
                }
                anyRegistered = true;
                if (STATE_JOINED == state && alive(slots.getLong(at + (int) SLOT_PID),
                    slots.getLong(at + (int) SLOT_START_MILLIS))) {
                    return false;
                }
            }
            return anyRegistered || ageMs > STALE_UNREGISTERED_MS;
        }
    }

    private static void readFully(final FileChannel ch, final ByteBuffer b, final long position) throws IOException {
        long at = position;
        while (b.hasRemaining()) {
            final int n = ch.read(b, at);
            if (n < 0) {
                return;
            }
            at += n;
        }
    }

    @Override
    public String toString() {
        return "shm file " + path + " (" + layout + ")";
    }
}
