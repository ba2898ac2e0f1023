package dev.tutti.type.kernel;

import dev.tutti.Op;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A predefined op's kernel code is its ordinal: the kernels' codes name the ops of {@code Op.Predefined} in order. */
class KernelCodesTest {
    @Test
    void shouldNameEveryPredefinedOpByItsOrdinal() {
        final int[] codes = {Kernels.SUM, Kernels.PROD, Kernels.MIN, Kernels.MAX, Kernels.LAND, Kernels.LOR,
            Kernels.LXOR, Kernels.BAND, Kernels.BOR, Kernels.BXOR, Kernels.MINLOC, Kernels.MAXLOC};
        assertEquals(Op.Predefined.values().length, codes.length);
        for (final Op.Predefined op : Op.Predefined.values()) {
            assertEquals(op.ordinal(), codes[op.ordinal()], op.name());
            assertEquals(op.name(), Kernels.name(op.ordinal()));
        }
    }
}
