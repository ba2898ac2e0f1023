package dev.tutti.type.kernel;

import dev.tutti.Datatype;
import dev.tutti.Op;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** Placeholder until the kernels branch lands. */
public final class Reductions {
    private Reductions() {
    }

    /**
     * inout = in op inout.
     * @param op op @param type type @param in in @param inout inout @param count count
     */
    public static void reduce(final Op op, final Datatype type, final MemorySegment in, final MemorySegment inout,
        final int count) {
        for (int i = 0; i < count; i++) {
            switch (type) {
                case INT -> {
                    final int a = in.getAtIndex(ValueLayout.JAVA_INT_UNALIGNED, i);
                    final int b = inout.getAtIndex(ValueLayout.JAVA_INT_UNALIGNED, i);
                    inout.setAtIndex(ValueLayout.JAVA_INT_UNALIGNED, i, "SUM".equals(op.name()) ? a + b : Math.max(a, b));
                }
                case LONG -> {
                    final long a = in.getAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, i);
                    final long b = inout.getAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, i);
                    inout.setAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, i, "SUM".equals(op.name()) ? a + b : Math.max(a, b));
                }
                case DOUBLE -> {
                    final double a = in.getAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i);
                    final double b = inout.getAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i);
                    inout.setAtIndex(ValueLayout.JAVA_DOUBLE_UNALIGNED, i, "SUM".equals(op.name()) ? a + b : Math.max(a, b));
                }
                default -> throw new UnsupportedOperationException(type.name());
            }
        }
    }

    /** @param opName n @param op o @param type t */
    public static void check(final String opName, final Op op, final Datatype type) {
    }
}
