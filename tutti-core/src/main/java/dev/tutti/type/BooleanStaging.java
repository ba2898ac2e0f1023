package dev.tutti.type;

import dev.tutti.Buf;
import dev.tutti.Datatype;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

/**
 * Resolves a {@link Buf} to the memory a transport or schedule reads and writes. Every type maps its own memory,
 * except {@code boolean[]}, which no segment can view: it is staged through bytes 0/1 (the wire format of
 * {@link Datatype#BOOLEAN}). The one place that staging is written.
 */
public final class BooleanStaging {
    private BooleanStaging() {
    }

    /**
     * Returns the memory to send from: the buffer's own segment, or for booleans a packed copy.
     *
     * @param b the buffer
     * @return the bytes to send
     */
    public static MemorySegment sendMemory(final Buf b) {
        if (Datatype.BOOLEAN != b.datatype()) {
            return b.segment();
        }
        final boolean[] src = b.booleans();
        final byte[] packed = new byte[b.count()];
        for (int i = 0; i < packed.length; i++) {
            packed[i] = src[b.booleanOffset() + i] ? (byte) 1 : (byte) 0;
        }
        return MemorySegment.ofArray(packed);
    }

    /**
     * Returns the memory to receive into: the buffer's own segment, or for booleans a staged byte copy holding the
     * current values (for in-place use) and a step, added to {@code finish}, that copies it back.
     *
     * @param b      the buffer
     * @param finish where the copy-back step is added
     * @return the memory to receive into
     */
    public static MemorySegment recvMemory(final Buf b, final List<Runnable> finish) {
        if (Datatype.BOOLEAN != b.datatype()) {
            return b.segment();
        }
        final MemorySegment staged = sendMemory(b);
        finish.add(() -> unpack(staged, b));
        return staged;
    }

    /**
     * Copies bytes 0/1 into the first {@code bytes.byteSize()} elements of a boolean buffer.
     *
     * @param bytes  the staged bytes
     * @param target the boolean buffer
     */
    public static void unpack(final MemorySegment bytes, final Buf target) {
        final boolean[] out = target.booleans();
        final int off = target.booleanOffset();
        final long n = Math.min(bytes.byteSize(), target.count());
        for (int i = 0; i < n; i++) {
            out[off + i] = 0 != bytes.get(ValueLayout.JAVA_BYTE, i);
        }
    }
}
