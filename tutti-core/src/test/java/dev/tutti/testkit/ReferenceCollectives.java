package dev.tutti.testkit;

import dev.tutti.Datatype;
import dev.tutti.Op;

import dev.tutti.type.LocalReduction;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * Plain sequential definitions of the collectives over canonical bytes (Gloo's {@code Combine}, mpi4py's loops):
 * the truth every algorithm is compared with.
 */
public final class ReferenceCollectives {
    private ReferenceCollectives() {
    }

    /** x0 op (x1 op (... op x(p-1))), element-wise, over the first {@code n} elements of each input. */
    public static byte[] reduce(final byte[][] inputs, final Op op, final Datatype t, final int n) {
        final int p = inputs.length;
        final byte[] acc = Arrays.copyOf(inputs[p - 1], n * t.sizeBytes());
        for (int i = p - 2; i >= 0; i--) {
            LocalReduction.reduce(op, t, MemorySegment.ofArray(Arrays.copyOf(inputs[i], n * t.sizeBytes())),
                MemorySegment.ofArray(acc), n);
        }
        return acc;
    }

    /** Inputs 0..upTo-1 reduced in rank order; null if upTo == 0. */
    public static byte[] prefix(final byte[][] inputs, final Op op, final Datatype t, final int n, final int upTo) {
        return 0 == upTo ? null : reduce(Arrays.copyOf(inputs, upTo), op, t, n);
    }

    public static byte[] concat(final byte[]... parts) {
        int len = 0;
        for (final byte[] b : parts) {
            len += b.length;
        }
        final byte[] out = new byte[len];
        int at = 0;
        for (final byte[] b : parts) {
            System.arraycopy(b, 0, out, at, b.length);
            at += b.length;
        }
        return out;
    }

    public static byte[] slice(final byte[] b, final int fromElem, final int n, final Datatype t) {
        return Arrays.copyOfRange(b, fromElem * t.sizeBytes(), (fromElem + n) * t.sizeBytes());
    }
}
