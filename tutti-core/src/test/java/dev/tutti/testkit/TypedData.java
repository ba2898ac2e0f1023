package dev.tutti.testkit;

import dev.tutti.Buf;
import dev.tutti.Datatype;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Test data of every primitive type: arrays with deterministic contents (so every rank can compute every other
 * rank's input), {@link Buf}s over them, and canonical bytes for comparison.
 */
public final class TypedData {
    /** Value ranges: small integers keep float sums and products exact under any bracketing. */
    public enum Values { SMALL, UNIT }

    public static final Datatype[] PRIMITIVES = {Datatype.BYTE, Datatype.BOOLEAN, Datatype.CHAR, Datatype.SHORT,
        Datatype.INT, Datatype.FLOAT, Datatype.LONG, Datatype.DOUBLE};

    private TypedData() {
    }

    public static Object array(final Datatype t, final int len) {
        return switch (t) {
            case BYTE -> new byte[len];
            case BOOLEAN -> new boolean[len];
            case CHAR -> new char[len];
            case SHORT -> new short[len];
            case INT -> new int[len];
            case FLOAT -> new float[len];
            case LONG -> new long[len];
            case DOUBLE -> new double[len];
            default -> throw new IllegalArgumentException(t.name());
        };
    }

    public static Buf buf(final Object a, final int off, final int n) {
        return switch (a) {
            case byte[] x -> Buf.of(x, off, n);
            case boolean[] x -> Buf.of(x, off, n);
            case char[] x -> Buf.of(x, off, n);
            case short[] x -> Buf.of(x, off, n);
            case int[] x -> Buf.of(x, off, n);
            case float[] x -> Buf.of(x, off, n);
            case long[] x -> Buf.of(x, off, n);
            case double[] x -> Buf.of(x, off, n);
            default -> throw new IllegalArgumentException(a.getClass().getName());
        };
    }

    /** An array of {@code off + n + tail} elements whose [off, off+n) holds the canonical data for (seed). */
    public static Object filled(final Datatype t, final int off, final int n, final int tail, final long seed,
        final Values v) {
        final Object a = array(t, off + n + tail);
        final byte[] bytes = canonical(t, n, seed, v);
        write(a, t, off, bytes);
        return a;
    }

    /** The values {@link Values#UNIT} draws from. */
    private static final int[] UNIT = {-1, 1, 2, 1};

    /** Canonical bytes (native order; booleans as 0/1) of n elements for a seed: a copy the caller owns. */
    public static byte[] canonical(final Datatype t, final int n, final long seed, final Values v) {
        final Key key = new Key(t, n, seed, v);
        byte[] bytes;
        synchronized (RECENT) {
            bytes = RECENT.get(key);
        }
        if (null == bytes) {
            bytes = generate(t, n, seed, v);
            if (bytes.length <= 1 << 20) { // at most 64 MiB kept
                synchronized (RECENT) {
                    RECENT.put(key, bytes);
                }
            }
        }
        return bytes.clone();
    }

    /** What {@link #canonical} depends on. */
    private record Key(Datatype t, int n, long seed, Values v) {
    }

    /**
     * The canonical bytes most recently asked for: the ranks of one job each compute every rank's input, so one
     * collective call asks for the same bytes p times. Callers get copies; the entries are never written.
     */
    private static final Map<Key, byte[]> RECENT = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(final Map.Entry<Key, byte[]> eldest) {
            return size() > 64;
        }
    };

    /** Draws the values first, then stores them with one loop per type. */
    private static byte[] generate(final Datatype t, final int n, final long seed, final Values v) {
        final SplittableRandom r = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + n);
        final int[] x = new int[n];
        for (int i = 0; i < n; i++) {
            x[i] = Values.UNIT == v ? UNIT[r.nextInt(4)] : r.nextInt(-100, 101);
        }
        final ByteBuffer b = ByteBuffer.allocate(n * t.sizeBytes()).order(ByteOrder.nativeOrder());
        switch (t) {
            case BYTE -> {
                for (int i = 0; i < n; i++) {
                    b.put((byte) x[i]);
                }
            }
            case BOOLEAN -> {
                for (int i = 0; i < n; i++) {
                    b.put((byte) (x[i] > 0 ? 1 : 0));
                }
            }
            case CHAR -> {
                for (int i = 0; i < n; i++) {
                    b.putChar((char) (x[i] + 100));
                }
            }
            case SHORT -> {
                for (int i = 0; i < n; i++) {
                    b.putShort((short) x[i]);
                }
            }
            case INT -> {
                for (int i = 0; i < n; i++) {
                    b.putInt(x[i] * 1000 + i);
                }
            }
            case FLOAT -> {
                for (int i = 0; i < n; i++) {
                    b.putFloat(x[i]);
                }
            }
            case LONG -> {
                for (int i = 0; i < n; i++) {
                    b.putLong(((long) x[i] << 33) + i);
                }
            }
            case DOUBLE -> {
                for (int i = 0; i < n; i++) {
                    b.putDouble(x[i]);
                }
            }
            default -> throw new IllegalArgumentException(t.name());
        }
        return b.array();
    }

    /** Reads [off, off+n) of an array as canonical bytes. */
    public static byte[] read(final Object a, final Datatype t, final int off, final int n) {
        if (a instanceof boolean[] b) {
            final byte[] out = new byte[n];
            for (int i = 0; i < n; i++) {
                out[i] = (byte) (b[off + i] ? 1 : 0);
            }
            return out;
        }
        return buf(a, off, n).segment().toArray(ValueLayout.JAVA_BYTE);
    }

    /** Writes canonical bytes into an array at element off. */
    public static void write(final Object a, final Datatype t, final int off, final byte[] bytes) {
        if (a instanceof boolean[] b) {
            for (int i = 0; i < bytes.length; i++) {
                b[off + i] = 0 != bytes[i];
            }
            return;
        }
        final Buf buf = buf(a, off, bytes.length / t.sizeBytes());
        MemorySegment.copy(MemorySegment.ofArray(bytes), 0, buf.segment(), 0, bytes.length);
    }
}
