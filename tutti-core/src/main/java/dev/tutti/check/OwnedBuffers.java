package dev.tutti.check;

import dev.tutti.coll.CollCall;
import dev.tutti.coll.CollKind;
import dev.tutti.internal.SegmentCopy;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;

/**
 * The checker's watch over the memory a nonblocking operation owns from its start until the user sees it complete
 * (MPI forbids writing a send buffer, or touching a receive buffer, in between): the buffers of a nonblocking or
 * tagged regular intracommunicator collective ({@link #watch(CollCall, String, int, BiConsumer)}), and the buffer of
 * a nonblocking send ({@link #watchSend}). A write found there is reported once per buffer, on standard error and as
 * the finding {@code buffer-in-use}, naming the call, the buffer, the rank and the call site.
 *
 * <p>Implementation notes. At start a copy of each watched region is taken. A send region is compared with its copy
 * when the user sees the operation complete (a wait, a test that returns true, a tagged call's end:
 * {@link OwnedRequest}). A collective's receive region is
 * never written by the library while the call runs: the schedule receives into a shadow, which starts as a copy of
 * the region (an in-place call and a bcast's root read it), and its last step, which runs before the request
 * completes, compares the region with its copy at start and then copies the shadow in; when the user sees the call
 * complete, the region is compared with the shadow. A write by the user between start and completion therefore
 * differs from one copy or the other, and the library's own writes never do: partial writes during the call, in-place
 * forms and a send region that is the receive region give no false alarm. Regions are exactly what the call reads or
 * writes (a buffer larger than the call needs is watched only where the call uses it). Not watched: v-collectives,
 * alltoallw and intercommunicator calls (their regions are scattered), boolean buffers (staged through bytes already),
 * persistent calls (their schedule is built once on the user's memory). Cost, with the checker on only: a copy of each
 * region at start, the shadow's copy back, and one or two compares ({@link MemorySegment#mismatch}), proportional to
 * the bytes; with the checker off none of this exists.
 */
final class OwnedBuffers {
    private final String what;
    private final String site;
    private final BiConsumer<String, String> report;
    private final MemorySegment send;
    /** The copies: dropped once the user has seen the operation complete (the leak report keeps its request). */
    private MemorySegment sendCopy;
    private final String recvRole;
    private final MemorySegment recv;
    private MemorySegment recvCopy;
    private MemorySegment shadow;
    private final AtomicBoolean sendReported = new AtomicBoolean();
    private final AtomicBoolean recvReported = new AtomicBoolean();

    private OwnedBuffers(final String what, final String site, final BiConsumer<String, String> report,
        final MemorySegment send, final MemorySegment recv, final MemorySegment recvMemory, final String recvRole) {
        this.what = what;
        this.site = site;
        this.report = report;
        this.send = send;
        this.sendCopy = copyOf(send);
        this.recv = recv;
        this.recvRole = recvRole;
        this.recvCopy = copyOf(recv);
        this.shadow = copyOf(recvMemory);
    }

    /**
     * Starts watching the buffers of a nonblocking or tagged call, and has the call receive into the shadow
     * ({@link CollCall#receiveInto}); called in the checker's {@code before}, before any of the call's data moves.
     *
     * @param call   the call
     * @param site   its call site
     * @param report takes each finding: its kind and its report
     * @return the watch, or null if the call has nothing watched
     */
    static OwnedBuffers watch(final CollCall call, final String site, final BiConsumer<String, String> report) {
        if (call.isInter() || call.isVector() || call.staged()
            || CollCall.Variant.PERSISTENT == call.variant()) {
            return null;
        }
        final int n = call.communicator().size();
        final boolean root = call.root() == call.communicator().rank();
        final long block = (long) call.sendCount() * call.sendType().sizeBytes();
        final long sendBytes = switch (call.kind()) {
            case SCATTER -> root ? n * block : 0;
            case ALLTOALL, REDUCE_SCATTER_BLOCK -> n * block;
            case REDUCE, ALLREDUCE, SCAN, EXSCAN, GATHER, ALLGATHER -> block;
            default -> 0; // barrier; bcast's data is in its receive memory
        };
        final long recvBytes = switch (call.kind()) {
            case BCAST, ALLREDUCE, SCAN, EXSCAN, SCATTER -> block;
            case REDUCE -> root ? block : 0;
            case GATHER -> root ? n * block : 0;
            case ALLGATHER, ALLTOALL -> n * block;
            case REDUCE_SCATTER_BLOCK -> call.inPlace() ? n * block : block;
            default -> 0;
        };
        final MemorySegment s = region(call.sendMemory(), sendBytes);
        final MemorySegment r = region(call.recvMemory(), recvBytes);
        if (null == s && null == r) {
            return null;
        }
        final String role = CollKind.BCAST == call.kind() && root ? "buffer (the root's send buffer)"
            : call.inPlace() ? "receive buffer (in place: also its send buffer)" : "receive buffer";
        final String what = CallDigest.of(call, 0, null).describe() + " on '"
            + Reports.commName(call.communicator().describe()) + "'";
        final OwnedBuffers o = new OwnedBuffers(what, site, report, s, r, null == r ? null : call.recvMemory(),
            role);
        if (null != r) {
            call.receiveInto(o.shadow, o::beforeLastWrite);
        }
        return o;
    }

    /**
     * Starts watching the buffer of a nonblocking send.
     *
     * @param what    the send, described
     * @param payload the memory it reads
     * @param site    its call site
     * @param report  takes each finding
     * @return the watch
     */
    static OwnedBuffers watchSend(final String what, final MemorySegment payload, final String site,
        final BiConsumer<String, String> report) {
        return new OwnedBuffers(what, site, report, payload, null, null, null);
    }

    /**
     * The schedule's last step, before the request completes: the receive region must still be as it was at start;
     * then the library's result goes in.
     */
    private void beforeLastWrite() {
        compare(recv, recvCopy, recvRole, recvReported, null);
        // The call's region only: the rest of the memory is the user's.
        SegmentCopy.copy(shadow, 0, recv, 0, recv.byteSize());
    }

    /**
     * The user saw the operation complete (its wait, or a test that returned true), at its call site now; called
     * once, after the schedule's last step (the request completes after it), on the thread that saw it.
     */
    void observed() {
        compare(send, sendCopy, "send buffer", sendReported, "");
        if (null != recv) {
            compare(recv, shadow.asSlice(0, recv.byteSize()), recvRole, recvReported, "");
        }
        sendCopy = null;
        recvCopy = null;
        shadow = null;
    }

    private void compare(final MemorySegment user, final MemorySegment copy, final String role,
        final AtomicBoolean reported, final String observed) {
        if (null == user || reported.get()) {
            return;
        }
        final long at = user.mismatch(copy);
        if (at < 0 || !reported.compareAndSet(false, true)) {
            return;
        }
        final String when = null == observed ? "before it completed"
            : "before the wait or test that completed it at " + CallSite.capture();
        report.accept("buffer-in-use", "the " + role + " of " + what + ", started at "
            + site + ", was written " + when + " (byte " + at + " of " + user.byteSize() + " changed); MPI forbids "
            + ("send buffer".equals(role) || role.startsWith("buffer") ? "writing it" : "touching it")
            + " until the operation completes");
    }

    /** @return the first {@code bytes} of {@code m} (fewer if it is shorter), or null if none */
    private static MemorySegment region(final MemorySegment m, final long bytes) {
        if (null == m || bytes <= 0) {
            return null;
        }
        return m.asSlice(0, Math.min(bytes, m.byteSize()));
    }

    /**
     * Returns a copy of {@code m} on the heap, in an array of the same element type as {@code m}'s if it is an
     * array's (so the kernels' array paths apply to a shadow), else of longs (aligned for any element type). Heap, not
     * native: native memory of an automatic arena is given back only by the garbage collector, and a few MiB a call
     * make the JDK's direct-memory reservation stall the call for milliseconds.
     *
     * @param m the memory, or null
     * @return the copy, or null
     */
    private static MemorySegment copyOf(final MemorySegment m) {
        if (null == m) {
            return null;
        }
        final long bytes = m.byteSize();
        final Object base = m.heapBase().orElse(null);
        final MemorySegment c = switch (base) {
            case double[] x -> MemorySegment.ofArray(new double[elements(bytes, Double.BYTES)]);
            case float[] x -> MemorySegment.ofArray(new float[elements(bytes, Float.BYTES)]);
            case int[] x -> MemorySegment.ofArray(new int[elements(bytes, Integer.BYTES)]);
            case short[] x -> MemorySegment.ofArray(new short[elements(bytes, Short.BYTES)]);
            case char[] x -> MemorySegment.ofArray(new char[elements(bytes, Character.BYTES)]);
            case byte[] x -> MemorySegment.ofArray(new byte[elements(bytes, 1)]);
            case null, default -> MemorySegment.ofArray(new long[elements(bytes, Long.BYTES)]);
        };
        final MemorySegment copy = c.asSlice(0, bytes);
        SegmentCopy.copy(m, 0, copy, 0, bytes);
        return copy;
    }

    private static int elements(final long bytes, final int size) {
        return Math.toIntExact((bytes + size - 1) / size);
    }
}
