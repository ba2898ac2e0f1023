package dev.tutti.type.kernel;

import dev.tutti.Datatype;
import dev.tutti.Op;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;

/**
 * Test operands: a segment of {@code count} elements cut out of a larger, randomly filled memory block of one of
 * the kinds the engine hands to the kernels, so that a test can check both the result and that nothing around
 * it was touched.
 */
final class Operands {
    /** Elements of padding before the operand. */
    static final int PAD_BEFORE = 3;
    /** Elements of padding after the operand. */
    static final int PAD_AFTER = 2;

    /** Where the memory comes from. */
    enum Kind {
        /** The matching primitive array (int[] for INT and INT_PAIR, byte[] for BOOLEAN), at a nonzero index. */
        ARRAY,
        /** The matching primitive array at index 0 (the user-function zero-copy case); no padding before. */
        ARRAY_START,
        /** The matching array, but starting one byte into an element: not element-aligned. */
        ARRAY_MISALIGNED,
        /** A byte[] (the engine's staging buffers), at an odd byte offset. */
        BYTES,
        /** Native memory, at an odd address. */
        NATIVE,
        /** The matching array, read-only (only valid as the in operand). */
        READ_ONLY
    }

    /** The segment handed to the kernel. */
    final MemorySegment operand;
    /** The whole block the operand was cut from. */
    final MemorySegment block;
    /** The block's bytes before the reduction, to check the padding afterwards. */
    final byte[] before;
    private final long operandOffset;

    private Operands(final MemorySegment block, final long operandOffset, final long bytes, final boolean readOnly) {
        this.block = block;
        this.operandOffset = operandOffset;
        final MemorySegment s = block.asSlice(operandOffset, bytes);
        this.operand = readOnly ? s.asReadOnly() : s;
        this.before = block.toArray(ValueLayout.JAVA_BYTE);
    }

    static Operands create(final Kind kind, final Datatype type, final int count, final Arena arena,
        final SplittableRandom random, final Op.Predefined op) {
        final long size = type.sizeBytes();
        final long bytes = count * size;
        final long padBefore = Kind.ARRAY_START == kind ? 0 : PAD_BEFORE * size + (misaligned(kind) ? 1 : 0);
        final long total = padBefore + bytes + PAD_AFTER * size + 1;
        final MemorySegment block = switch (kind) {
            case NATIVE -> arena.allocate(total, 8);
            case BYTES -> MemorySegment.ofArray(new byte[(int) total]);
            default -> matchingArray(type, total);
        };
        final MemorySegment operand = block.asSlice(padBefore, bytes);
        fillRandom(block, random);
        fill(operand, type, count, random, op);
        return new Operands(block, padBefore, bytes, Kind.READ_ONLY == kind);
    }

    private static boolean misaligned(final Kind kind) {
        return Kind.ARRAY_MISALIGNED == kind || Kind.BYTES == kind || Kind.NATIVE == kind;
    }

    /** A heap segment over the primitive array that matches the type, at least {@code bytes} long. */
    static MemorySegment matchingArray(final Datatype type, final long bytes) {
        final int n = (int) (bytes / 8 + 1);
        return switch (type) {
            case BYTE, BOOLEAN -> MemorySegment.ofArray(new byte[(int) bytes]);
            case SHORT -> MemorySegment.ofArray(new short[n * 4]);
            case CHAR -> MemorySegment.ofArray(new char[n * 4]);
            case INT, INT_PAIR -> MemorySegment.ofArray(new int[n * 2]);
            case FLOAT, FLOAT_PAIR -> MemorySegment.ofArray(new float[n * 2]);
            case LONG, LONG_PAIR -> MemorySegment.ofArray(new long[n]);
            case DOUBLE, DOUBLE_PAIR -> MemorySegment.ofArray(new double[n]);
            case OBJECT -> throw new AssertionError("OBJECT has no array");
        };
    }

    /**
     * Random bytes over the whole block, built in an array and copied in once: a store per byte through a heap
     * segment of another element type pays an alignment check per byte.
     */
    private static void fillRandom(final MemorySegment s, final SplittableRandom random) {
        final byte[] bytes = new byte[(int) s.byteSize()];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) random.nextInt();
        }
        MemorySegment.copy(bytes, 0, s, ValueLayout.JAVA_BYTE, 0, bytes.length);
    }

    /**
     * Fills a segment with data that exercises the op: full-range integers (negatives, overflow), zeros for the
     * logical ops, small ranges with ties for MIN/MAX/MINLOC/MAXLOC, signed zeros for the floating types.
     */
    static void fill(final MemorySegment s, final Datatype type, final int count, final SplittableRandom random,
        final Op.Predefined op) {
        final boolean ties = null != op && (Op.Predefined.MIN == op || Op.Predefined.MAX == op
            || Op.Predefined.MINLOC == op || Op.Predefined.MAXLOC == op);
        for (int i = 0; i < count; i++) {
            switch (type) {
                case BYTE, SHORT, CHAR, INT, LONG -> putInteger(s, type, i, integer(random, ties));
                case BOOLEAN -> s.set(ValueLayout.JAVA_BYTE, i, (byte) random.nextInt(2));
                case FLOAT -> s.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, i, (float) floating(random, ties));
                case DOUBLE -> s.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i, floating(random, ties));
                case INT_PAIR -> {
                    s.setAtIndex(ValueLayout.JAVA_INT_UNALIGNED, 2L * i, (int) integer(random, true));
                    s.setAtIndex(ValueLayout.JAVA_INT_UNALIGNED, 2L * i + 1, random.nextInt(4));
                }
                case LONG_PAIR -> {
                    s.setAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, 2L * i, integer(random, true));
                    s.setAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, 2L * i + 1, random.nextInt(4));
                }
                case FLOAT_PAIR -> {
                    s.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, 2L * i, (float) floating(random, true));
                    s.setAtIndex(ValueLayout.JAVA_FLOAT_UNALIGNED, 2L * i + 1, random.nextInt(4));
                }
                case DOUBLE_PAIR -> {
                    s.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, 2L * i, floating(random, true));
                    s.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, 2L * i + 1, random.nextInt(4));
                }
                case OBJECT -> throw new AssertionError("OBJECT has no elements");
            }
        }
    }

    private static long integer(final SplittableRandom random, final boolean ties) {
        if (ties) {
            return random.nextInt(5) - 2;
        }
        return switch (random.nextInt(4)) {
            case 0 -> 0;
            case 1 -> random.nextInt(7) - 3;
            default -> random.nextLong();
        };
    }

    private static double floating(final SplittableRandom random, final boolean ties) {
        if (ties) {
            return switch (random.nextInt(6)) {
                case 0 -> -0.0;
                case 1 -> 0.0;
                default -> random.nextInt(5) - 2;
            };
        }
        return switch (random.nextInt(8)) {
            case 0 -> 0.0;
            case 1 -> -0.0;
            case 2 -> random.nextDouble() * 1e300;
            default -> (random.nextDouble() - 0.5) * 1000;
        };
    }

    private static void putInteger(final MemorySegment s, final Datatype type, final int i, final long v) {
        switch (type) {
            case BYTE -> s.set(ValueLayout.JAVA_BYTE, i, (byte) v);
            case SHORT -> s.setAtIndex(ValueLayout.JAVA_SHORT_UNALIGNED, i, (short) v);
            case CHAR -> s.setAtIndex(ValueLayout.JAVA_CHAR_UNALIGNED, i, (char) v);
            case INT -> s.setAtIndex(ValueLayout.JAVA_INT_UNALIGNED, i, (int) v);
            default -> s.setAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, i, v);
        }
    }

    /** @return a heap copy of the operand's bytes */
    MemorySegment copy() {
        return MemorySegment.ofArray(operand.toArray(ValueLayout.JAVA_BYTE));
    }

    /** @return the first byte offset, within the block, where the padding differs from before; -1 if none */
    long paddingChange() {
        final byte[] now = block.toArray(ValueLayout.JAVA_BYTE);
        for (int i = 0; i < now.length; i++) {
            final boolean inOperand = i >= operandOffset && i < operandOffset + operand.byteSize();
            if (!inOperand && now[i] != before[i]) {
                return i;
            }
        }
        return -1;
    }
}
