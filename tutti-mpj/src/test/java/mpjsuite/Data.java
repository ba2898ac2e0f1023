package mpjsuite;

import mpi.Datatype;
import mpi.MPI;

import java.lang.reflect.Array;

/** Arrays of every basic type with values that tell elements and senders apart. */
final class Data {
    /** The basic datatypes, in the order of {@link #array}'s element types. */
    static final String[] NAMES = {"BYTE", "CHAR", "SHORT", "BOOLEAN", "INT", "LONG", "FLOAT", "DOUBLE", "OBJECT"};

    private Data() {
    }

    static Datatype type(final int t) {
        return new Datatype[] {MPI.BYTE, MPI.CHAR, MPI.SHORT, MPI.BOOLEAN, MPI.INT, MPI.LONG, MPI.FLOAT, MPI.DOUBLE,
            MPI.OBJECT}[t];
    }

    /** @return an array of type {@code t} whose element i holds a value made of {@code seed} and i */
    static Object array(final int t, final int length, final int seed) {
        final Object a = switch (t) {
            case 0 -> new byte[length];
            case 1 -> new char[length];
            case 2 -> new short[length];
            case 3 -> new boolean[length];
            case 4 -> new int[length];
            case 5 -> new long[length];
            case 6 -> new float[length];
            case 7 -> new double[length];
            default -> new Object[length];
        };
        for (int i = 0; i < length; i++) {
            Array.set(a, i, value(t, seed, i));
        }
        return a;
    }

    /** @return an array of type {@code t} filled with a value no {@link #value} has */
    static Object blank(final int t, final int length) {
        return array(t, length, -1);
    }

    static Object value(final int t, final int seed, final int i) {
        final int v = seed < 0 ? 0 : 1 + seed * 31 + i;
        return switch (t) {
            case 0 -> (byte) v;
            case 1 -> (char) ('A' + v);
            case 2 -> (short) v;
            case 3 -> seed >= 0 && 0 == (seed + i) % 2;
            case 4 -> v;
            case 5 -> (long) v << 33 | v;
            case 6 -> v + 0.5f;
            case 7 -> v + 0.25;
            default -> seed < 0 ? null : "s" + seed + "." + i;
        };
    }

    /** Checks that {@code a[from..from+n)} holds the values of {@code seed} from index {@code first} on. */
    static void expect(final int t, final Object a, final int from, final int n, final int seed, final int first,
        final String what) {
        for (int i = 0; i < n; i++) {
            Check.equal(value(t, seed, first + i), Array.get(a, from + i), what + " " + NAMES[t] + "[" + (from + i)
                + "]");
        }
    }

    /** Checks that {@code a[from..from+n)} is still blank. */
    static void untouched(final int t, final Object a, final int from, final int n, final String what) {
        for (int i = from; i < from + n; i++) {
            Check.equal(value(t, -1, i), Array.get(a, i), what + " untouched " + NAMES[t] + "[" + i + "]");
        }
    }
}
