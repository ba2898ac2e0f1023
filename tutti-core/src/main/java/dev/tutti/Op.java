package dev.tutti;

import dev.tutti.internal.OpReduction;
import dev.tutti.internal.RawReduction;
import dev.tutti.internal.UserFunctions;

import java.lang.foreign.MemorySegment;

/**
 * A reduction operation for reduce, allreduce, scan and the other reducing collectives: the twelve predefined
 * operations of MPI ({@link #SUM} ... {@link #MAXLOC}) or a user-defined one.
 *
 * <p>Every operation combines the elements of two buffers pairwise, {@code inout[i] = in[i] (op) inout[i]}, where
 * {@code in} holds the contribution of the lower-ranked process. Every operation is assumed associative; a
 * collective may bracket the combination of the ranks' contributions in any way. Only commutative operations may
 * also be reordered, so a non-commutative user operation is always applied in rank order.
 *
 * <p>{@code Op} is a sealed interface with two kinds, so that code can switch over them:
 * {@link Predefined} (an enum, the predefined operations) and {@link User} (built by {@link #user} or
 * {@link #builder}). Two ops are equal only if they are the same object.
 *
 * <h2>Which operation is defined for which type</h2>
 * <p>The rules are MPI's, with Java's own types in the roles of MPI's "C integer", "floating point" and "logical":
 * <table>
 * <caption>Predefined operations and the datatypes they accept</caption>
 * <tr><th>op</th><th>types</th></tr>
 * <tr><td>SUM, PROD, MIN, MAX</td><td>BYTE, SHORT, CHAR, INT, LONG, FLOAT, DOUBLE</td></tr>
 * <tr><td>LAND, LOR, LXOR</td><td>BOOLEAN, BYTE, SHORT, CHAR, INT, LONG (nonzero is true, results are 0 or 1)</td></tr>
 * <tr><td>BAND, BOR, BXOR</td><td>BOOLEAN, BYTE, SHORT, CHAR, INT, LONG</td></tr>
 * <tr><td>MINLOC, MAXLOC</td><td>INT_PAIR, LONG_PAIR, FLOAT_PAIR, DOUBLE_PAIR</td></tr>
 * </table>
 * Any other combination (for example {@code MINLOC} on {@code DOUBLE}, or {@code LAND} on {@code FLOAT}) is
 * refused before anything is sent, with a {@link TuttiException} of class {@link ErrorClass#OP}.
 *
 * <p>Semantics in detail:
 * <ul>
 * <li>Integer arithmetic wraps around, as Java's does ({@code SUM} of two {@code Integer.MAX_VALUE} is
 *     {@code -2}); {@code BYTE} and {@code SHORT} are signed. {@code CHAR} is a 16-bit <em>unsigned</em> integer,
 *     as in Java (MPI's {@code MPI_CHAR} is a printable character and not arithmetic, but Java's {@code char} is an
 *     integral type and the only unsigned one, so Tutti reduces it like {@code MPI_UNSIGNED_SHORT}).</li>
 * <li>Floating point: each element is combined with one IEEE operation, {@code in[i] + inout[i]}; nothing is
 *     reassociated inside a call. {@code MIN} and {@code MAX} follow {@link Math#min(double, double)}: a NaN
 *     operand gives NaN (which NaN payload is unspecified), and {@code -0.0} is smaller than {@code 0.0}.</li>
 * <li>{@code BOOLEAN} elements travel as one byte, 0 or 1. On them the bitwise operations equal the logical
 *     ones ({@code BAND} is {@code LAND}, ...), and results are always 0 or 1.</li>
 * <li>{@code MINLOC}/{@code MAXLOC} work on (value, index) pairs and return the smallest/largest value with its
 *     index; when values tie, the <em>lower</em> index wins. For float and double pairs values are ordered as by
 *     {@link Math#min(double, double)}: a NaN value wins (in {@code MINLOC} and in {@code MAXLOC}, so that NaN
 *     propagates as in {@code MIN}/{@code MAX}; all NaNs tie), and {@code -0.0 < 0.0}. Indexes are compared as
 *     numbers of the pair's type.</li>
 * </ul>
 *
 * <h2>User-defined operations</h2>
 * <p>A user operation is a function over arrays, {@code f.apply(in, inout, count)}, that must set
 * {@code inout[i] = in[i] (op) inout[i]} for the first {@code count} elements, where {@code in} is the left
 * operand. It is declared commutative or not. A non-commutative operation is applied to whole operands in rank
 * order, never to a part of a vector, so it may group elements freely (for example treat every 4 doubles as a 2x2
 * matrix) as long as the count is a multiple of the group; a commutative one may be applied to any run of whole
 * elements (algorithms that split a vector among the ranks do), so it must not group them. An operation that combines
 * items of k consecutive elements and nothing coarser may say so ({@link Builder#items}): it is then applied to runs
 * of whole items only, commutative or not, and a large reduction among the ranks of one host may split its vector at
 * item boundaries (each share still folded in rank order), which an operation applied to whole operands never allows:
 * <pre>{@code
 * Op absMax = Op.user("absMax", true, (double[] in, double[] inout, int count) -> {
 *     for (int i = 0; i < count; i++) {
 *         inout[i] = Math.max(Math.abs(in[i]), Math.abs(inout[i]));
 *     }
 * });
 * Op both = Op.builder("absMax", true).ints(intFunction).doubles(doubleFunction).build();
 * }</pre>
 * Because the overloads of {@link #user} differ only in the function's parameter types, a lambda passed to
 * {@code user} must declare its parameter types (or be a method reference); {@link #builder} has a method per
 * type and takes untyped lambdas. The arrays handed to the function may be longer than {@code count} (they may be
 * reused scratch arrays, or the caller's own array when it starts at index 0): use {@code count}, not
 * {@code length}. The function must not keep references to the arrays after it returns. An exception thrown by
 * the function propagates out of the collective unchanged.
 *
 * <p>A function for a primitive type applies to that {@link Datatype} only. For {@code BOOLEAN}, the pair types,
 * or any type without its own function, give a {@link SegmentFunction}, which receives the raw memory in native
 * byte order. Applying a user operation to a type it has no function for is refused with
 * {@link ErrorClass#OP}.
 */
// "overloads": the user(...) overloads differ only in the function type, on purpose (see "User-defined operations")
@SuppressWarnings("overloads")
public sealed interface Op permits Op.Predefined, Op.User {
    /** Sum; numeric types. {@code MPI_SUM}. */
    Op SUM = Predefined.SUM;
    /** Product; numeric types. {@code MPI_PROD}. */
    Op PROD = Predefined.PROD;
    /** Minimum; numeric types. {@code MPI_MIN}. */
    Op MIN = Predefined.MIN;
    /** Maximum; numeric types. {@code MPI_MAX}. */
    Op MAX = Predefined.MAX;
    /** Logical and; boolean and integer types, nonzero is true. {@code MPI_LAND}. */
    Op LAND = Predefined.LAND;
    /** Logical or; boolean and integer types, nonzero is true. {@code MPI_LOR}. */
    Op LOR = Predefined.LOR;
    /** Logical exclusive or; boolean and integer types, nonzero is true. {@code MPI_LXOR}. */
    Op LXOR = Predefined.LXOR;
    /** Bitwise and; boolean and integer types. {@code MPI_BAND}. */
    Op BAND = Predefined.BAND;
    /** Bitwise or; boolean and integer types. {@code MPI_BOR}. */
    Op BOR = Predefined.BOR;
    /** Bitwise exclusive or; boolean and integer types. {@code MPI_BXOR}. */
    Op BXOR = Predefined.BXOR;
    /** Minimum value and its (lowest) index; pair types. {@code MPI_MINLOC}. */
    Op MINLOC = Predefined.MINLOC;
    /** Maximum value and its (lowest) index; pair types. {@code MPI_MAXLOC}. */
    Op MAXLOC = Predefined.MAXLOC;

    /**
     * Returns the operation's name: the constant's name for a predefined operation, the given name for a user one.
     *
     * @return the name, never null
     */
    String name();

    /**
     * Tells whether the operation is commutative. Every predefined operation is; a user operation is what it was
     * declared to be.
     *
     * @return true if {@code a (op) b == b (op) a}
     */
    boolean isCommutative();

    /**
     * Returns how many consecutive elements make one item of this operation, the unit a collective may split a vector
     * into: 1 for a predefined operation; for a user operation the count given to {@link Builder#items}, else 1 if it
     * is commutative and 0 if not (it is applied to whole operands only, see {@link Op}).
     *
     * @return elements per item, or 0 for whole operands only
     */
    int itemElements();

    /**
     * Tells whether this is one of the twelve predefined operations.
     *
     * @return true for a {@link Predefined} op
     */
    boolean isPredefined();

    /**
     * Tells whether the operation can reduce elements of the given type (see the table in {@link Op}).
     *
     * @param type the element type
     * @return true if a reduction over {@code type} with this operation is allowed; false for null
     */
    boolean isDefinedFor(Datatype type);

    /**
     * Applies this operation locally, with no communication (MPI_Reduce_local): {@code inout[i] = in[i] (op)
     * inout[i]} for every element, {@code in} being the left operand, exactly as a collective combines two
     * contributions. The buffers must have the same element type and count; buffers of a {@link Layout} or of
     * booleans are gathered, reduced and scattered back ({@code inout}'s gaps untouched).
     *
     * @param in    the left operand, not modified
     * @param inout the right operand, overwritten with the result
     * @throws TuttiException of class {@link ErrorClass#ARG} if a buffer is null or {@link Buf#IN_PLACE},
     *                        {@link ErrorClass#TYPE} or {@link ErrorClass#COUNT} if their types or counts differ,
     *                        {@link ErrorClass#OP} if this operation is not defined for the type, or
     *                        {@link ErrorClass#BUFFER} if {@code inout} is read-only; an exception thrown by a user
     *                        function propagates as is
     */
    default void reduceLocal(final Buf in, final Buf inout) {
        OpReduction.reduceLocal(this, in, inout);
    }

    /**
     * Applies this operation to raw memory, as every reduction collective's local step does: {@code inout[i] = in[i]
     * (op) inout[i]} for {@code i < count}, {@code in} being the left operand (the lower rank's data, which matters
     * for non-commutative operations). The segments hold {@code count} elements of {@code type} in native byte
     * order, heap or native, aligned or not; BOOLEAN elements are bytes 0/1. The two must not overlap unless they
     * are the same. A predefined op runs its kernel, a user op its function for the type (else its segment
     * function).
     *
     * @param type  the element type
     * @param in    the left operand, at least {@code count * type.sizeBytes()} bytes, not modified
     * @param inout the right operand, overwritten with the result
     * @param count the number of elements
     * @throws TuttiException of class {@link ErrorClass#TYPE} if {@code type} is null, {@link ErrorClass#OP} if this
     *                        operation is not defined for the type, {@link ErrorClass#COUNT} if {@code count} is
     *                        negative, or {@link ErrorClass#BUFFER} if a segment is null, smaller than {@code count}
     *                        elements, or {@code inout} is read-only; an exception thrown by a user function
     *                        propagates as is
     */
    default void reduce(final Datatype type, final MemorySegment in, final MemorySegment inout, final int count) {
        OpReduction.reduce(this, type, in, inout, count);
    }

    /**
     * Creates a user operation over {@code byte[]} ({@link Datatype#BYTE}).
     *
     * @param name        the name used in messages and traces
     * @param commutative whether the function is commutative
     * @param f           the function
     * @return the operation
     * @throws TuttiException of class {@link ErrorClass#ARG} if an argument is null or the name is blank
     */
    static Op user(final String name, final boolean commutative, final ByteFunction f) {
        return builder(name, commutative).bytes(f).build();
    }

    /**
     * Creates a user operation over {@code short[]} ({@link Datatype#SHORT}).
     *
     * @param name        the name used in messages and traces
     * @param commutative whether the function is commutative
     * @param f           the function
     * @return the operation
     * @throws TuttiException of class {@link ErrorClass#ARG} if an argument is null or the name is blank
     */
    static Op user(final String name, final boolean commutative, final ShortFunction f) {
        return builder(name, commutative).shorts(f).build();
    }

    /**
     * Creates a user operation over {@code char[]} ({@link Datatype#CHAR}).
     *
     * @param name        the name used in messages and traces
     * @param commutative whether the function is commutative
     * @param f           the function
     * @return the operation
     * @throws TuttiException of class {@link ErrorClass#ARG} if an argument is null or the name is blank
     */
    static Op user(final String name, final boolean commutative, final CharFunction f) {
        return builder(name, commutative).chars(f).build();
    }

    /**
     * Creates a user operation over {@code int[]} ({@link Datatype#INT}).
     *
     * @param name        the name used in messages and traces
     * @param commutative whether the function is commutative
     * @param f           the function
     * @return the operation
     * @throws TuttiException of class {@link ErrorClass#ARG} if an argument is null or the name is blank
     */
    static Op user(final String name, final boolean commutative, final IntFunction f) {
        return builder(name, commutative).ints(f).build();
    }

    /**
     * Creates a user operation over {@code long[]} ({@link Datatype#LONG}).
     *
     * @param name        the name used in messages and traces
     * @param commutative whether the function is commutative
     * @param f           the function
     * @return the operation
     * @throws TuttiException of class {@link ErrorClass#ARG} if an argument is null or the name is blank
     */
    static Op user(final String name, final boolean commutative, final LongFunction f) {
        return builder(name, commutative).longs(f).build();
    }

    /**
     * Creates a user operation over {@code float[]} ({@link Datatype#FLOAT}).
     *
     * @param name        the name used in messages and traces
     * @param commutative whether the function is commutative
     * @param f           the function
     * @return the operation
     * @throws TuttiException of class {@link ErrorClass#ARG} if an argument is null or the name is blank
     */
    static Op user(final String name, final boolean commutative, final FloatFunction f) {
        return builder(name, commutative).floats(f).build();
    }

    /**
     * Creates a user operation over {@code double[]} ({@link Datatype#DOUBLE}).
     *
     * @param name        the name used in messages and traces
     * @param commutative whether the function is commutative
     * @param f           the function
     * @return the operation
     * @throws TuttiException of class {@link ErrorClass#ARG} if an argument is null or the name is blank
     */
    static Op user(final String name, final boolean commutative, final DoubleFunction f) {
        return builder(name, commutative).doubles(f).build();
    }

    /**
     * Creates a user operation over raw memory, for any datatype except {@link Datatype#OBJECT}.
     *
     * @param name        the name used in messages and traces
     * @param commutative whether the function is commutative
     * @param f           the function
     * @return the operation
     * @throws TuttiException of class {@link ErrorClass#ARG} if an argument is null or the name is blank
     */
    static Op user(final String name, final boolean commutative, final SegmentFunction f) {
        return builder(name, commutative).segments(f).build();
    }

    /**
     * Starts a user operation with functions for several types.
     *
     * @param name        the name used in messages and traces
     * @param commutative whether the functions are commutative
     * @return a builder
     * @throws TuttiException of class {@link ErrorClass#ARG} if the name is null or blank
     */
    static Builder builder(final String name, final boolean commutative) {
        UserFunctions.checkName(name);
        return new Builder(name, commutative);
    }

    /** A user function over {@code byte[]}: sets {@code inout[i] = in[i] (op) inout[i]} for {@code i < count}. */
    @FunctionalInterface
    interface ByteFunction {
        /**
         * Combines {@code in} into {@code inout}.
         *
         * @param in    the left operand (the lower rank's contribution); must not be modified
         * @param inout the right operand, overwritten with the result
         * @param count the number of elements, which may be less than the arrays' length
         */
        void apply(byte[] in, byte[] inout, int count);
    }

    /** A user function over {@code short[]}: sets {@code inout[i] = in[i] (op) inout[i]} for {@code i < count}. */
    @FunctionalInterface
    interface ShortFunction {
        /**
         * Combines {@code in} into {@code inout}.
         *
         * @param in    the left operand (the lower rank's contribution); must not be modified
         * @param inout the right operand, overwritten with the result
         * @param count the number of elements, which may be less than the arrays' length
         */
        void apply(short[] in, short[] inout, int count);
    }

    /** A user function over {@code char[]}: sets {@code inout[i] = in[i] (op) inout[i]} for {@code i < count}. */
    @FunctionalInterface
    interface CharFunction {
        /**
         * Combines {@code in} into {@code inout}.
         *
         * @param in    the left operand (the lower rank's contribution); must not be modified
         * @param inout the right operand, overwritten with the result
         * @param count the number of elements, which may be less than the arrays' length
         */
        void apply(char[] in, char[] inout, int count);
    }

    /** A user function over {@code int[]}: sets {@code inout[i] = in[i] (op) inout[i]} for {@code i < count}. */
    @FunctionalInterface
    interface IntFunction {
        /**
         * Combines {@code in} into {@code inout}.
         *
         * @param in    the left operand (the lower rank's contribution); must not be modified
         * @param inout the right operand, overwritten with the result
         * @param count the number of elements, which may be less than the arrays' length
         */
        void apply(int[] in, int[] inout, int count);
    }

    /** A user function over {@code long[]}: sets {@code inout[i] = in[i] (op) inout[i]} for {@code i < count}. */
    @FunctionalInterface
    interface LongFunction {
        /**
         * Combines {@code in} into {@code inout}.
         *
         * @param in    the left operand (the lower rank's contribution); must not be modified
         * @param inout the right operand, overwritten with the result
         * @param count the number of elements, which may be less than the arrays' length
         */
        void apply(long[] in, long[] inout, int count);
    }

    /** A user function over {@code float[]}: sets {@code inout[i] = in[i] (op) inout[i]} for {@code i < count}. */
    @FunctionalInterface
    interface FloatFunction {
        /**
         * Combines {@code in} into {@code inout}.
         *
         * @param in    the left operand (the lower rank's contribution); must not be modified
         * @param inout the right operand, overwritten with the result
         * @param count the number of elements, which may be less than the arrays' length
         */
        void apply(float[] in, float[] inout, int count);
    }

    /** A user function over {@code double[]}: sets {@code inout[i] = in[i] (op) inout[i]} for {@code i < count}. */
    @FunctionalInterface
    interface DoubleFunction {
        /**
         * Combines {@code in} into {@code inout}.
         *
         * @param in    the left operand (the lower rank's contribution); must not be modified
         * @param inout the right operand, overwritten with the result
         * @param count the number of elements, which may be less than the arrays' length
         */
        void apply(double[] in, double[] inout, int count);
    }

    /**
     * A user function over raw memory, for any datatype: sets element {@code i} of {@code inout} to
     * {@code in[i] (op) inout[i]} for {@code i < count}. Elements are in native byte order; pair types are laid
     * out value then index. The segments may be heap or native, and are not necessarily aligned: use the
     * {@code *_UNALIGNED} layouts of {@link java.lang.foreign.ValueLayout}.
     */
    @FunctionalInterface
    interface SegmentFunction {
        /**
         * Combines {@code in} into {@code inout}.
         *
         * @param type  the element type
         * @param in    the left operand, at least {@code count * type.sizeBytes()} bytes; must not be modified
         * @param inout the right operand, overwritten with the result
         * @param count the number of elements
         */
        void apply(Datatype type, MemorySegment in, MemorySegment inout, int count);
    }

    /** The twelve predefined operations. Each is commutative; see {@link Op} for the types each accepts. */
    enum Predefined implements Op {
        /** See {@link Op#SUM}. */
        SUM,
        /** See {@link Op#PROD}. */
        PROD,
        /** See {@link Op#MIN}. */
        MIN,
        /** See {@link Op#MAX}. */
        MAX,
        /** See {@link Op#LAND}. */
        LAND,
        /** See {@link Op#LOR}. */
        LOR,
        /** See {@link Op#LXOR}. */
        LXOR,
        /** See {@link Op#BAND}. */
        BAND,
        /** See {@link Op#BOR}. */
        BOR,
        /** See {@link Op#BXOR}. */
        BXOR,
        /** See {@link Op#MINLOC}. */
        MINLOC,
        /** See {@link Op#MAXLOC}. */
        MAXLOC;

        @Override
        public boolean isCommutative() {
            return true;
        }

        @Override
        public int itemElements() {
            return 1;
        }

        @Override
        public boolean isPredefined() {
            return true;
        }

        @Override
        public boolean isDefinedFor(final Datatype type) {
            return RawReduction.definedFor(ordinal(), type);
        }
    }

    /**
     * A user-defined operation: a name, a declared commutativity, and a function per primitive type and/or one
     * over raw memory. Immutable and safe to share between threads (provided the functions are).
     */
    final class User implements Op {
        private final String name;
        private final boolean commutative;
        private final int items;
        private final ByteFunction byteFunction;
        private final ShortFunction shortFunction;
        private final CharFunction charFunction;
        private final IntFunction intFunction;
        private final LongFunction longFunction;
        private final FloatFunction floatFunction;
        private final DoubleFunction doubleFunction;
        private final SegmentFunction segmentFunction;

        private User(final Builder b) {
            this.name = b.name;
            this.commutative = b.commutative;
            this.items = b.items > 0 ? b.items : b.commutative ? 1 : 0;
            this.byteFunction = b.byteFunction;
            this.shortFunction = b.shortFunction;
            this.charFunction = b.charFunction;
            this.intFunction = b.intFunction;
            this.longFunction = b.longFunction;
            this.floatFunction = b.floatFunction;
            this.doubleFunction = b.doubleFunction;
            this.segmentFunction = b.segmentFunction;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public boolean isCommutative() {
            return commutative;
        }

        @Override
        public int itemElements() {
            return items;
        }

        @Override
        public boolean isPredefined() {
            return false;
        }

        @Override
        public boolean isDefinedFor(final Datatype type) {
            return UserFunctions.covers(this, type);
        }

        /**
         * Returns the function over {@code byte[]}, or null if none was given.
         *
         * @return the function over {@code byte[]}, or null if none was given
         */
        public ByteFunction byteFunction() {
            return byteFunction;
        }

        /**
         * Returns the function over {@code short[]}, or null if none was given.
         *
         * @return the function over {@code short[]}, or null if none was given
         */
        public ShortFunction shortFunction() {
            return shortFunction;
        }

        /**
         * Returns the function over {@code char[]}, or null if none was given.
         *
         * @return the function over {@code char[]}, or null if none was given
         */
        public CharFunction charFunction() {
            return charFunction;
        }

        /**
         * Returns the function over {@code int[]}, or null if none was given.
         *
         * @return the function over {@code int[]}, or null if none was given
         */
        public IntFunction intFunction() {
            return intFunction;
        }

        /**
         * Returns the function over {@code long[]}, or null if none was given.
         *
         * @return the function over {@code long[]}, or null if none was given
         */
        public LongFunction longFunction() {
            return longFunction;
        }

        /**
         * Returns the function over {@code float[]}, or null if none was given.
         *
         * @return the function over {@code float[]}, or null if none was given
         */
        public FloatFunction floatFunction() {
            return floatFunction;
        }

        /**
         * Returns the function over {@code double[]}, or null if none was given.
         *
         * @return the function over {@code double[]}, or null if none was given
         */
        public DoubleFunction doubleFunction() {
            return doubleFunction;
        }

        /**
         * Returns the function over raw memory, used for types without their own function, or null if none.
         *
         * @return the function over raw memory, used for types without their own function, or null if none
         */
        public SegmentFunction segmentFunction() {
            return segmentFunction;
        }

        /** @return {@code name(user)}, {@code name(user, non-commutative)}, with {@code , items of k} if declared */
        @Override
        public String toString() {
            return name + "(user" + (commutative ? "" : ", non-commutative") + (items > 1 ? ", items of " + items : "")
                + ")";
        }
    }

    /**
     * Collects the functions of a user operation; obtained from {@link Op#builder}. Each type may be given once.
     * Not thread-safe; the built {@link User} is immutable.
     */
    final class Builder {
        private final String name;
        private final boolean commutative;
        private int items;
        private ByteFunction byteFunction;
        private ShortFunction shortFunction;
        private CharFunction charFunction;
        private IntFunction intFunction;
        private LongFunction longFunction;
        private FloatFunction floatFunction;
        private DoubleFunction doubleFunction;
        private SegmentFunction segmentFunction;

        private Builder(final String name, final boolean commutative) {
            this.name = name;
            this.commutative = commutative;
        }

        /**
         * Sets the function for {@link Datatype#BYTE}.
         *
         * @param f the function
         * @return this builder
         * @throws TuttiException of class {@link ErrorClass#ARG} if {@code f} is null or one was already set
         */
        public Builder bytes(final ByteFunction f) {
            byteFunction = UserFunctions.once(name, byteFunction, f, "bytes");
            return this;
        }

        /**
         * Sets the function for {@link Datatype#SHORT}.
         *
         * @param f the function
         * @return this builder
         * @throws TuttiException of class {@link ErrorClass#ARG} if {@code f} is null or one was already set
         */
        public Builder shorts(final ShortFunction f) {
            shortFunction = UserFunctions.once(name, shortFunction, f, "shorts");
            return this;
        }

        /**
         * Sets the function for {@link Datatype#CHAR}.
         *
         * @param f the function
         * @return this builder
         * @throws TuttiException of class {@link ErrorClass#ARG} if {@code f} is null or one was already set
         */
        public Builder chars(final CharFunction f) {
            charFunction = UserFunctions.once(name, charFunction, f, "chars");
            return this;
        }

        /**
         * Sets the function for {@link Datatype#INT}.
         *
         * @param f the function
         * @return this builder
         * @throws TuttiException of class {@link ErrorClass#ARG} if {@code f} is null or one was already set
         */
        public Builder ints(final IntFunction f) {
            intFunction = UserFunctions.once(name, intFunction, f, "ints");
            return this;
        }

        /**
         * Sets the function for {@link Datatype#LONG}.
         *
         * @param f the function
         * @return this builder
         * @throws TuttiException of class {@link ErrorClass#ARG} if {@code f} is null or one was already set
         */
        public Builder longs(final LongFunction f) {
            longFunction = UserFunctions.once(name, longFunction, f, "longs");
            return this;
        }

        /**
         * Sets the function for {@link Datatype#FLOAT}.
         *
         * @param f the function
         * @return this builder
         * @throws TuttiException of class {@link ErrorClass#ARG} if {@code f} is null or one was already set
         */
        public Builder floats(final FloatFunction f) {
            floatFunction = UserFunctions.once(name, floatFunction, f, "floats");
            return this;
        }

        /**
         * Sets the function for {@link Datatype#DOUBLE}.
         *
         * @param f the function
         * @return this builder
         * @throws TuttiException of class {@link ErrorClass#ARG} if {@code f} is null or one was already set
         */
        public Builder doubles(final DoubleFunction f) {
            doubleFunction = UserFunctions.once(name, doubleFunction, f, "doubles");
            return this;
        }

        /**
         * Sets the function over raw memory, used for every type that has no function of its own (including
         * {@link Datatype#BOOLEAN} and the pair types).
         *
         * @param f the function
         * @return this builder
         * @throws TuttiException of class {@link ErrorClass#ARG} if {@code f} is null or one was already set
         */
        public Builder segments(final SegmentFunction f) {
            segmentFunction = UserFunctions.once(name, segmentFunction, f, "segments");
            return this;
        }

        /**
         * Declares that the functions combine items of {@code elements} consecutive elements each and nothing coarser
         * (a 2x2 matrix of 4 doubles, a struct of 3 ints): a collective then applies them to runs of whole items only,
         * every count a multiple of {@code elements}, and may split a large vector at item boundaries whether the
         * operation commutes or not (among the ranks of one host, each share still folded in rank order). Without it
         * a commutative operation's item is one element and a non-commutative one is applied to whole operands.
         *
         * @param elements elements per item, at least 1
         * @return this builder
         * @throws TuttiException of class {@link ErrorClass#ARG} if {@code elements} is below 1
         */
        public Builder items(final int elements) {
            items = UserFunctions.checkItems(name, elements);
            return this;
        }

        /**
         * Builds the operation.
         *
         * @return the user operation
         * @throws TuttiException of class {@link ErrorClass#ARG} if no function was given
         */
        public User build() {
            UserFunctions.checkAny(name, null != byteFunction || null != shortFunction || null != charFunction
                || null != intFunction || null != longFunction || null != floatFunction || null != doubleFunction
                || null != segmentFunction);
            return new User(this);
        }
    }
}
