package dev.tutti.channel;

import dev.tutti.Buf;
import dev.tutti.Datatype;

/** The arrays behind a channel's buffers, one per buffer, of the element type's primitive array. */
final class Storage {
    private Storage() {
    }

    static boolean supports(final Datatype type) {
        return switch (type) {
            case BYTE, BOOLEAN, CHAR, SHORT, INT, FLOAT, LONG, DOUBLE -> true;
            default -> false;
        };
    }

    static Object allocate(final Datatype type, final int count) {
        return switch (type) {
            case BYTE -> new byte[count];
            case BOOLEAN -> new boolean[count];
            case CHAR -> new char[count];
            case SHORT -> new short[count];
            case INT -> new int[count];
            case FLOAT -> new float[count];
            case LONG -> new long[count];
            case DOUBLE -> new double[count];
            default -> throw new IllegalArgumentException(type.name()); // refused by AlltoallChannel first
        };
    }

    static Buf buf(final Object array) {
        return switch (array) {
            case byte[] a -> Buf.of(a);
            case boolean[] a -> Buf.of(a);
            case char[] a -> Buf.of(a);
            case short[] a -> Buf.of(a);
            case int[] a -> Buf.of(a);
            case float[] a -> Buf.of(a);
            case long[] a -> Buf.of(a);
            case double[] a -> Buf.of(a);
            default -> throw new IllegalArgumentException(array.getClass().getName());
        };
    }
}
