package dev.tutti.internal;

import dev.tutti.ErrorClass;
import dev.tutti.TuttiException;

/**
 * Factories for the errors of a caller: an argument refused before anything is sent, and ranks whose arguments
 * disagree. Every message has one shape, decided here:
 *
 * <pre>
 *   op (where): arg=value[ problem], expected allowed          an argument, e.g.
 *   send (comm=WORLD, rank=0): dest=2 is out of range, expected 0..1 or PROC_NULL
 *   op (where): rank=peer sent what-it-sent but this rank what-it-did: why     ranks that disagree
 * </pre>
 *
 * <p>{@code where} names the communicator (its {@code describe()}) or whatever else locates the call; it is null
 * when the operation alone locates it (a static factory such as {@code Buf.of}), and the message then begins
 * {@code op: }. What goes wrong below the caller (peers, timeouts, I/O, protocol) is in {@link Failures}.
 *
 * <p>Code below the operations (parsers, constructors, the settings) refuses a value with {@link #refused}, an
 * {@link IllegalArgumentException} in the same {@code what, expected allowed} shape without the head; the operation
 * that called it, which knows its name and place, passes it on with {@link #argument(String, String,
 * IllegalArgumentException)}.
 */
public final class Errors {
    private Errors() {
    }

    /**
     * The head of every message: {@code op (where)}, or {@code op} when {@code where} is null.
     *
     * @param op    the operation
     * @param where where it ran, or null
     * @return the head, without the colon
     */
    public static String at(final String op, final String where) {
        return null == where ? op : op + " (" + where + ")";
    }

    /**
     * An argument whose value is refused: {@code op (where): arg=value, expected allowed}.
     *
     * @param errorClass the class
     * @param op         the operation
     * @param where      where it ran, or null
     * @param arg        the argument name
     * @param value      its value
     * @param allowed    what is allowed, e.g. {@code ">= 0"}
     * @return the exception
     */
    public static TuttiException argument(final ErrorClass errorClass, final String op, final String where,
        final String arg, final Object value, final String allowed) {
        return expected(errorClass, op, where, arg + "=" + value, allowed);
    }

    /**
     * Something the caller passed that is refused, already worded ({@code arg=value is odd}), and what is allowed:
     * {@code op (where): what, expected allowed}.
     *
     * @param errorClass the class
     * @param op         the operation
     * @param where      where it ran, or null
     * @param what       the argument, its value and what is wrong with it
     * @param allowed    what is allowed
     * @return the exception
     */
    public static TuttiException expected(final ErrorClass errorClass, final String op, final String where,
        final String what, final String allowed) {
        return invalid(errorClass, op, where, what + ", expected " + allowed);
    }

    /**
     * An argument a lower-level parser refused (a host:port, a secret, an algorithm name), whose message is already
     * in {@code arg=value, expected ...} form: {@code op (where): message}.
     *
     * @param op    the operation
     * @param where where it ran, or null
     * @param e     the parser's refusal
     * @return the exception, of class {@link ErrorClass#ARG}
     */
    public static TuttiException argument(final String op, final String where, final IllegalArgumentException e) {
        return new TuttiException(ErrorClass.ARG, at(op, where) + ": " + e.getMessage(), e);
    }

    /**
     * A generic invalid argument, or a call the communicator's state does not allow.
     *
     * @param errorClass the class
     * @param op         the operation
     * @param where      where it ran, or null
     * @param detail     what is wrong, in {@code key=value, expected ...} form where there is a value
     * @return the exception
     */
    public static TuttiException invalid(final ErrorClass errorClass, final String op, final String where,
        final String detail) {
        return new TuttiException(errorClass, at(op, where) + ": " + detail);
    }

    /**
     * A rank argument outside the group.
     *
     * @param op      the operation
     * @param where   the communicator description
     * @param arg     the argument name
     * @param value   its value
     * @param size    the group size
     * @param allowed extra allowed values, e.g. {@code " or PROC_NULL"}
     * @return the exception
     */
    public static TuttiException rank(final String op, final String where, final String arg, final int value,
        final int size, final String allowed) {
        return outOfRange(ErrorClass.RANK, op, where, arg, value, size - 1, allowed);
    }

    /**
     * A root argument outside the group.
     *
     * @param op    the operation
     * @param where the communicator description
     * @param value the root
     * @param size  the group size
     * @return the exception
     */
    public static TuttiException root(final String op, final String where, final int value, final int size) {
        return outOfRange(ErrorClass.ROOT, op, where, "root", value, size - 1, "");
    }

    /**
     * A tag argument outside the allowed range.
     *
     * @param op      the operation
     * @param where   the communicator description
     * @param value   the tag
     * @param upper   the largest allowed tag
     * @param allowed extra allowed values, e.g. {@code " or ANY_TAG"}
     * @return the exception
     */
    public static TuttiException tag(final String op, final String where, final int value, final int upper,
        final String allowed) {
        return outOfRange(ErrorClass.TAG, op, where, "tag", value, upper, allowed);
    }

    private static TuttiException outOfRange(final ErrorClass errorClass, final String op, final String where,
        final String arg, final long value, final long upper, final String allowed) {
        return expected(errorClass, op, where, arg + "=" + value + " is out of range", "0.." + upper + allowed);
    }

    /**
     * A null buffer argument.
     *
     * @param op    the operation
     * @param where the communicator description
     * @param arg   the argument name
     * @return the exception
     */
    public static TuttiException nullArg(final String op, final String where, final String arg) {
        return argument(ErrorClass.BUFFER, op, where, arg, null, "a buffer");
    }

    /**
     * {@code Buf.IN_PLACE} where a real buffer is needed (every point-to-point buffer, and collective arguments
     * that MPI does not let be in place).
     *
     * @param op    the operation
     * @param where the communicator description
     * @param arg   the argument name
     * @param uses  where in-place is allowed instead, for the message (e.g. "only as the send buffer of a
     *              collective")
     * @return the exception
     */
    public static TuttiException inPlace(final String op, final String where, final String arg, final String uses) {
        return argument(ErrorClass.BUFFER, op, where, arg, "IN_PLACE", "a buffer (IN_PLACE is " + uses + ")");
    }

    /**
     * A count argument that is negative or larger than its buffer.
     *
     * @param op       the operation
     * @param where    the communicator description
     * @param arg      the argument name
     * @param value    the count
     * @param capacity the buffer's element count
     * @return the exception
     */
    public static TuttiException count(final String op, final String where, final String arg, final long value,
        final long capacity) {
        return expected(ErrorClass.COUNT, op, where, arg + "=" + value + " does not fit",
            "0.." + capacity + " (the buffer's element count)");
    }

    /**
     * Ranks of one collective call whose arguments disagree, noticed when a peer's message arrives:
     * {@code op (where): rank=peer sent <sent> but this rank <here>: <why>}.
     *
     * @param errorClass the class
     * @param op         the operation
     * @param where      the communicator description
     * @param peer       the rank (in the communicator) whose message disagrees
     * @param sent       what it sent, e.g. {@code "count=4 (bytes=16)"}
     * @param here       what this rank did, e.g. {@code "expected count=8 (bytes=32) of type=INT"}
     * @param why        the likely cause, e.g. {@code "the ranks passed different counts or types"}
     * @return the exception
     */
    public static TuttiException mismatch(final ErrorClass errorClass, final String op, final String where,
        final int peer, final String sent, final String here, final String why) {
        return invalid(errorClass, op, where, "rank=" + peer + " sent " + sent + " but this rank " + here + ": "
            + why);
    }

    /**
     * A call whose peer sent another number of bytes than this rank expects from it (on any road).
     *
     * @param op       the operation
     * @param where    the communicator's description
     * @param peer     the peer's rank in it
     * @param got      the bytes the peer sent
     * @param expected the bytes this rank expects from it
     * @param type     the element type of this rank's buffer
     * @return the exception, of class {@link ErrorClass#COUNT}
     */
    public static TuttiException countMismatch(final String op, final String where, final int peer, final long got,
        final long expected, final dev.tutti.Datatype type) {
        final long size = type.sizeBytes();
        return mismatch(ErrorClass.COUNT, op, where, peer, "count=" + got / size + " (bytes=" + got + ")",
            "expected count=" + expected / size + " (bytes=" + expected + ") of type=" + type,
            "the ranks passed different counts or types");
    }

    /**
     * A call whose peer sent a block of another type than this rank receives it as (neither is {@code BYTE}).
     *
     * @param op       the operation
     * @param where    the communicator description
     * @param peer     the rank (in the communicator) that sent the block
     * @param sent     the block's type as its sender passed it
     * @param expected the type this rank passed for it
     * @return the exception
     */
    public static TuttiException typeMismatch(final String op, final String where, final int peer,
        final dev.tutti.Datatype sent, final dev.tutti.Datatype expected) {
        return mismatch(ErrorClass.TYPE, op, where, peer, "type=" + sent, "expected type=" + expected,
            "the ranks passed different types");
    }

    /**
     * A point-to-point message that does not fit the receive that matched it:
     * {@code op (where): message from rank=source tag=tag has <has>, <clash>}.
     *
     * @param errorClass the class
     * @param op         the operation
     * @param where      the communicator description
     * @param source     the sender's rank in the communicator
     * @param tag        the message's tag
     * @param has        what the message has, e.g. {@code "type=DOUBLE"}
     * @param clash      what the receive has instead, e.g. {@code "the receive expects type=LONG"}
     * @return the exception
     */
    public static TuttiException received(final ErrorClass errorClass, final String op, final String where,
        final int source, final int tag, final String has, final String clash) {
        return invalid(errorClass, op, where, "message from rank=" + source + " tag=" + tag + " has " + has + ", "
            + clash);
    }

    /**
     * A value refused below any operation: {@code what, expected allowed}.
     *
     * @param what    the value and what is wrong with it, e.g. {@code "TUTTI_RENDEZVOUS=x"}
     * @param allowed what is allowed, e.g. {@code "host:port[,host:port...]"}
     * @return the exception
     */
    public static IllegalArgumentException refused(final String what, final String allowed) {
        return new IllegalArgumentException(what + ", expected " + allowed);
    }

    /**
     * A value refused below any operation, with the failure that showed it: {@code what, expected allowed}.
     *
     * @param what    the value and what is wrong with it
     * @param allowed what is allowed
     * @param cause   the parser's failure
     * @return the exception
     */
    public static IllegalArgumentException refused(final String what, final String allowed, final Throwable cause) {
        return new IllegalArgumentException(what + ", expected " + allowed, cause);
    }

    /**
     * A value refused below any operation where no one form is allowed instead: {@code what}.
     *
     * @param what the value and what is wrong with it, e.g. {@code "world rank 5 is not a member"}
     * @return the exception
     */
    public static IllegalArgumentException refused(final String what) {
        return new IllegalArgumentException(what);
    }

    /**
     * A value refused below any operation, with the failure that showed it: {@code what}.
     *
     * @param what  the value and what is wrong with it, e.g. {@code "setting tutti.x=1s is not an integer"}
     * @param cause the parser's failure
     * @return the exception
     */
    public static IllegalArgumentException refused(final String what, final Throwable cause) {
        return new IllegalArgumentException(what, cause);
    }
}
