package mpi;

/**
 * The base type of a datatype: which Java array holds its elements, the code {@link Datatype#getType()} reports
 * (MPJ Express's values) and Tutti's element type for the wire. {@link #MARKER} is the base of {@code MPI.LB} and
 * {@code MPI.UB}, which hold no elements.
 */
enum Base {
    NULL(0, null, null, 0),
    BYTE(1, byte[].class, dev.tutti.Datatype.BYTE, 1),
    CHAR(2, char[].class, dev.tutti.Datatype.CHAR, 2),
    SHORT(3, short[].class, dev.tutti.Datatype.SHORT, 2),
    BOOLEAN(4, boolean[].class, dev.tutti.Datatype.BOOLEAN, 1),
    INT(5, int[].class, dev.tutti.Datatype.INT, 4),
    LONG(6, long[].class, dev.tutti.Datatype.LONG, 8),
    FLOAT(7, float[].class, dev.tutti.Datatype.FLOAT, 4),
    DOUBLE(8, double[].class, dev.tutti.Datatype.DOUBLE, 8),
    PACKED(9, mpjbuf.Buffer.class, dev.tutti.Datatype.BYTE, 1),
    MARKER(-1, null, null, 0),
    OBJECT(12, Object[].class, null, 0);

    /** The code of {@link Datatype#getType()}. */
    final int code;
    /** The class a buffer of this base must have, or null if none can. */
    final Class<?> arrayClass;
    /** Tutti's element type, or null (objects travel as object messages). */
    final dev.tutti.Datatype wire;
    /** Bytes per element on the wire (0 for objects and markers). */
    final int bytes;

    Base(final int code, final Class<?> arrayClass, final dev.tutti.Datatype wire, final int bytes) {
        this.code = code;
        this.arrayClass = arrayClass;
        this.wire = wire;
        this.bytes = bytes;
    }

    /** @return whether buffers of this base are Java arrays of primitives */
    boolean isPrimitive() {
        return null != wire && PACKED != this;
    }

    /** @return what an error message calls the expected buffer, e.g. {@code int[]} */
    String arrayName() {
        return OBJECT == this ? "Object[] (or another reference array)"
            : null == arrayClass ? "nothing (a datatype with no elements)" : arrayClass.getSimpleName();
    }

    /** @return the mpjbuf type of {@code mpjdev.Status#type}, or null */
    mpjbuf.Type statusType() {
        return switch (this) {
            case BYTE, PACKED -> mpjbuf.Type.BYTE;
            case CHAR -> mpjbuf.Type.CHAR;
            case SHORT -> mpjbuf.Type.SHORT;
            case BOOLEAN -> mpjbuf.Type.BOOLEAN;
            case INT -> mpjbuf.Type.INT;
            case LONG -> mpjbuf.Type.LONG;
            case FLOAT -> mpjbuf.Type.FLOAT;
            case DOUBLE -> mpjbuf.Type.DOUBLE;
            case OBJECT -> mpjbuf.Type.OBJECT;
            default -> null;
        };
    }

    /**
     * Makes an array for {@code n} elements of this base.
     *
     * @param n the length
     * @return the array
     */
    Object newArray(final int n) {
        return switch (this) {
            case BYTE, PACKED -> new byte[n];
            case CHAR -> new char[n];
            case SHORT -> new short[n];
            case BOOLEAN -> new boolean[n];
            case INT -> new int[n];
            case LONG -> new long[n];
            case FLOAT -> new float[n];
            case DOUBLE -> new double[n];
            case OBJECT -> new Object[n];
            default -> throw new MPIException("no buffer holds elements of base type " + this);
        };
    }
}
