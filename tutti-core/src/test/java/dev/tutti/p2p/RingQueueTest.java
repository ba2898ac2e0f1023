package dev.tutti.p2p;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The matcher's queue against a list as the model: random sequences of appends, polls, removals by position and by
 * identity, across growth and wrap-around, keep the same elements in the same order.
 */
class RingQueueTest {

    @Property(tries = 300)
    void shouldKeepTheOrderOfAListUnderAnyMixOfOperations(
        @ForAll @Size(max = 400) final List<@IntRange(min = 0, max = 99) Integer> ops) {
        final RingQueue<Integer> q = new RingQueue<>();
        final List<Integer> model = new ArrayList<>();
        int serial = 0;
        for (final int op : ops) {
            if (op < 45) { // append (most often, so the queue grows past its first capacity)
                final Integer e = serial++;
                q.addLast(e);
                model.add(e);
            } else if (op < 60) {
                assertEquals(model.isEmpty() ? null : model.remove(0), q.pollFirst());
            } else if (op < 85) {
                if (!model.isEmpty()) {
                    final int i = op % model.size();
                    assertEquals(model.remove(i), q.removeAt(i));
                }
            } else if (!model.isEmpty()) {
                final Integer e = model.get(op % model.size());
                assertEquals(model.remove(e), q.remove(e));
            }
            assertEquals(model.size(), q.size());
            assertEquals(model.isEmpty() ? null : model.get(0), q.peekFirst());
        }
        assertEquals(model, q.toList());
        for (int i = 0; i < model.size(); i++) {
            assertEquals(model.get(i), q.get(i));
        }
    }
}
