package dev.tutti.coll.slot;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Where a slot's cell puts a message and its sequence word ({@link SlotPart}): the word is the cell's last 8 bytes,
 * the message ends in the word's line, and a cell takes no more lines than the message and the word need.
 */
class SlotPartLayoutTest {
    private static final long LINE = 64;

    @Test
    void shouldEndEveryMessageInTheLineOfItsSequenceWord() {
        for (long n = 0; n <= 5000; n++) {
            final long cell = SlotPart.cellBytes(n);
            final long at = SlotPart.bytesAt(n);
            final long word = cell - Long.BYTES;
            assertEquals(0, cell % LINE, n + " B: a cell is whole lines");
            assertEquals(((n + 7) / 8 * 8 + Long.BYTES + LINE - 1) / LINE * LINE, cell, n + " B: no spare line");
            assertTrue(at >= 0 && at < LINE, n + " B: the padding before the message is less than a line, " + at);
            assertEquals(0, at % Long.BYTES, n + " B: the message starts on a word, " + at);
            assertTrue(at + n <= word && word - (at + n) < Long.BYTES,
                n + " B: the message ends right before its word");
            if (n > 0) {
                assertEquals(word / LINE, (at + n - 1) / LINE, n + " B: its last byte shares the word's line");
            }
        }
    }
}
