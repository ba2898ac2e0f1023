package dev.tutti.type;

import dev.tutti.Datatype;
import dev.tutti.internal.Errors;

/**
 * The layout of the 32-bit type code every message carries. Transports move it as an opaque {@code int} (inproc in
 * the message object, shm and tcp in their headers); only the point-to-point and collective layers read it. A
 * point-to-point message carries the plain {@link Datatype} ordinal. A collective message also carries a header
 * naming the call it belongs to (kind and root(s)), so that a receive can refuse a message sent as part of a
 * different collective, or with a different root, instead of taking its bytes.
 *
 * <pre>
 *  31                   23 22                   14 13 12           8 7               0
 * +-----------------------+-----------------------+--+--------------+-----------------+
 * |        root 2         |        root 1         |I |     kind     |    datatype     |
 * +-----------------------+-----------------------+--+--------------+-----------------+
 *  I = 0 (intracommunicator): bits 14-31 are one root field of 18 bits
 * </pre>
 *
 * <ul>
 * <li>datatype: the {@link Datatype} ordinal of the payload.</li>
 * <li>kind: 0 for a point-to-point message (no header); a collective's kind id, 1..31, otherwise (the collective
 *     layer assigns ids).</li>
 * <li>I: set for an intercommunicator collective, whose header holds two roots, one per group (root 1 for the
 *     group that comes first in the union order, root 2 for the other), each in 9 bits. Clear for an
 *     intracommunicator collective: one root in 18 bits.</li>
 * <li>root field: 0 for no root (or, for an intercommunicator, a root this rank does not know: the root's group
 *     peers in a one-way rooted collective), else {@code 1 + (root mod M)} with {@code M = 2^bits - 1}: roots
 *     below M (262,143 and 511) are carried exactly; larger roots are folded, so two roots that differ by a
 *     multiple of M are not told apart.</li>
 * </ul>
 *
 * <p>Two headers agree ({@link #headersAgree}) when kind and I are equal and every root field is equal, where an
 * intercommunicator's unknown root (0) agrees with any root. Stateless.
 */
public final class TypeCode {
    /** Bits of the datatype field. */
    public static final int DATATYPE_MASK = 0xFF;
    /** Bits of the header: everything but the datatype. */
    public static final int HEADER_MASK = ~DATATYPE_MASK;
    /** The largest kind id. */
    public static final int MAX_KIND = 31;
    /** Roots of an intracommunicator header below this are carried exactly: 2^18 - 1. */
    public static final int INTRA_ROOT_MODULUS = (1 << 18) - 1;
    /** Roots of an intercommunicator header below this are carried exactly: 2^9 - 1. */
    public static final int INTER_ROOT_MODULUS = (1 << 9) - 1;

    private static final int KIND_SHIFT = 8;
    private static final int KIND_MASK = 0x1F;
    private static final int INTER_BIT = 1 << 13;
    private static final int ROOT1_SHIFT = 14;
    private static final int ROOT2_SHIFT = 23;
    private static final int INTER_FIELD_MASK = 0x1FF;
    private static final int KIND_AND_FORM_MASK = KIND_MASK << KIND_SHIFT | INTER_BIT;

    private TypeCode() {
    }

    /**
     * Returns the header of an intracommunicator collective message.
     *
     * @param kind the kind id, 1..{@link #MAX_KIND}
     * @param root the root, or a negative value for none
     * @return the header bits (datatype field 0)
     */
    public static int intraHeader(final int kind, final int root) {
        return kindBits(kind) | field(root, INTRA_ROOT_MODULUS) << ROOT1_SHIFT;
    }

    /**
     * Returns the header of an intercommunicator collective message.
     *
     * @param kind  the kind id, 1..{@link #MAX_KIND}
     * @param root1 the root of the group first in the union order, or a negative value for none or unknown
     * @param root2 the root of the other group, or a negative value for none or unknown
     * @return the header bits (datatype field 0)
     */
    public static int interHeader(final int kind, final int root1, final int root2) {
        return kindBits(kind) | INTER_BIT | field(root1, INTER_ROOT_MODULUS) << ROOT1_SHIFT
            | field(root2, INTER_ROOT_MODULUS) << ROOT2_SHIFT;
    }

    private static int kindBits(final int kind) {
        if (kind < 1 || kind > MAX_KIND) {
            throw Errors.refused("kind=" + kind, "1.." + MAX_KIND);
        }
        return kind << KIND_SHIFT;
    }

    private static int field(final int root, final int modulus) {
        return root < 0 ? 0 : 1 + root % modulus;
    }

    /**
     * @param code a type code
     * @return its datatype
     * @throws dev.tutti.TuttiException if the datatype field holds no datatype (a corrupt code)
     */
    public static Datatype datatype(final int code) {
        return Datatype.fromCode(code & DATATYPE_MASK);
    }

    /**
     * @param code a type code
     * @return its header bits, 0 for a point-to-point message
     */
    public static int header(final int code) {
        return code & HEADER_MASK;
    }

    /**
     * @param code a type code
     * @return its kind id, 0 for a point-to-point message
     */
    public static int kind(final int code) {
        return code >>> KIND_SHIFT & KIND_MASK;
    }

    /**
     * @param code a type code
     * @return whether its header is an intercommunicator's (two roots)
     */
    public static boolean isInter(final int code) {
        return 0 != (code & INTER_BIT);
    }

    /**
     * Returns a root of the header: the one root of an intracommunicator header, or one of an intercommunicator's.
     *
     * @param code  a type code
     * @param which 1 or 2 (an intracommunicator header has only root 1)
     * @return the root (mod the modulus of its field), or -1 for none or unknown
     */
    public static int root(final int code, final int which) {
        final int f;
        if (isInter(code)) {
            f = code >>> (1 == which ? ROOT1_SHIFT : ROOT2_SHIFT) & INTER_FIELD_MASK;
        } else {
            f = 1 == which ? code >>> ROOT1_SHIFT : 0;
        }
        return f - 1;
    }

    /**
     * Returns whether a message sent with code {@code sent} belongs to the call a receive expecting header
     * {@code expected} is part of (datatype fields are not compared).
     *
     * @param sent     the message's type code
     * @param expected the receive's header (or whole code)
     * @return true if the headers agree (see the class notes)
     */
    public static boolean headersAgree(final int sent, final int expected) {
        final int diff = (sent ^ expected) & HEADER_MASK;
        if (0 == diff) {
            return true;
        }
        if (0 != (diff & KIND_AND_FORM_MASK) || !isInter(expected)) {
            return false;
        }
        return fieldsAgree(sent >>> ROOT1_SHIFT & INTER_FIELD_MASK, expected >>> ROOT1_SHIFT & INTER_FIELD_MASK)
            && fieldsAgree(sent >>> ROOT2_SHIFT & INTER_FIELD_MASK, expected >>> ROOT2_SHIFT & INTER_FIELD_MASK);
    }

    private static boolean fieldsAgree(final int a, final int b) {
        return a == b || 0 == a || 0 == b;
    }

    /**
     * Describes a code for the point-to-point layer's messages, which cannot name collectives: the datatype, and
     * the header's fields if there is one.
     *
     * @param code a type code
     * @return e.g. {@code type=INT} or {@code type=INT (collective header kind=2 root=0)}
     */
    public static String describe(final int code) {
        final int t = code & DATATYPE_MASK;
        final String type = t < Datatype.values().length ? "type=" + Datatype.values()[t] : "type code=" + t;
        if (0 == header(code)) {
            return type;
        }
        return type + " (collective header kind=" + kind(code) + (isInter(code) ? " roots=" + root(code, 1) + ","
            + root(code, 2) : " root=" + root(code, 1)) + ")";
    }
}
