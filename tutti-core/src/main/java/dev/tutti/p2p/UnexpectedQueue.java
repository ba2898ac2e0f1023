package dev.tutti.p2p;

import dev.tutti.transport.Inbound;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The matcher's unexpected messages, in arrival order; once searches run deep, also indexed by (context, tag): for
 * each (context, tag) that has messages queued, a second list of just those, also in arrival order. A receive with a
 * tag then searches only its (context, tag) list, which holds every message it can match or refuse
 * ({@link RecvRequest#refuses} needs the same context and tag); a receive for any tag searches the whole list. So a
 * root that receives from one rank while another has sent it thousands of calls ahead finds its message at once
 * instead of behind all of those.
 *
 * <p>Implementation notes. Two forms, one at a time. Plain: a {@link RingQueue}, a position being the place in it,
 * searched from the oldest: what a queue whose receives find their messages near its head needs, at four bytes a
 * message. A search with a tag that reaches {@link #DEEP} messages marks the queue, and the next search builds the
 * index (O(size), once); the queue stays indexed until it is empty again. Indexed: a message sits in a numbered place,
 * parallel arrays holding its message and its links in both lists (removal is O(1)); free places are chained through
 * the arrival links. The (context, tag) lists are found through an open-addressing table (linear probing) whose entry
 * holds the list's first and last place; an entry is made when the list's first message arrives and deleted when its
 * last one leaves, by shifting back the entries after it, so there are no tombstones. Every array grows by doubling
 * and never shrinks, so a queue that has reached its largest size allocates nothing. Not thread-safe: the
 * {@link Matcher} holds its lock around every call. Cost, indexed: O(1) to add and to remove (a hash and a probe or
 * two); a search costs the length of the list it reads.
 */
final class UnexpectedQueue {
    /** How far a search with a tag reads the plain queue before the queue is indexed. */
    static final int DEEP = 64;
    private static final int NONE = -1;
    private static final int INITIAL = 16;

    private final RingQueue<Inbound> plain = new RingQueue<>();
    private boolean indexed;
    private boolean deep;

    /* Places: the message and its links (NONE at either end); a free place is chained through next. */
    private Inbound[] messages = new Inbound[INITIAL];
    private int[] prev = new int[INITIAL];
    private int[] next = new int[INITIAL];
    private int[] prevInList = new int[INITIAL];
    private int[] nextInList = new int[INITIAL];
    private int first = NONE;
    private int last = NONE;
    private int free;
    private int size;

    /* The (context, tag) table: a slot is empty when its listFirst is NONE. */
    private long[] keys = new long[INITIAL];
    private int[] listFirst = new int[INITIAL];
    private int[] listLast = new int[INITIAL];
    private int lists;

    UnexpectedQueue() {
        chainFree(0);
        Arrays.fill(listFirst, NONE);
    }

    /** @return the number of messages queued */
    int size() {
        return indexed ? size : plain.size();
    }

    /** @return whether the (context, tag) index is in use (for tests) */
    boolean indexed() {
        return indexed;
    }

    /**
     * Appends a message at the end of the arrival list and of its (context, tag) list.
     *
     * @param m the message
     */
    void add(final Inbound m) {
        if (indexed) {
            index(m);
        } else {
            plain.addLast(m);
        }
    }

    private void index(final Inbound m) {
        if (NONE == free) {
            grow();
        }
        final int n = free;
        free = next[n];
        messages[n] = m;
        prev[n] = last;
        next[n] = NONE;
        if (NONE == last) {
            first = n;
        } else {
            next[last] = n;
        }
        last = n;
        final int slot = slotFor(key(m.context, m.tag));
        nextInList[n] = NONE;
        if (NONE == listFirst[slot]) {
            prevInList[n] = NONE;
            listFirst[slot] = n;
            lists++;
        } else {
            prevInList[n] = listLast[slot];
            nextInList[listLast[slot]] = n;
        }
        listLast[slot] = n;
        size++;
        if (lists * 2 > keys.length) {
            growTable();
        }
    }

    /**
     * Returns the oldest message a receive with this context and tag has to look at: the first of its (context, tag)
     * list, or for any tag the first of all (of every context).
     *
     * @param context the receive's context
     * @param tag     the receive's tag, or {@link P2pEngine#ANY}
     * @return the message's place, or a negative number if there is none
     */
    int oldest(final int context, final int tag) {
        if (!indexed) {
            if (!deep || plain.size() < DEEP) {
                return 0 == plain.size() ? NONE : 0;
            }
            while (0 != plain.size()) {
                index(plain.pollFirst());
            }
            indexed = true;
        }
        if (P2pEngine.ANY == tag) {
            return first;
        }
        final int slot = find(key(context, tag));
        return NONE == slot ? NONE : listFirst[slot];
    }

    /**
     * Returns the message after place {@code n} in the list that {@link #oldest} started with the same tag.
     *
     * @param n   a queued message's place
     * @param tag the tag given to {@link #oldest}
     * @return the next place, or a negative number at the end
     */
    int next(final int n, final int tag) {
        if (!indexed) {
            if (DEEP - 1 == n && P2pEngine.ANY != tag) {
                deep = true;
            }
            return n + 1 < plain.size() ? n + 1 : NONE;
        }
        return P2pEngine.ANY == tag ? next[n] : nextInList[n];
    }

    /**
     * Returns the message at a place.
     *
     * @param n a queued message's place
     * @return the message
     */
    Inbound message(final int n) {
        return indexed ? messages[n] : plain.get(n);
    }

    /**
     * Removes a queued message from both of its lists.
     *
     * @param n the message's place
     * @return the message
     */
    Inbound remove(final int n) {
        if (!indexed) {
            final Inbound m = plain.removeAt(n);
            deep &= 0 != plain.size();
            return m;
        }
        final Inbound m = messages[n];
        if (NONE == prev[n]) {
            first = next[n];
        } else {
            next[prev[n]] = next[n];
        }
        if (NONE == next[n]) {
            last = prev[n];
        } else {
            prev[next[n]] = prev[n];
        }
        final int before = prevInList[n];
        final int after = nextInList[n];
        if (NONE != before) {
            nextInList[before] = after;
        }
        if (NONE != after) {
            prevInList[after] = before;
        }
        if (NONE == before || NONE == after) { // the list's first or last changes: find its entry
            final int slot = find(key(m.context, m.tag));
            if (NONE == before && NONE == after) {
                deleteSlot(slot);
            } else if (NONE == before) {
                listFirst[slot] = after;
            } else {
                listLast[slot] = before;
            }
        }
        messages[n] = null;
        next[n] = free;
        free = n;
        if (0 == --size) { // back to the plain form; the index's arrays stay for the next time
            indexed = false;
            deep = false;
        }
        return m;
    }

    /**
     * Removes every message with a context in {@code [from, to)}.
     *
     * @param from the first context
     * @param to   the context after the last
     * @return the messages removed, oldest first (possibly none)
     */
    List<Inbound> removeContexts(final int from, final int to) {
        List<Inbound> taken = List.of();
        for (int n = oldest(from, P2pEngine.ANY); NONE != n;) {
            final Inbound m = message(n);
            if (m.context >= from && m.context < to) {
                if (taken.isEmpty()) {
                    taken = new ArrayList<>();
                }
                taken.add(m);
                final int after = indexed ? next[n] : n; // a plain removal moves the later ones down one place
                final boolean last = !indexed && n + 1 >= plain.size();
                remove(n);
                n = last ? NONE : after;
            } else {
                n = next(n, P2pEngine.ANY);
            }
        }
        return taken;
    }

    /** @return the messages, oldest first (a copy) */
    List<Inbound> toList() {
        if (!indexed) {
            return plain.toList();
        }
        final List<Inbound> list = new ArrayList<>(size);
        for (int n = first; NONE != n; n = next[n]) {
            list.add(messages[n]);
        }
        return list;
    }

    private static long key(final int context, final int tag) {
        return (long) context << 32 | tag & 0xFFFF_FFFFL;
    }

    private int home(final long key) {
        final long h = key * 0x9E37_79B9_7F4A_7C15L;
        return (int) (h ^ h >>> 32) & (keys.length - 1);
    }

    /** @return the slot holding the key's list, or NONE */
    private int find(final long key) {
        final int mask = keys.length - 1;
        for (int i = home(key); NONE != listFirst[i]; i = i + 1 & mask) {
            if (keys[i] == key) {
                return i;
            }
        }
        return NONE;
    }

    /** @return the slot holding the key's list, or the empty slot where it goes (its key set) */
    private int slotFor(final long key) {
        final int mask = keys.length - 1;
        int i = home(key);
        while (NONE != listFirst[i] && keys[i] != key) {
            i = i + 1 & mask;
        }
        keys[i] = key;
        return i;
    }

    private void deleteSlot(final int slot) {
        final int mask = keys.length - 1;
        int hole = slot;
        listFirst[hole] = NONE;
        lists--;
        /* Shift back every entry of the probe run after the hole that may not stay behind it (its home is not
           cyclically in (hole, i]), so that no lookup meets an empty slot before its key. */
        for (int i = hole + 1 & mask; NONE != listFirst[i]; i = i + 1 & mask) {
            final int h = home(keys[i]);
            final boolean stays = hole <= i ? hole < h && h <= i : hole < h || h <= i;
            if (!stays) {
                keys[hole] = keys[i];
                listFirst[hole] = listFirst[i];
                listLast[hole] = listLast[i];
                listFirst[i] = NONE;
                hole = i;
            }
        }
    }

    private void grow() {
        final int old = messages.length;
        final int length = old * 2;
        messages = Arrays.copyOf(messages, length);
        prev = Arrays.copyOf(prev, length);
        next = Arrays.copyOf(next, length);
        prevInList = Arrays.copyOf(prevInList, length);
        nextInList = Arrays.copyOf(nextInList, length);
        chainFree(old);
    }

    /** Chains the places from {@code from} to the end into the free list (which is empty). */
    private void chainFree(final int from) {
        for (int n = from; n < next.length - 1; n++) {
            next[n] = n + 1;
        }
        next[next.length - 1] = NONE;
        free = from;
    }

    private void growTable() {
        final long[] oldKeys = keys;
        final int[] oldFirst = listFirst;
        final int[] oldLast = listLast;
        keys = new long[oldKeys.length * 2];
        listFirst = new int[keys.length];
        listLast = new int[keys.length];
        Arrays.fill(listFirst, NONE);
        final int mask = keys.length - 1;
        for (int j = 0; j < oldKeys.length; j++) {
            if (NONE != oldFirst[j]) {
                int i = home(oldKeys[j]);
                while (NONE != listFirst[i]) {
                    i = i + 1 & mask;
                }
                keys[i] = oldKeys[j];
                listFirst[i] = oldFirst[j];
                listLast[i] = oldLast[j];
            }
        }
    }
}
