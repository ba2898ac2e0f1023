package dev.tutti.p2p;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A first-in first-out queue that can also be read and removed from by position: the matcher's posted receives
 * and unexpected messages, searched oldest first without an iterator object (the JIT does not always keep one off
 * the heap, and the matcher runs once per message).
 *
 * <p>Implementation notes. A power-of-two circular array; element {@code i} (0 = oldest) is at
 * {@code (head + i) & mask}. {@link #removeAt} closes the gap by moving the shorter side (the usual match is near
 * the head, which then costs nothing). Grows by doubling, never shrinks. Not thread-safe: the matcher holds its lock
 * around every call. Cost: O(1) at the ends, O(min(i, size - i)) for a removal inside.
 *
 * @param <E> the element type
 */
final class RingQueue<E> {
    private static final int INITIAL = 16;

    private Object[] items = new Object[INITIAL];
    private int head;
    private int size;

    /** @return the number of elements */
    int size() {
        return size;
    }

    /**
     * Returns an element by position.
     *
     * @param i the position, 0 for the oldest, below {@link #size()}
     * @return the element
     */
    @SuppressWarnings("unchecked")
    E get(final int i) {
        return (E) items[(head + i) & (items.length - 1)];
    }

    /** @return the oldest element, or null if empty */
    E peekFirst() {
        return 0 == size ? null : get(0);
    }

    /**
     * Appends an element.
     *
     * @param e the element, not null
     */
    void addLast(final E e) {
        if (size == items.length) {
            grow();
        }
        items[(head + size) & (items.length - 1)] = e;
        size++;
    }

    /** @return the oldest element, removed, or null if empty */
    E pollFirst() {
        if (0 == size) {
            return null;
        }
        final E e = get(0);
        items[head] = null;
        head = (head + 1) & (items.length - 1);
        size--;
        return e;
    }

    /**
     * Removes the element at a position, keeping the order of the others.
     *
     * @param i the position, below {@link #size()}
     * @return the element removed
     */
    E removeAt(final int i) {
        final E e = get(i);
        final int mask = items.length - 1;
        if (i < size - 1 - i) {
            for (int k = i; k > 0; k--) { // shift the older ones one place towards the tail
                items[(head + k) & mask] = items[(head + k - 1) & mask];
            }
            items[head] = null;
            head = (head + 1) & mask;
        } else {
            for (int k = i; k < size - 1; k++) { // shift the newer ones one place towards the head
                items[(head + k) & mask] = items[(head + k + 1) & mask];
            }
            items[(head + size - 1) & mask] = null;
        }
        size--;
        return e;
    }

    /**
     * Removes the oldest occurrence of an element (by identity).
     *
     * @param e the element
     * @return whether it was there
     */
    boolean remove(final Object e) {
        for (int i = 0; i < size; i++) {
            if (get(i) == e) {
                removeAt(i);
                return true;
            }
        }
        return false;
    }

    /** @return the elements, oldest first (a copy) */
    List<E> toList() {
        final List<E> list = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            list.add(get(i));
        }
        return list;
    }

    private void grow() {
        final Object[] next = new Object[items.length * 2];
        for (int i = 0; i < size; i++) {
            next[i] = items[(head + i) & (items.length - 1)];
        }
        Arrays.fill(items, null);
        items = next;
        head = 0;
    }
}
