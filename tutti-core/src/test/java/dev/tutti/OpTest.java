package dev.tutti;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
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

    /** An op's item: 1 for the predefined ones and commutative user ones, 0 (whole operands) else, or declared. */
    @Test
    void shouldTellTheElementsOfAnItem() {
        assertEquals(1, Op.SUM.itemElements());
        final Op.IntFunction f = (in, inout, count) -> { };
        assertEquals(1, Op.builder("c", true).ints(f).build().itemElements());
        assertEquals(0, Op.builder("n", false).ints(f).build().itemElements());
        final Op.User matrix = Op.builder("m", false).items(4).ints(f).build();
        assertEquals(4, matrix.itemElements());
        assertFalse(matrix.isCommutative());
        assertEquals("m(user, non-commutative, items of 4)", matrix.toString());
        assertEquals(3, Op.builder("s", true).items(3).ints(f).build().itemElements());
        assertEquals("s(user, items of 3)", Op.builder("s", true).items(3).ints(f).build().toString());
        assertEquals("e(user, non-commutative)", Op.builder("e", false).items(1).ints(f).build().toString());
        final TuttiException zero = assertThrows(TuttiException.class, () -> Op.builder("m", false).items(0));
        assertEquals(ErrorClass.ARG, zero.errorClass());
        assertEquals("Op.user(name=m): items=0, expected at least 1 element per item", zero.getMessage());
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

    /** reduceLocal: inout = in (op) inout, as a collective combines two contributions, with no communication. */
    @Test
    void shouldReduceLocally() {
        final int[] io = {1, 5, -3};
        Op.SUM.reduceLocal(Buf.of(new int[] {10, 20, 30}), Buf.of(io));
        assertArrayEquals(new int[] {11, 25, 27}, io);
        final double[] dio = {1.5, -2};
        Op.MAX.reduceLocal(Buf.of(new double[] {0.5, 7}), Buf.of(dio));
        assertArrayEquals(new double[] {1.5, 7}, dio);
        final int[] pairs = {4, 9, 2, 8};
        Op.MINLOC.reduceLocal(Buf.pairs(new int[] {4, 3, 5, 1}), Buf.pairs(pairs)); // ties: the lower index
        assertArrayEquals(new int[] {4, 3, 2, 8}, pairs);
        final boolean[] bio = {true, false, true};
        Op.LXOR.reduceLocal(Buf.of(new boolean[] {true, true, false}), Buf.of(bio));
        assertArrayEquals(new boolean[] {false, true, true}, bio);
        // a layout with gaps: ints 0 and 2 of every 3; the gaps of inout stay
        final Layout strided = Layout.vector(2, 1, 2, Layout.of(Datatype.INT));
        final int[] sio = {1, -7, 2, -7};
        Op.PROD.reduceLocal(Buf.of(new int[] {3, 0, 4, 0}, strided, 1), Buf.of(sio, strided, 1));
        assertArrayEquals(new int[] {3, -7, 8, -7}, sio);
        // a user operation, not commutative: in is the left operand
        final Op minus = Op.user("minus", false, (long[] in, long[] inout, int count) -> {
            for (int i = 0; i < count; i++) {
                inout[i] = in[i] - inout[i];
            }
        });
        final long[] lio = {1, 2};
        minus.reduceLocal(Buf.of(new long[] {10, 20}), Buf.of(lio));
        assertArrayEquals(new long[] {9, 18}, lio);
        Op.SUM.reduceLocal(Buf.of(new int[0]), Buf.of(new int[0])); // count 0: nothing to do
    }

    @Test
    void shouldRefuseBadReduceLocalArguments() {
        final Buf ints = Buf.of(new int[2]);
        assertEquals(ErrorClass.ARG, assertThrows(TuttiException.class, () -> Op.SUM.reduceLocal(null, ints))
            .errorClass());
        assertEquals(ErrorClass.ARG, assertThrows(TuttiException.class,
            () -> Op.SUM.reduceLocal(ints, Buf.IN_PLACE)).errorClass());
        final TuttiException type = assertThrows(TuttiException.class,
            () -> Op.SUM.reduceLocal(Buf.of(new long[2]), ints));
        assertEquals(ErrorClass.TYPE, type.errorClass());
        assertEquals("reduceLocal: in type=LONG, inout type=INT, expected one type", type.getMessage());
        assertEquals(ErrorClass.COUNT, assertThrows(TuttiException.class,
            () -> Op.SUM.reduceLocal(Buf.of(new int[3]), ints)).errorClass());
        assertEquals(ErrorClass.OP, assertThrows(TuttiException.class,
            () -> Op.LAND.reduceLocal(Buf.of(new float[1]), Buf.of(new float[1]))).errorClass());
    }
}
