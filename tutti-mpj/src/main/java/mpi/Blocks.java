package mpi;

import dev.tutti.Buf;
import java.util.Arrays;

/**
 * The root side of a "v" collective (and of the plain ones, as equal blocks): block {@code i} is {@code counts[i]}
 * items of the datatype from array element {@code offset + displs[i]} on. As in MPJ Express a displacement counts
 * array elements, whatever the datatype. Tutti gets one buffer and per-block counts and displacements in elements:
 * over the caller's array when the datatype's items are runs of elements, else over a dense copy (sending) or a
 * dense scratch array spread back by {@link #finish()} (receiving). The count and displacement arrays may be longer
 * than the communicator (mpiJava's test programs size them for the largest run); as in MPI, entry {@code i} belongs
 * to rank {@code i} and the rest are not read.
 */
final class Blocks {
    final Buf buf;
    final int[] counts;
    final int[] displs;
    private final Object scratch;
    private final Object target;
    private final int offset;
    private final int[] userDispls;
    private final Shape shape;

    private Blocks(final Buf buf, final int[] counts, final int[] displs, final Object scratch, final Object target,
        final int offset, final int[] userDispls, final Shape shape) {
        this.buf = buf;
        this.counts = counts;
        this.displs = displs;
        this.scratch = scratch;
        this.target = target;
        this.offset = offset;
        this.userDispls = userDispls;
        this.shape = shape;
    }

    /** @return equal blocks of {@code count} items, one after another (block {@code i} at {@code i * count} items) */
    static int[][] equal(final int n, final int count, final Datatype type) {
        final int[] counts = new int[n];
        final int[] displs = new int[n];
        for (int i = 0; i < n; i++) {
            counts[i] = count;
            displs[i] = i * count * type.shape().extent();
        }
        return new int[][] {counts, displs};
    }

    /**
     * @param send whether the blocks are sent (packed now) or received (spread back by {@link #finish()})
     * @return the blocks
     * @throws MPIException for bad counts, displacements or buffer
     */
    static Blocks of(final String call, final String arg, final boolean send, final Object buf, final int offset,
        final int[] counts, final int[] displs, final Datatype type, final int n) {
        if (null == type) {
            throw Fail.error(call + ": datatype=null (expected a datatype such as MPI.INT)");
        }
        if (null == counts || null == displs || counts.length < n || displs.length < n) {
            throw Fail.error(call + ": " + arg + " counts and displacements need " + n + " entries each (one per "
                + "process), got " + (null == counts ? "null" : counts.length) + " and "
                + (null == displs ? "null" : displs.length));
        }
        final Shape s = type.shape();
        final int[] ec = new int[n];
        final int[] ed = new int[n];
        int total = 0;
        for (int i = 0; i < n; i++) {
            if (counts[i] < 0 || displs[i] < 0) {
                throw Fail.error(call + ": " + arg + " block " + i + " has count " + counts[i] + " and displacement "
                    + displs[i] + " (expected both >= 0)");
            }
            Slab.check(call, arg, buf, offset + displs[i], counts[i], type);
            ec[i] = Slab.elements(call, counts[i], type);
            total = Math.addExact(total, ec[i]);
        }
        if (0 == total) {
            return new Blocks(Slab.empty(s), ec, new int[n], null, null, 0, null, s);
        }
        if (s.contiguous) {
            int end = 0;
            for (int i = 0; i < n; i++) {
                end = Math.max(end, displs[i] + ec[i]);
            }
            return new Blocks(Slab.buf(buf, offset, end), ec, Arrays.copyOf(displs, n), null, null, 0, null, s);
        }
        final Object dense = s.base.newArray(total);
        int pos = 0;
        for (int i = 0; i < n; i++) {
            ed[i] = pos;
            if (send && ec[i] > 0) {
                System.arraycopy(Slab.pack(buf, offset + displs[i], counts[i], s), 0, dense, pos, ec[i]);
            }
            pos += ec[i];
        }
        return new Blocks(Slab.make(dense, 0, total), ec, ed, send ? null : dense, buf, offset, Arrays.copyOf(displs, n),
            s);
    }

    /** Spreads received blocks into the caller's array (if they went to scratch). */
    void finish() {
        if (null == scratch) {
            return;
        }
        for (int i = 0; i < counts.length; i++) {
            Slab.unpack(scratch, displs[i], counts[i], target, offset + userDispls[i], shape);
        }
    }
}
