package mpjbuf;

/**
 * The element type of a message's data, as {@code mpjdev.Status#type} reports it: one constant per Java element
 * type, plus {@link #OBJECT} (serialised objects).
 */
public enum Type {
    /** {@code byte} elements. */
    BYTE,
    /** {@code char} elements. */
    CHAR,
    /** {@code short} elements. */
    SHORT,
    /** {@code boolean} elements. */
    BOOLEAN,
    /** {@code int} elements. */
    INT,
    /** {@code long} elements. */
    LONG,
    /** {@code float} elements. */
    FLOAT,
    /** {@code double} elements. */
    DOUBLE,
    /** Serialised objects. */
    OBJECT
}
