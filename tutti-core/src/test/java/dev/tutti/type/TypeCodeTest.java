package dev.tutti.type;

import dev.tutti.Datatype;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The type code's layout: datatype and collective header side by side, and when two headers agree. */
class TypeCodeTest {

    @Test
    void shouldKeepPointToPointCodesThePlainOrdinal() {
        for (final Datatype t : Datatype.values()) {
            assertEquals(0, TypeCode.header(t.ordinal()));
            assertEquals(0, TypeCode.kind(t.ordinal()));
            assertEquals(t, TypeCode.datatype(t.ordinal()));
            assertTrue(TypeCode.headersAgree(t.ordinal(), 0));
        }
    }

    @Test
    void shouldCarryTheDatatypeBesideAnyHeader() {
        for (final Datatype t : Datatype.values()) {
            for (final int h : new int[] {TypeCode.intraHeader(1, -1), TypeCode.intraHeader(31, 262_142),
                TypeCode.interHeader(17, 510, 3), TypeCode.interHeader(2, -1, -1)}) {
                assertEquals(0, h & TypeCode.DATATYPE_MASK);
                assertEquals(t, TypeCode.datatype(h | t.ordinal()));
                assertEquals(h, TypeCode.header(h | t.ordinal()));
            }
        }
    }

    @Test
    void shouldTellEveryPairOfKindsApart() {
        for (int a = 1; a <= TypeCode.MAX_KIND; a++) {
            for (int b = 1; b <= TypeCode.MAX_KIND; b++) {
                assertEquals(a == b, TypeCode.headersAgree(TypeCode.intraHeader(a, 0), TypeCode.intraHeader(b, 0)));
                assertEquals(a == b, TypeCode.headersAgree(TypeCode.interHeader(a, 0, 1),
                    TypeCode.interHeader(b, 0, 1)));
            }
            assertEquals(a, TypeCode.kind(TypeCode.intraHeader(a, 5)));
            assertFalse(TypeCode.headersAgree(TypeCode.intraHeader(a, -1), 0), "a collective message is not p2p");
            assertFalse(TypeCode.headersAgree(0, TypeCode.intraHeader(a, -1)), "a p2p message is not collective");
        }
        assertFalse(TypeCode.headersAgree(TypeCode.intraHeader(3, 1), TypeCode.interHeader(3, 1, -1)));
        assertThrows(IllegalArgumentException.class, () -> TypeCode.intraHeader(0, 1));
        assertThrows(IllegalArgumentException.class, () -> TypeCode.intraHeader(TypeCode.MAX_KIND + 1, 1));
    }

    @Test
    void shouldCarryIntracommunicatorRootsExactlyBelowTheModulus() {
        final int[] roots = {-1, 0, 1, 2, 510, 511, 512, 100_000, TypeCode.INTRA_ROOT_MODULUS - 1};
        for (final int a : roots) {
            assertEquals(a, TypeCode.root(TypeCode.intraHeader(2, a), 1));
            assertEquals(-1, TypeCode.root(TypeCode.intraHeader(2, a), 2));
            for (final int b : roots) {
                assertEquals(a == b, TypeCode.headersAgree(TypeCode.intraHeader(2, a) | 4,
                    TypeCode.intraHeader(2, b) | 7), a + " vs " + b);
            }
        }
        // Folded: roots a multiple of the modulus apart look the same (documented).
        final int m = TypeCode.INTRA_ROOT_MODULUS;
        assertEquals(3, TypeCode.root(TypeCode.intraHeader(2, m + 3), 1));
        assertTrue(TypeCode.headersAgree(TypeCode.intraHeader(2, 3), TypeCode.intraHeader(2, m + 3)));
    }

    @Test
    void shouldLetAnUnknownIntercommunicatorRootAgreeWithAny() {
        for (final int a : new int[] {-1, 0, 1, 509, 510}) {
            for (final int b : new int[] {-1, 0, 1, 509, 510}) {
                final int h = TypeCode.interHeader(2, a, b);
                assertTrue(TypeCode.isInter(h));
                assertEquals(a, TypeCode.root(h, 1));
                assertEquals(b, TypeCode.root(h, 2));
                assertTrue(TypeCode.headersAgree(h, TypeCode.interHeader(2, -1, b)));
                assertTrue(TypeCode.headersAgree(TypeCode.interHeader(2, a, -1), h));
                assertEquals(a == 1 || a < 0, TypeCode.headersAgree(h, TypeCode.interHeader(2, 1, b)));
                assertEquals(b == 0 || b < 0, TypeCode.headersAgree(TypeCode.interHeader(2, a, 0), h));
            }
        }
        final int m = TypeCode.INTER_ROOT_MODULUS;
        assertEquals(7, TypeCode.root(TypeCode.interHeader(2, m + 7, 0), 1));
    }

    @Test
    void shouldDescribeCodesForThePointToPointLayer() {
        assertEquals("type=INT", TypeCode.describe(Datatype.INT.ordinal()));
        assertEquals("type=LONG (collective header kind=12 root=1)",
            TypeCode.describe(TypeCode.intraHeader(12, 1) | Datatype.LONG.ordinal()));
        assertEquals("type=BYTE (collective header kind=2 roots=-1,3)",
            TypeCode.describe(TypeCode.interHeader(2, -1, 3)));
    }
}
