package dev.tutti.type.kernel;

import dev.tutti.Datatype;
import dev.tutti.Op;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A straightforward scalar reference for the predefined operations: one element at a time, read and written
 * through layouts, integer arithmetic done in {@code long} and narrowed (which wraps like the type's own), and
 * MINLOC/MAXLOC spelled out case by case rather than through a comparator, so that it shares no code or trick
 * with the kernels.
 */
final class ReferenceReduction {
    private static final ValueLayout.OfByte B = ValueLayout.JAVA_BYTE;
    private static final ValueLayout.OfShort S = ValueLayout.JAVA_SHORT_UNALIGNED;
    private static final ValueLayout.OfChar C = ValueLayout.JAVA_CHAR_UNALIGNED;
    private static final ValueLayout.OfInt I = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong L = ValueLayout.JAVA_LONG_UNALIGNED;
    private static final ValueLayout.OfFloat F = ValueLayout.JAVA_FLOAT_UNALIGNED;
    private static final ValueLayout.OfDouble D = ValueLayout.JAVA_DOUBLE_UNALIGNED;

    private ReferenceReduction() {
    }

    static void reduce(final Op.Predefined op, final Datatype type, final MemorySegment in,
        final MemorySegment inout, final int count) {
        for (int i = 0; i < count; i++) {
            switch (type) {
                case BYTE -> inout.setAtIndex(B, i, (byte) integer(op, in.getAtIndex(B, i), inout.getAtIndex(B, i)));
                case SHORT -> inout.setAtIndex(S, i, (short) integer(op, in.getAtIndex(S, i), inout.getAtIndex(S, i)));
                case CHAR -> inout.setAtIndex(C, i, (char) integer(op, in.getAtIndex(C, i), inout.getAtIndex(C, i)));
                case INT -> inout.setAtIndex(I, i, (int) integer(op, in.getAtIndex(I, i), inout.getAtIndex(I, i)));
                case LONG -> inout.setAtIndex(L, i, integer(op, in.getAtIndex(L, i), inout.getAtIndex(L, i)));
                case FLOAT -> inout.setAtIndex(F, i, floating(op, in.getAtIndex(F, i), inout.getAtIndex(F, i)));
                case DOUBLE -> inout.setAtIndex(D, i, floating(op, in.getAtIndex(D, i), inout.getAtIndex(D, i)));
                case BOOLEAN -> inout.setAtIndex(B, i, bool(op, 0 != in.getAtIndex(B, i), 0 != inout.getAtIndex(B, i)));
                case INT_PAIR -> {
                    if (wins(op, in.getAtIndex(I, 2L * i), in.getAtIndex(I, 2L * i + 1), inout.getAtIndex(I, 2L * i),
                        inout.getAtIndex(I, 2L * i + 1))) {
                        MemorySegment.copy(in, 8L * i, inout, 8L * i, 8);
                    }
                }
                case LONG_PAIR -> {
                    if (wins(op, in.getAtIndex(L, 2L * i), in.getAtIndex(L, 2L * i + 1), inout.getAtIndex(L, 2L * i),
                        inout.getAtIndex(L, 2L * i + 1))) {
                        MemorySegment.copy(in, 16L * i, inout, 16L * i, 16);
                    }
                }
                case FLOAT_PAIR -> {
                    if (winsFloating(op, in.getAtIndex(F, 2L * i), in.getAtIndex(F, 2L * i + 1),
                        inout.getAtIndex(F, 2L * i), inout.getAtIndex(F, 2L * i + 1))) {
                        MemorySegment.copy(in, 8L * i, inout, 8L * i, 8);
                    }
                }
                case DOUBLE_PAIR -> {
                    if (winsFloating(op, in.getAtIndex(D, 2L * i), in.getAtIndex(D, 2L * i + 1),
                        inout.getAtIndex(D, 2L * i), inout.getAtIndex(D, 2L * i + 1))) {
                        MemorySegment.copy(in, 16L * i, inout, 16L * i, 16);
                    }
                }
                case OBJECT -> throw new AssertionError("no reference for OBJECT");
            }
        }
    }

    static long integer(final Op.Predefined op, final long x, final long y) {
        return switch (op) {
            case SUM -> x + y;
            case PROD -> x * y;
            case MIN -> x < y ? x : y;
            case MAX -> x > y ? x : y;
            case LAND -> x != 0 && y != 0 ? 1 : 0;
            case LOR -> x != 0 || y != 0 ? 1 : 0;
            case LXOR -> (x != 0) != (y != 0) ? 1 : 0;
            case BAND -> x & y;
            case BOR -> x | y;
            case BXOR -> x ^ y;
            default -> throw new AssertionError(op + " on an integer type");
        };
    }

    static float floating(final Op.Predefined op, final float x, final float y) {
        return switch (op) {
            case SUM -> x + y;
            case PROD -> x * y;
            case MIN -> Math.min(x, y);
            case MAX -> Math.max(x, y);
            default -> throw new AssertionError(op + " on float");
        };
    }

    static double floating(final Op.Predefined op, final double x, final double y) {
        return switch (op) {
            case SUM -> x + y;
            case PROD -> x * y;
            case MIN -> Math.min(x, y);
            case MAX -> Math.max(x, y);
            default -> throw new AssertionError(op + " on double");
        };
    }

    static byte bool(final Op.Predefined op, final boolean x, final boolean y) {
        final boolean r = switch (op) {
            case LAND, BAND -> x && y;
            case LOR, BOR -> x || y;
            case LXOR, BXOR -> x != y;
            default -> throw new AssertionError(op + " on boolean");
        };
        return (byte) (r ? 1 : 0);
    }

    /** Whether the in pair (u, iu) replaces the inout pair (v, iv). */
    static boolean wins(final Op.Predefined op, final long u, final long iu, final long v, final long iv) {
        if (u == v) {
            return iu < iv;
        }
        return Op.Predefined.MINLOC == op ? u < v : u > v;
    }

    /** As {@link #wins} with NaN winning both MINLOC and MAXLOC, all NaNs tied, and -0.0 below 0.0. */
    static boolean winsFloating(final Op.Predefined op, final double u, final double iu, final double v,
        final double iv) {
        final boolean un = Double.isNaN(u);
        final boolean vn = Double.isNaN(v);
        if (un || vn) {
            return un && vn ? iu < iv : un;
        }
        if (u == v) {
            if (0.0 == u) {
                final boolean uNeg = 1 / u < 0;
                final boolean vNeg = 1 / v < 0;
                if (uNeg != vNeg) {
                    return Op.Predefined.MINLOC == op ? uNeg : vNeg;
                }
            }
            return iu < iv;
        }
        return Op.Predefined.MINLOC == op ? u < v : u > v;
    }
}
