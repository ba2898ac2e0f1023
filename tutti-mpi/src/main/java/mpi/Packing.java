package mpi;

import dev.tutti.Buf;

import java.lang.foreign.MemorySegment;

/**
 * MPI_Pack and MPI_Unpack: the items' data, in type-map order and native byte order, {@code sizeBytes} per item
 * (a derived type's gaps are skipped). Tutti's {@link Buf#pack} and {@link Buf#unpack} do the gathering and
 * scattering.
 */
final class Packing {
    private Packing() {
    }

    static int pack(final Object inbuf, final int incount, final Datatype type, final byte[] outbuf,
        final int position) {
        final Buf in = Bufs.of("pack", inbuf, incount, type);
        final int bytes = incount * type.sizeBytes;
        check("pack", outbuf, position, bytes);
        in.pack(MemorySegment.ofArray(outbuf).asSlice(position, bytes));
        return position + bytes;
    }

    static int unpack(final byte[] inbuf, final int position, final Object outbuf, final int outcount,
        final Datatype type) {
        final Buf out = Bufs.of("unpack", outbuf, outcount, type);
        final int bytes = outcount * type.sizeBytes;
        check("unpack", inbuf, position, bytes);
        out.unpack(MemorySegment.ofArray(inbuf).asSlice(position, bytes));
        return position + bytes;
    }

    private static void check(final String what, final byte[] packed, final int position, final int bytes) {
        if (null == packed || position < 0 || (long) position + bytes > packed.length) {
            throw MpiErrors.error(MPI.ERR_TRUNCATE, what + ": position=" + position + " + " + bytes + " bytes exceeds "
                + "the packed buffer of " + (null == packed ? 0 : packed.length) + " bytes");
        }
    }
}
