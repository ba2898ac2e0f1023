package mpi;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;

/**
 * Runs an mpi user operation ({@code new Op(UserFunction, commute)}) as a Tutti user operation, handing the
 * {@link UserFunction} what Open MPI hands it: two direct, native-ordered {@link ByteBuffer}s of {@code count *
 * extent} bytes, item {@code i} at byte {@code i * extent} in the datatype's own layout, with the count of items
 * and the very {@link Datatype} the collective was called with ({@code boolean[]} for {@code MPI.BOOLEAN}).
 *
 * <p>Implementation note. Tutti reduces packed data in units of one element type. A plan picks the unit:
 * <ul>
 * <li>a type whose items fill their extent (predefined, contiguous, a gapless vector): the buffer is viewed as
 *     plain memory, one unit per item where the extent is 1, 2, 4, 8 or 16 bytes, else the type's element,
 *     several per item;</li>
 * <li>a type with gaps (a strided vector, a struct with holes, a resized type): the buffer is the Tutti layout,
 *     which Tutti packs; the kernel scatters each packed operand into a buffer of the type's extents (the gaps
 *     zero), calls the function, and packs the result's data back. The gaps of the caller's own buffers are never
 *     touched.</li>
 * </ul>
 * An item must never be split between two calls of the function, so the Tutti operation declares the units of one
 * item as its item ({@code dev.tutti.Op.Builder.items}): Tutti then cuts a vector only between items, and with items
 * of more than one unit only where it folds the parts in rank order (the on-host region's chunks), never in the
 * message layer's algorithms that split and reorder (Rabenseifner, the ring), which take one-unit items of a
 * commutative op only. Each call copies both operands into direct memory the thread reuses
 * ({@link OperandScratch}) and the result back: user operations pay a copy per call, as Open MPI's Java bindings
 * did.
 */
final class UserOps {
    private UserOps() {
    }

    /**
     * Plans a reduction with a user operation.
     *
     * @param what the operation, for messages
     * @param op   the user operation
     * @param type the datatype
     * @return the plan
     */
    static Reductions.Plan plan(final String what, final Op op, final Datatype type) {
        if (null != type.shape && !type.dense()) {
            return gapped(what, op, type);
        }
        final dev.tutti.Datatype unit;
        final int per;
        if (Datatype.Base.BOOLEAN == type.base) {
            unit = type.wire;
            per = type.wirePerItem;
        } else {
            final dev.tutti.Datatype whole = switch (type.extentBytes) {
                case 1 -> dev.tutti.Datatype.BYTE;
                case 2 -> dev.tutti.Datatype.SHORT;
                case 4 -> dev.tutti.Datatype.INT;
                case 8 -> dev.tutti.Datatype.LONG;
                case 16 -> dev.tutti.Datatype.LONG_PAIR;
                default -> null;
            };
            unit = null == whole ? type.wire : whole;
            per = null == whole ? type.wirePerItem : 1;
        }
        final dev.tutti.Op t = op.perType.computeIfAbsent(type, k -> core(op, k, per,
            (final dev.tutti.Datatype tt, final MemorySegment in, final MemorySegment io, final int n) ->
                call(op.function, k, in, io, n / per)));
        return new Reductions.Plan(t, unit, per);
    }

    /** The plan of a type with gaps: Tutti packs the layout, the kernel unpacks it for the function. */
    private static Reductions.Plan gapped(final String what, final Op op, final Datatype type) {
        final dev.tutti.Layout shape = type.shape;
        if (shape.trueLbBytes() < 0 || shape.trueLbBytes() + shape.trueExtentBytes() > shape.extentBytes()) {
            throw MpiErrors.error(MPI.ERR_UNSUPPORTED_OPERATION, what + ": a user op on " + type + " (true lb "
                + shape.trueLbBytes() + ", true extent " + shape.trueExtentBytes() + ", extent " + shape.extentBytes()
                + " bytes): its data reaches outside its extent, which no buffer of count * extent bytes can show");
        }
        final int per = type.wirePerItem;
        final dev.tutti.Op t = op.perType.computeIfAbsent(type, k -> core(op, k, per,
            (final dev.tutti.Datatype tt, final MemorySegment in, final MemorySegment io, final int n) ->
                callScattered(op.function, k, in, io, n / per)));
        return new Reductions.Plan(t, type.wire, per);
    }

    /**
     * The core operation of {@code op} on {@code type}: as commutative as the MPI op, its item the {@code per} units
     * of one MPI item, so that Tutti cuts a vector only between MPI items (MPI applies a user function to whole items
     * of its datatype, any number of them at a time).
     */
    private static dev.tutti.Op core(final Op op, final Datatype type, final int per,
        final dev.tutti.Op.SegmentFunction f) {
        return dev.tutti.Op.builder("user op on " + type, op.isCommutative()).items(per).segments(f).build();
    }

    /** Calls the function on plain items: both operands copied into direct buffers, the result copied back. */
    private static void call(final UserFunction f, final Datatype type, final MemorySegment in,
        final MemorySegment io, final int items) {
        try {
            if (Datatype.Base.BOOLEAN == type.base) {
                final int n = (int) io.byteSize();
                final boolean[] a = new boolean[n];
                final boolean[] b = new boolean[n];
                for (int i = 0; i < n; i++) {
                    a[i] = 0 != in.get(ValueLayout.JAVA_BYTE, i);
                    b[i] = 0 != io.get(ValueLayout.JAVA_BYTE, i);
                }
                f.call(a, b, items, type);
                for (int i = 0; i < n; i++) {
                    io.set(ValueLayout.JAVA_BYTE, i, (byte) (b[i] ? 1 : 0));
                }
                return;
            }
            final long bytes = io.byteSize();
            final OperandScratch s = OperandScratch.acquire(bytes);
            try {
                final ByteBuffer a = null == s ? OperandScratch.fresh(bytes) : s.first(bytes);
                final ByteBuffer b = null == s ? OperandScratch.fresh(bytes) : s.second(bytes);
                MemorySegment.ofBuffer(a).copyFrom(in.asSlice(0, bytes));
                final MemorySegment bs = MemorySegment.ofBuffer(b);
                bs.copyFrom(io);
                f.call(a, b, items, type);
                io.copyFrom(bs);
            } finally {
                if (null != s) {
                    s.release();
                }
            }
        } catch (final MPIException e) {
            throw new IllegalStateException("user reduction failed: " + e.getMessage(), e);
        }
    }

    /**
     * Calls the function on packed items of a type with gaps: each operand scattered into {@code items} extents
     * (gaps zero), the result's data gathered back into {@code io}.
     */
    private static void callScattered(final UserFunction f, final Datatype type, final MemorySegment in,
        final MemorySegment io, final int items) {
        final long bytes = (long) items * type.extentBytes;
        final OperandScratch s = OperandScratch.acquire(bytes);
        try {
            final ByteBuffer a = null == s ? OperandScratch.fresh(bytes) : s.first(bytes);
            final ByteBuffer b = null == s ? OperandScratch.fresh(bytes) : s.second(bytes);
            final MemorySegment as = MemorySegment.ofBuffer(a);
            final MemorySegment bs = MemorySegment.ofBuffer(b);
            as.fill((byte) 0); // the gaps: zero, as in a fresh buffer
            bs.fill((byte) 0);
            type.shape.unpack(in, as, 0, items);
            type.shape.unpack(io, bs, 0, items);
            f.call(a, b, items, type);
            type.shape.pack(bs, 0, items, io);
        } catch (final MPIException e) {
            throw new IllegalStateException("user reduction failed: " + e.getMessage(), e);
        } finally {
            if (null != s) {
                s.release();
            }
        }
    }
}
