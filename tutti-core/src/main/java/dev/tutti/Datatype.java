package dev.tutti;

import dev.tutti.internal.Failures;

/**
 * The primitive element types Tutti moves and reduces. A message's type signature is its datatype and count;
 * sender and receiver must agree on it (a {@link #BYTE} receive accepts any typed message, as raw bytes).
 */
public enum Datatype {
    /** 8-bit signed integer, {@code byte}. */
    BYTE(1),
    /** {@code boolean}, one byte per element on the wire (0 or 1). */
    BOOLEAN(1),
    /** 16-bit unsigned character, {@code char}. */
    CHAR(2),
    /** 16-bit signed integer, {@code short}. */
    SHORT(2),
    /** 32-bit signed integer, {@code int}. */
    INT(4),
    /** 32-bit IEEE 754 float, {@code float}. */
    FLOAT(4),
    /** 64-bit signed integer, {@code long}. */
    LONG(8),
    /** 64-bit IEEE 754 float, {@code double}. */
    DOUBLE(8),
    /** A serialized Java object (object messages); never used with buffers. */
    OBJECT(1),
    /**
     * A pair of {@code int}s (value, index), 8 bytes, like {@code MPI_2INT}: the element type of
     * {@link Op#MINLOC}/{@link Op#MAXLOC} over an {@code int[]} holding value, index, value, index, ...
     * (see {@link Buf#pairs(int[])}).
     */
    INT_PAIR(8),
    /** A pair of {@code long}s (value, index), 16 bytes; see {@link #INT_PAIR} and {@link Buf#pairs(long[])}. */
    LONG_PAIR(16),
    /**
     * A pair of {@code float}s (value, index), 8 bytes, like {@code MPI_2REAL}: the index is stored as a float,
     * exact up to 2^24; see {@link #INT_PAIR} and {@link Buf#pairs(float[])}.
     */
    FLOAT_PAIR(8),
    /**
     * A pair of {@code double}s (value, index), 16 bytes, like {@code MPI_2DOUBLE_PRECISION}: the index is stored
     * as a double, exact up to 2^53; see {@link #INT_PAIR} and {@link Buf#pairs(double[])}.
     */
    DOUBLE_PAIR(16);

    private static final Datatype[] VALUES = values();

    private final int sizeBytes;

    Datatype(final int sizeBytes) {
        this.sizeBytes = sizeBytes;
    }

    /**
     * Returns the size of one element on the wire.
     *
     * @return bytes per element
     */
    public int sizeBytes() {
        return sizeBytes;
    }

    /**
     * Returns the datatype with the given {@link #ordinal()}; used to decode wire headers.
     *
     * @param code an ordinal
     * @return the datatype
     * @throws TuttiException of class {@link ErrorClass#INTERN} if the code is not an ordinal
     */
    public static Datatype fromCode(final int code) {
        if (code < 0 || code >= VALUES.length) {
            throw Failures.protocol("Datatype.fromCode", null, "code=" + code + ", expected 0.." + (VALUES.length - 1));
        }
        return VALUES[code];
    }
}
