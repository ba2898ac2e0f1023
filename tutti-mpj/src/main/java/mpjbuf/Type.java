package mpjbuf;

/**
 * The element type of a message's data, as {@code mpjdev.Status#type} reports it: one constant per Java element
 * type, plus {@link #OBJECT} (serialised objects). A section of a {@link Buffer} is of one of these types: the
 * {@code _DYNAMIC} ones hold any number of elements (they take no room of the buffer's capacity but their header),
 * the others count against the capacity.
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
    OBJECT,
    /** {@code byte} elements in a section of any length. */
    BYTE_DYNAMIC,
    /** {@code char} elements in a section of any length. */
    CHAR_DYNAMIC,
    /** {@code short} elements in a section of any length. */
    SHORT_DYNAMIC,
    /** {@code boolean} elements in a section of any length. */
    BOOLEAN_DYNAMIC,
    /** {@code int} elements in a section of any length. */
    INT_DYNAMIC,
    /** {@code long} elements in a section of any length. */
    LONG_DYNAMIC,
    /** {@code float} elements in a section of any length. */
    FLOAT_DYNAMIC,
    /** {@code double} elements in a section of any length. */
    DOUBLE_DYNAMIC
}
