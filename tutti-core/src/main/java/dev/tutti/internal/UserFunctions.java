package dev.tutti.internal;

import dev.tutti.Datatype;
import dev.tutti.ErrorClass;
import dev.tutti.Op;
import dev.tutti.TuttiException;
import dev.tutti.type.kernel.ByteKernels;
import dev.tutti.type.kernel.CharKernels;
import dev.tutti.type.kernel.DoubleKernels;
import dev.tutti.type.kernel.FloatKernels;
import dev.tutti.type.kernel.IntKernels;
import dev.tutti.type.kernel.LongKernels;
import dev.tutti.type.kernel.ShortKernels;

import java.lang.foreign.MemorySegment;

/**
 * The functions of a user operation ({@link Op.User}) below the api: the checks of giving them to
 * {@link Op#builder} and {@link Op.Builder}, which types they cover, and applying the one for a type to raw memory.
 * The api's {@code Op.User} and {@code Op.Builder} hold the functions and delegate here, so the public classes stay
 * the declaration of a user operation; the predefined operations' counterpart is {@link RawReduction}.
 *
 * <p>Implementation note. Stateless. {@link #apply} picks the typed function by the datatype and hands it to its
 * kernel class's user adapter ({@code reduceUser}) through a method reference held in a constant, so no lambda is
 * made per call. The adapter gives the function an operand's own array when the segment starts one of the element
 * type at index 0 and the vector is longer than a staging chunk, else a per-thread scratch array that it copies the
 * operand into (and {@code inout} back out of): at most a copy of {@code count} elements per operand each way (see
 * the notes of {@code type.kernel.Kernels}). A segment function gets the segments as they are.
 */
public final class UserFunctions {
    private static final ByteKernels.UserApply<Op.ByteFunction> BYTES = Op.ByteFunction::apply;
    private static final ShortKernels.UserApply<Op.ShortFunction> SHORTS = Op.ShortFunction::apply;
    private static final CharKernels.UserApply<Op.CharFunction> CHARS = Op.CharFunction::apply;
    private static final IntKernels.UserApply<Op.IntFunction> INTS = Op.IntFunction::apply;
    private static final LongKernels.UserApply<Op.LongFunction> LONGS = Op.LongFunction::apply;
    private static final FloatKernels.UserApply<Op.FloatFunction> FLOATS = Op.FloatFunction::apply;
    private static final DoubleKernels.UserApply<Op.DoubleFunction> DOUBLES = Op.DoubleFunction::apply;

    private UserFunctions() {
    }

    /**
     * Checks the name of a user operation, given to {@link Op#builder}.
     *
     * @param name the name
     * @throws TuttiException of class {@link ErrorClass#ARG} if the name is null or blank
     */
    public static void checkName(final String name) {
        if (null == name || name.isBlank()) {
            throw Errors.argument(ErrorClass.ARG, "Op.user", null, "name", null == name ? "null" : "\"" + name + "\"",
                "a non-blank name");
        }
    }

    /**
     * Checks a function given to a builder for one type, which may be given once.
     *
     * @param <F>     the function's type
     * @param name    the operation's name
     * @param current the function already given for the type, or null
     * @param f       the function given now
     * @param what    the builder's method, for the message ({@code "ints"})
     * @return {@code f}
     * @throws TuttiException of class {@link ErrorClass#ARG} if {@code f} is null or {@code current} is not
     */
    public static <F> F once(final String name, final F current, final F f, final String what) {
        if (null == f) {
            throw Errors.argument(ErrorClass.ARG, head(name), null, what + " function", null, "a function");
        }
        if (null != current) {
            throw Errors.expected(ErrorClass.ARG, head(name), null, what + " function given twice",
                "at most one per type");
        }
        return f;
    }

    /**
     * Checks the elements per item given to {@link Op.Builder#items}.
     *
     * @param name     the operation's name
     * @param elements the elements per item
     * @return {@code elements}
     * @throws TuttiException of class {@link ErrorClass#ARG} if {@code elements} is below 1
     */
    public static int checkItems(final String name, final int elements) {
        if (elements < 1) {
            throw Errors.argument(ErrorClass.ARG, head(name), null, "items", elements,
                "at least 1 element per item");
        }
        return elements;
    }

    /**
     * Checks that a builder was given a function before it builds.
     *
     * @param name the operation's name
     * @param any  whether any function was given
     * @throws TuttiException of class {@link ErrorClass#ARG} if none was
     */
    public static void checkAny(final String name, final boolean any) {
        if (!any) {
            throw Errors.expected(ErrorClass.ARG, head(name), null, "no function given",
                "at least one of bytes, shorts, chars, ints, longs, floats, doubles, segments");
        }
    }

    /** The head of a builder's messages, {@code Op.user(name=...)}: the op is named by its call. */
    private static String head(final String name) {
        return "Op.user(name=" + name + ")";
    }

    /**
     * Tells whether a user operation's functions cover a type: its own typed function, or else its segment function
     * for any type but {@link Datatype#OBJECT}.
     *
     * @param op   the operation
     * @param type the element type, or null
     * @return true if {@link #apply} has a function for {@code type}; false for null
     */
    public static boolean covers(final Op.User op, final Datatype type) {
        if (null == type || Datatype.OBJECT == type) {
            return false;
        }
        if (null != op.segmentFunction()) {
            return true;
        }
        return switch (type) {
            case BYTE -> null != op.byteFunction();
            case SHORT -> null != op.shortFunction();
            case CHAR -> null != op.charFunction();
            case INT -> null != op.intFunction();
            case LONG -> null != op.longFunction();
            case FLOAT -> null != op.floatFunction();
            case DOUBLE -> null != op.doubleFunction();
            default -> false;
        };
    }

    /**
     * Applies the function for {@code type}, else the segment function: {@code inout[i] = in[i] (op) inout[i]} for
     * {@code i < count}. The caller has checked that the functions cover the type ({@link #covers}) and the
     * segments ({@link RawReduction#checkSegments}), and {@code count > 0}.
     *
     * @param op    the operation
     * @param type  the element type
     * @param in    the left operand
     * @param inout the right operand, overwritten with the result
     * @param count the number of elements
     */
    public static void apply(final Op.User op, final Datatype type, final MemorySegment in,
        final MemorySegment inout, final int count) {
        if (Datatype.BYTE == type && null != op.byteFunction()) {
            ByteKernels.reduceUser(op.byteFunction(), BYTES, in, inout, count);
        } else if (Datatype.SHORT == type && null != op.shortFunction()) {
            ShortKernels.reduceUser(op.shortFunction(), SHORTS, in, inout, count);
        } else if (Datatype.CHAR == type && null != op.charFunction()) {
            CharKernels.reduceUser(op.charFunction(), CHARS, in, inout, count);
        } else if (Datatype.INT == type && null != op.intFunction()) {
            IntKernels.reduceUser(op.intFunction(), INTS, in, inout, count);
        } else if (Datatype.LONG == type && null != op.longFunction()) {
            LongKernels.reduceUser(op.longFunction(), LONGS, in, inout, count);
        } else if (Datatype.FLOAT == type && null != op.floatFunction()) {
            FloatKernels.reduceUser(op.floatFunction(), FLOATS, in, inout, count);
        } else if (Datatype.DOUBLE == type && null != op.doubleFunction()) {
            DoubleKernels.reduceUser(op.doubleFunction(), DOUBLES, in, inout, count);
        } else { // BOOLEAN, a pair, or a type without its own function: covers() found a segment function
            op.segmentFunction().apply(type, in, inout, count);
        }
    }
}
