package dev.tutti;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OpTest {
    @Test
    void shouldExposeTwelvePredefinedCommutativeOpsByName() {
        final List<Op> ops = List.of(Op.SUM, Op.PROD, Op.MIN, Op.MAX, Op.LAND, Op.LOR, Op.LXOR, Op.BAND, Op.BOR,
            Op.BXOR, Op.MINLOC, Op.MAXLOC);
        assertEquals(Op.Predefined.values().length, ops.size());
        for (int i = 0; i < ops.size(); i++) {
            final Op op = ops.get(i);
            assertSame(Op.Predefined.values()[i], op);
            assertEquals(Op.Predefined.values()[i].name(), op.name());
            assertEquals(op.name(), op.toString());
            assertTrue(op.isCommutative(), op.name());
            assertTrue(op.isPredefined(), op.name());
            assertFalse(op.isDefinedFor(null));
            assertFalse(op.isDefinedFor(Datatype.OBJECT));
        }
    }

    @Test
    void shouldSwitchOverTheTwoKinds() {
        final Op user = Op.user("first", false, (int[] in, int[] inout, int count) -> { });
        for (final Op op : List.of(Op.SUM, user)) {
            final String kind = switch (op) {
                case Op.Predefined p -> "predefined " + p.ordinal();
                case Op.User u -> "user " + u.name();
            };
            assertEquals(op.isPredefined() ? "predefined 0" : "user first", kind);
        }
    }

    @Test
    void shouldBuildUserOpsPerTypeWithDeclaredCommutativity() {
        final Op.User doubles = (Op.User) Op.user("d", false, (double[] in, double[] inout, int count) -> { });
        assertEquals("d", doubles.name());
        assertFalse(doubles.isCommutative());
        assertFalse(doubles.isPredefined());
        assertEquals("d(user, non-commutative)", doubles.toString());
        assertTrue(doubles.isDefinedFor(Datatype.DOUBLE));
        assertFalse(doubles.isDefinedFor(Datatype.FLOAT));
        assertFalse(doubles.isDefinedFor(Datatype.DOUBLE_PAIR));
        assertNull(doubles.intFunction());

        assertTrue(Op.user("b", true, (byte[] in, byte[] inout, int count) -> { }).isDefinedFor(Datatype.BYTE));
        assertTrue(Op.user("s", true, (short[] in, short[] inout, int count) -> { }).isDefinedFor(Datatype.SHORT));
        assertTrue(Op.user("c", true, (char[] in, char[] inout, int count) -> { }).isDefinedFor(Datatype.CHAR));
        assertTrue(Op.user("i", true, (int[] in, int[] inout, int count) -> { }).isDefinedFor(Datatype.INT));
        assertTrue(Op.user("l", true, (long[] in, long[] inout, int count) -> { }).isDefinedFor(Datatype.LONG));
        assertTrue(Op.user("f", true, (float[] in, float[] inout, int count) -> { }).isDefinedFor(Datatype.FLOAT));
        final Op raw = Op.user("r", true, (type, in, inout, count) -> { });
        assertTrue(raw.isCommutative());
        assertEquals("r(user)", raw.toString());
        for (final Datatype t : Datatype.values()) {
            assertEquals(Datatype.OBJECT != t, raw.isDefinedFor(t), t.name());
        }
    }

    @Test
    void shouldBuildUserOpWithSeveralTypes() {
        final Op.IntFunction ints = (in, inout, count) -> { };
        final Op.LongFunction longs = (in, inout, count) -> { };
        final Op.User op = Op.builder("multi", true).ints(ints).longs(longs).build();
        assertSame(ints, op.intFunction());
        assertSame(longs, op.longFunction());
        assertNull(op.segmentFunction());
        assertTrue(op.isDefinedFor(Datatype.INT) && op.isDefinedFor(Datatype.LONG));
        assertFalse(op.isDefinedFor(Datatype.SHORT));
    }

    @Test
    void shouldRefuseBadUserOpArguments() {
        final TuttiException blank = assertThrows(TuttiException.class, () -> Op.builder(" ", true));
        assertEquals(ErrorClass.ARG, blank.errorClass());
        assertEquals("Op.user: name=\" \", expected a non-blank name", blank.getMessage());
        assertEquals(ErrorClass.ARG, assertThrows(TuttiException.class,
            () -> Op.user(null, true, (int[] in, int[] inout, int count) -> { })).errorClass());
        final TuttiException nullFunction = assertThrows(TuttiException.class,
            () -> Op.user("x", true, (Op.DoubleFunction) null));
        assertEquals("Op.user(name=x): doubles function=null, expected a function", nullFunction.getMessage());
        final TuttiException twice = assertThrows(TuttiException.class,
            () -> Op.builder("x", true).ints((in, inout, count) -> { }).ints((in, inout, count) -> { }));
        assertEquals("Op.user(name=x): ints function given twice, expected at most one per type",
            twice.getMessage());
        assertEquals(ErrorClass.ARG, assertThrows(TuttiException.class,
            () -> Op.builder("x", true).build()).errorClass());
    }
}
