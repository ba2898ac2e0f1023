package mpi;

import dev.tutti.Buf;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** MPI_Pack and MPI_Unpack for the contiguous datatypes of this package: the items' bytes, in native order. */
final class Packing {
    private Packing() {
    }

    static int pack(final Object inbuf, final int incount, final Datatype type, final byte[] outbuf,
        final int position) {
        final Buf in = Bufs.of("pack", inbuf, incount, type);
        final int bytes = incount * type.extentBytes;
        check("pack", outbuf, position, bytes);
        final MemorySegment out = MemorySegment.ofArray(outbuf).asSlice(position, bytes);
        if (null == in.segment()) {
            for (int i = 0; i < bytes; i++) {
                out.set(ValueLayout.JAVA_BYTE, i, (byte) (in.booleans()[in.booleanOffset() + i] ? 1 : 0));
            }
        } else {
            out.copyFrom(in.segment());
        }
        return position + bytes;
    }

    static int unpack(final byte[] inbuf, final int position, final Object outbuf, final int outcount,
        final Datatype type) {
        final Buf out = Bufs.of("unpack", outbuf, outcount, type);
        final int bytes = outcount * type.extentBytes;
        check("unpack", inbuf, position, bytes);
        final MemorySegment in = MemorySegment.ofArray(inbuf).asSlice(position, bytes);
        if (null == out.segment()) {
            for (int i = 0; i < bytes; i++) {
                out.booleans()[out.booleanOffset() + i] = 0 != in.get(ValueLayout.JAVA_BYTE, i);
            }
        } else {
            out.segment().copyFrom(in);
        }
        return position + bytes;
    }

    private static void check(final String what, final byte[] packed, final int position, final int bytes) {
        if (null == packed || position < 0 || (long) position + bytes > packed.length) {
            throw Errors.error(MPI.ERR_TRUNCATE, what + ": position=" + position + " + " + bytes + " bytes exceeds "
                + "the packed buffer of " + (null == packed ? 0 : packed.length) + " bytes");
        }
    }
}
