package dev.tutti.type;

import dev.tutti.Buf;
import dev.tutti.Datatype;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * Resolves a {@link Buf} to the memory a transport or schedule reads and writes. Every type maps its own memory,
 * except two kinds of buffer that no one segment can view, which are <em>staged</em>: {@code boolean[]}, through
 * bytes 0/1 (the wire format of {@link Datatype#BOOLEAN}), and the items of a non-contiguous
 * {@link dev.tutti.Layout} (a derived datatype), gathered into a packed copy to send and scattered back from one
 * when a receive completes. The one place that staging is decided; {@link Buf#pack} and {@link Buf#unpack} do the
 * copying. A layout whose items are contiguous is a plain view and is never staged.
 */
public final class BooleanStaging {
    private BooleanStaging() {
    }

    /**
     * Tells whether a buffer is staged: a boolean one, or items of a non-contiguous layout.
     *
     * @param b the buffer
     * @return whether {@link Buf#segment()} is null and the memory must go through {@link #sendMemory} and
     *         {@link #recvMemory}
     */
    public static boolean staged(final Buf b) {
        return Datatype.BOOLEAN == b.datatype() || null != b.layout();
    }

    /**
     * Returns the memory to send from: the buffer's own segment, or for a staged buffer a packed copy.
     *
     * @param b the buffer
     * @return the bytes to send
     */
    public static MemorySegment sendMemory(final Buf b) {
        if (!staged(b)) {
            return b.segment();
        }
        // 8-byte aligned, so that reduction kernels may read elements of any type in it
        final MemorySegment packed = MemorySegment.ofArray(new long[(int) ((b.byteSize() + 7) / 8)])
            .asSlice(0, b.byteSize());
        b.pack(packed);
        return packed;
    }

    /**
     * Returns the list that {@link #recvMemory} adds a buffer's copy-back step to: a new one if the buffer is staged,
     * else a shared empty one, so that a call with nothing staged allocates no list.
     *
     * @param b the receive buffer, or null
     * @return a list to pass to {@link #recvMemory} for {@code b}
     */
    public static List<Runnable> finishers(final Buf b) {
        return null != b && staged(b) ? new ArrayList<>(1) : List.of();
    }

    /**
     * Returns the list that {@link #recvMemory} adds the copy-back steps of several buffers to (see
     * {@link #finishers(Buf)}).
     *
     * @param bs the receive buffers, or null
     * @return a list to pass to {@link #recvMemory} for each of them
     */
    public static List<Runnable> finishers(final Buf[] bs) {
        if (null != bs) {
            for (final Buf b : bs) {
                if (null != b && staged(b)) {
                    return new ArrayList<>(bs.length);
                }
            }
        }
        return List.of();
    }

    /**
     * Returns the memory to receive into: the buffer's own segment, or for a staged buffer a packed copy holding
     * the current values (for in-place use, and so that what the operation does not write comes back unchanged)
     * and a step, added to {@code finish}, that copies it back.
     *
     * @param b      the buffer
     * @param finish where the copy-back step is added
     * @return the memory to receive into
     */
    public static MemorySegment recvMemory(final Buf b, final List<Runnable> finish) {
        if (!staged(b)) {
            return b.segment();
        }
        final MemorySegment staged = sendMemory(b);
        finish.add(() -> b.unpack(staged));
        return staged;
    }

    /**
     * Copies staged bytes into a staged buffer: bytes 0/1 into the first {@code bytes.byteSize()} elements of a
     * boolean buffer, or packed bytes into the first items of a layout (a prefix when the bytes are fewer).
     *
     * @param bytes  the staged bytes
     * @param target the buffer
     */
    public static void unpack(final MemorySegment bytes, final Buf target) {
        target.unpack(bytes);
    }

    /**
     * Copies one buffer's data into another of the same type and count, whatever the kind of either.
     *
     * @param from the source
     * @param to   the target
     */
    public static void copy(final Buf from, final Buf to) {
        to.unpack(sendMemory(from));
    }
}
