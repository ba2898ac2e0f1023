package dev.tutti.transport.shm;

import dev.tutti.ErrorClass;
import dev.tutti.TuttiException;
import dev.tutti.transport.Outbound;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The records {@link ShmOutbox} writes are byte for byte the layout of {@link ShmRecordDescriptor}, checked against
 * images built from the bare offsets (the wire format that ranks of one job share), and records that find a full
 * ring wait and keep their order per destination.
 */
@Timeout(30)
class ShmOutboxTest {
    private static final long CAPACITY = 4096;
    private static final long RING_STRIDE = ShmLayoutDescriptor.RING_DATA + CAPACITY;
    private static final int SELF = 1;

    @Test
    void shouldWriteEveryRecordTypeInTheDocumentedLayout() {
        try (Arena arena = Arena.ofConfined()) {
            final MemorySegment mem = arena.allocate(2 * RING_STRIDE, 4096);
            final ShmOutbox outbox = new ShmOutbox(mem, SELF, rings(mem));
            final Message eager = new Message(7, 11, 3, bytes(5));
            final Message big = new Message(-2, -3, 9, bytes(100_000));

            outbox.sendEager(0, eager);
            assertTrue(outbox.tryEager(0, 8, 12, 4, MemorySegment.NULL), "an empty eager message");
            outbox.sendRts(0, big, ShmRecordDescriptor.RTS, 42, -1);
            assertTrue(outbox.tryRts(0, big, ShmRecordDescriptor.RTS_PUSH, 43, -1));
            outbox.sendRts(0, big, ShmRecordDescriptor.RTS_SHARED, 44, 8192);
            outbox.sendControl(0, ShmRecordDescriptor.CTS, 42, 777);
            outbox.sendControl(0, ShmRecordDescriptor.FIN, 44, 0);
            outbox.sendControl(0, ShmRecordDescriptor.BYE, 0, 0);

            assertFalse(outbox.anyQueued());
            assertEquals(1, eager.completions.size());
            assertNull(eager.completions.get(0), "an eager send completes when written");
            assertTrue(big.completions.isEmpty(), "a rendezvous send completes later, on CTS or FIN");
            final ShmRing in = new ShmRing(mem, 0, CAPACITY);
            expect(in, mem, envelope(1, 29, 7, 11, 3).put(24, new byte[] {1, 2, 3, 4, 5}));
            expect(in, mem, envelope(1, 24, 8, 12, 4));
            expect(in, mem, envelope(2, 48, -2, -3, 9).putLong(24, 100_000).putLong(32, 42).putLong(40, -1));
            expect(in, mem, envelope(7, 48, -2, -3, 9).putLong(24, 100_000).putLong(32, 43).putLong(40, -1));
            expect(in, mem, envelope(3, 48, -2, -3, 9).putLong(24, 100_000).putLong(32, 44).putLong(40, 8192));
            expect(in, mem, record(4, 32).putInt(8, SELF).putLong(16, 42).putLong(24, 777));
            expect(in, mem, record(5, 32).putInt(8, SELF).putLong(16, 44));
            expect(in, mem, record(6, 32).putInt(8, SELF));
            assertEquals(0, in.peek(), "nothing else");
        }
    }

    /**
     * Eager records of every length around the lengths where the order of writing changes (the first line written
     * last from {@link ShmOutbox#FIRST_LINE_LAST_FROM} payload bytes) and where the records gain a line hold the
     * envelope and every payload byte where the layout says, whichever order wrote them.
     */
    @Test
    void shouldWriteEagerRecordsOfEveryLengthAroundTheWritingOrdersBoundaryIntact() {
        final int first = ShmOutbox.FIRST_LINE_LAST_FROM;
        final int[] lengths = {0, 1, 39, 40, 41, 63, 64, 65, 103, 104, 105, first - 1, first, first + 1, first + 23,
            first + 24, first + 25, first + 64, 500, 1000};
        try (Arena arena = Arena.ofConfined()) {
            final MemorySegment mem = arena.allocate(2 * RING_STRIDE, 4096);
            final ShmOutbox outbox = new ShmOutbox(mem, SELF, rings(mem));
            final ShmRing in = new ShmRing(mem, 0, CAPACITY);
            for (int round = 0; round < 3; round++) { // the ring wraps: records land at every offset of it
                for (final int n : lengths) {
                    final MemorySegment payload = bytes(n);
                    outbox.sendEager(0, new Message(5, n, 2, payload));
                    final ByteBuffer image = envelope(1, ShmRecordDescriptor.EAGER_HEADER_BYTES + n, 5, n, 2);
                    image.put(ShmRecordDescriptor.PAYLOAD_OFFSET, payload.toArray(ValueLayout.JAVA_BYTE));
                    expect(in, mem, image);
                    in.releaseConsumed();
                }
            }
            assertEquals(0, in.peek(), "nothing else");
        }
    }

    @Test
    void shouldQueueBehindAFullRingInOrderAndCompleteEagerSendsWhenWritten() {
        try (Arena arena = Arena.ofConfined()) {
            final MemorySegment mem = arena.allocate(2 * RING_STRIDE, 4096);
            final ShmOutbox outbox = new ShmOutbox(mem, SELF, rings(mem));
            final List<Message> sent = new ArrayList<>();
            Message m;
            do {
                m = new Message(0, sent.size(), 0, bytes(1000));
                sent.add(m);
                outbox.sendEager(0, m);
            } while (!m.completions.isEmpty());
            assertTrue(outbox.anyQueued(), "the ring is full: the last one waits");
            assertFalse(outbox.tryEager(0, 0, -1, 0, MemorySegment.NULL), "not past a waiting record");
            outbox.sendControl(0, ShmRecordDescriptor.CTS, 5, 6);
            assertEquals(0, outbox.flush(), "still full");

            final ShmRing in = new ShmRing(mem, 0, CAPACITY);
            int tag = 0;
            for (long h = in.peek(); 0 != h; h = in.peek()) {
                assertEquals(tag++, mem.get(ValueLayout.JAVA_INT, in.recordAt() + ShmRecordDescriptor.TAG_OFFSET));
                in.consume(h);
            }
            in.releaseConsumed();
            assertEquals(2, outbox.flush());
            assertFalse(outbox.anyQueued());
            assertEquals(1, m.completions.size(), "the waiting eager send completes when written");
            assertEquals(ShmRecordDescriptor.EAGER, ShmRing.type(in.peek()));
            assertEquals(tag, mem.get(ValueLayout.JAVA_INT, in.recordAt() + ShmRecordDescriptor.TAG_OFFSET),
                "in order");
            in.consume(in.peek());
            assertEquals(ShmRecordDescriptor.CTS, ShmRing.type(in.peek()), "the control record behind it");
            assertEquals(6L, mem.get(ValueLayout.JAVA_LONG,
                in.recordAt() + ShmRecordDescriptor.CONTROL_VALUE_OFFSET));
        }
    }

    @Test
    void shouldFailTheWaitingEagerSendsOfAFailedDestination() {
        try (Arena arena = Arena.ofConfined()) {
            final MemorySegment mem = arena.allocate(2 * RING_STRIDE, 4096);
            final ShmOutbox outbox = new ShmOutbox(mem, SELF, rings(mem));
            Message m;
            do {
                m = new Message(0, 0, 0, bytes(1000));
                outbox.sendEager(0, m);
            } while (!m.completions.isEmpty());
            final Message rts = new Message(0, 0, 0, bytes(100_000));
            outbox.sendRts(0, rts, ShmRecordDescriptor.RTS, 1, -1);
            final TuttiException e = new TuttiException(ErrorClass.PROC_FAILED, "rank 0 failed");

            outbox.fail(0, e);

            assertFalse(outbox.anyQueued());
            assertEquals(List.of(e), m.completions);
            assertTrue(rts.completions.isEmpty(), "a rendezvous send fails with its transfer, not here");
            assertEquals(0, outbox.flush(), "nothing left to write");
        }
    }

    private static ShmRing[] rings(final MemorySegment mem) {
        return new ShmRing[] {new ShmRing(mem, 0, CAPACITY), new ShmRing(mem, RING_STRIDE, CAPACITY)};
    }

    /** The record the ring holds next, in its line-aligned room, equals the image; then it is consumed. */
    private static void expect(final ShmRing in, final MemorySegment mem, final ByteBuffer image) {
        final long h = in.peek();
        final int length = image.getInt(0);
        assertEquals(image.getInt(4), ShmRing.type(h), "type");
        assertEquals(length, ShmRing.length(h), "length");
        final byte[] actual = mem.asSlice(in.recordAt(), ShmRing.alignLine(length)).toArray(ValueLayout.JAVA_BYTE);
        final byte[] expected = new byte[(int) ShmRing.alignLine(length)];
        image.get(0, expected, 0, length);
        assertArrayEquals(expected, actual, "record of type " + ShmRing.type(h));
        in.consume(h);
    }

    /** The image of a record: its header (little-endian machine: length, then type) and zeroes. */
    private static ByteBuffer record(final int type, final int length) {
        assertEquals(ByteOrder.LITTLE_ENDIAN, ByteOrder.nativeOrder(), "images are little-endian");
        return ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN).putInt(0, length).putInt(4, type);
    }

    private static ByteBuffer envelope(final int type, final int length, final int context, final int tag,
        final int typeCode) {
        return record(type, length).putInt(8, context).putInt(12, SELF).putInt(16, tag).putInt(20, typeCode);
    }

    private static MemorySegment bytes(final int n) {
        final byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i + 1);
        }
        return MemorySegment.ofArray(b);
    }

    /** An outbound message that records its completions. */
    private static final class Message implements Outbound {
        final List<Throwable> completions = new ArrayList<>();
        private final int context;
        private final int tag;
        private final int typeCode;
        private final MemorySegment payload;

        Message(final int context, final int tag, final int typeCode, final MemorySegment payload) {
            this.context = context;
            this.tag = tag;
            this.typeCode = typeCode;
            this.payload = payload;
        }

        @Override
        public int context() {
            return context;
        }

        @Override
        public int source() {
            return SELF;
        }

        @Override
        public int tag() {
            return tag;
        }

        @Override
        public int typeCode() {
            return typeCode;
        }

        @Override
        public MemorySegment payload() {
            return payload;
        }

        @Override
        public void sent(final Throwable failure) {
            completions.add(failure);
        }
    }
}
