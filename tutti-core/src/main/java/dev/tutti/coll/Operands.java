package dev.tutti.coll;

import dev.tutti.Datatype;
import dev.tutti.Op;

/**
 * What a reduction's operation lets an algorithm do with the operands: reorder them, and cut a vector into parts.
 * Decided here for every road: the message layer's selection and its composed schedules ({@link #free}), and the
 * on-host region's chunks ({@link #itemBytes}).
 * <ul>
 * <li>Reordered and cut anywhere between elements ({@link #free}): a commutative operation whose item is one element
 *     (every predefined operation, a user one declared commutative without {@link Op.Builder#items}). The algorithms
 *     that split a vector among the ranks and fold the parts in another order than the ranks' (Rabenseifner, the
 *     ring, a reduce-scatter's halving, a hierarchy by blocks) take these only.</li>
 * <li>Cut at item boundaries, folded in rank order ({@link #itemBytes} above 0): every operation with items, so a
 *     non-commutative one declared with {@link Op.Builder#items} too. The region's chunks fold a share of each chunk
 *     on each rank, in rank order, with every share a whole number of items.</li>
 * <li>Whole operands only: a non-commutative operation without items (it may group elements freely).</li>
 * </ul>
 */
public final class Operands {
    private Operands() {
    }

    /**
     * Tells whether an algorithm may reorder a reduction's operands and cut them between any two elements.
     *
     * @param op the operation, or null (a call that reduces nothing)
     * @return true for no op, or a commutative op whose item is one element
     */
    public static boolean free(final Op op) {
        return null == op || op.isCommutative() && 1 == op.itemElements();
    }

    /**
     * Returns the bytes of one item of {@code op} over {@code type}, at whose multiples a vector may be cut with its
     * parts folded in rank order, or 0 when only whole operands may be folded.
     *
     * @param op   the operation
     * @param type the element type
     * @return bytes per item, or 0
     */
    public static long itemBytes(final Op op, final Datatype type) {
        return (long) op.itemElements() * type.sizeBytes();
    }
}
