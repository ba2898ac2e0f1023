package dev.tutti.p2p;

import dev.tutti.transport.Inbound;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * The matcher's unexpected messages against a list as the model: random sequences of arrivals (on few and on many
 * (context, tag) pairs, so the table of bins grows and its deletions shift entries back) and of receives taking the
 * oldest message of a context and tag, or of a context and any tag, keep every search seeing exactly the model's
 * messages of that context and tag, oldest first, in the plain form and the indexed one alike (a search with a tag
 * through more than {@link UnexpectedQueue#DEEP} messages indexes the queue; emptying it goes back).
 */
class UnexpectedQueueTest {

    private static final class Message extends Inbound {
        Message(final int context, final int tag, final int serial) {
            super(context, serial, tag, 0, 0);
        }

        @Override
        public void deliver(final MemorySegment destination, final Delivery done) {
            done.delivered(null);
        }
    }

    @Property(tries = 300)
    void shouldFindWhatAListFindsUnderAnyMixOfArrivalsAndReceives(
        @ForAll @Size(max = 600) final List<@IntRange(min = 0, max = 999) Integer> ops) {
        final UnexpectedQueue q = new UnexpectedQueue();
        final List<Inbound> model = new ArrayList<>();
        int serial = 0;
        for (final int op : ops) {
            final int context = op % 3;
            /* Tags from a few (long lists) to hundreds (many bins), some negative or large as the hash sees them. */
            final int tag = op < 500 ? op % 4 : op % 7 == 0 ? Integer.MIN_VALUE + op : op * 7919;
            if (op >= 990) { // a freed communicator's contexts retired
                final List<Inbound> expected = model.stream().filter(m -> m.context == context).toList();
                assertEquals(expected, q.removeContexts(context, context + 1));
                model.removeAll(expected);
            } else if (op % 5 < 3) {
                final Message m = new Message(context, tag, serial++);
                q.add(m);
                model.add(m);
            } else {
                final int wanted = op % 5 == 3 ? P2pEngine.ANY : tag;
                final List<Inbound> expected = model.stream()
                    .filter(m -> m.context == context && (P2pEngine.ANY == wanted || m.tag == wanted)).toList();
                final List<Inbound> seen = new ArrayList<>();
                int first = -1;
                for (int n = q.oldest(context, wanted); n >= 0; n = q.next(n, wanted)) {
                    final Inbound m = q.message(n);
                    if (m.context == context && (P2pEngine.ANY == wanted || m.tag == wanted)) {
                        seen.add(m);
                        first = first < 0 ? n : first;
                    }
                }
                assertEquals(expected, seen);
                if (first >= 0) {
                    assertSame(expected.get(0), q.remove(first));
                    model.remove(expected.get(0));
                }
            }
            assertEquals(model.size(), q.size());
        }
        assertEquals(model, q.toList());
    }

    @Test
    void shouldIndexOnADeepSearchAndGoBackWhenEmpty() {
        final UnexpectedQueue q = new UnexpectedQueue();
        final int count = 3 * UnexpectedQueue.DEEP;
        for (int i = 0; i < count; i++) {
            q.add(new Message(7, i, i));
        }
        for (int round = 0; round < 2; round++) {
            final int wanted = count - 1;
            int n = q.oldest(7, wanted);
            while (q.message(n).tag != wanted) { // a plain search reads past every older message
                n = q.next(n, wanted);
            }
            assertEquals(round == 1, q.indexed());
            if (round == 1) {
                assertEquals(-1, q.next(n, wanted), "the indexed search reads its own tag's list only");
            }
        }
        for (int i = 0; i < count; i++) {
            assertEquals(i, q.remove(q.oldest(7, i)).source);
            assertEquals(i < count - 1, q.indexed());
        }
        assertEquals(0, q.size());
    }
}
