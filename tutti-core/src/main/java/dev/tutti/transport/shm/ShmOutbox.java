package dev.tutti.transport.shm;

import dev.tutti.TuttiException;
import dev.tutti.internal.SegmentCopy;
import dev.tutti.transport.Outbound;

import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * The sending side of a {@link ShmTransport}: writes its records ({@link ShmRecordDescriptor}) into the peers'
 * inbox rings, in order per destination, and keeps those that find no room until the poller writes them.
 *
 * <p>Implementation notes. Any thread sends: a record is written straight into the destination's ring (lock-free
 * claim/commit, {@link ShmRing}) when nothing is queued for that destination; when the ring is full, or records
 * are already queued, it joins the destination's queue (under that queue's lock) and {@code pendingCount[d]}
 * counts it. A thread's records to one destination therefore keep their order: once one of them is queued, the
 * next ones queue behind it, and the poller ({@link #flush}, the transport's token holder) decrements the count
 * only after a queued record is in the ring. An eager send whose record is queued completes when the poller writes
 * it (back-pressure: a receiver that does not poll stalls its senders, and nothing is copied to the heap
 * meanwhile). No lock and no allocation when the ring has room.
 *
 * <p>The receiver polls a record's first line, where its header goes last (release). An eager record of four lines
 * or more ({@link #FIRST_LINE_LAST_FROM}) is written from its second line on first, and its first line (envelope,
 * the payload's first bytes, header) last, in one burst: written first, that line would be taken back by the polling
 * receiver's reads while the later lines' stores wait for their own lines, and the header's store would then have to
 * take it once more, one more crossing between the cores per message (so a 2-rank ping-pong of 192-512 B and 2 KiB
 * took 7-17 % less time, of 1 KiB as long, bench/RESULTS.md). Smaller records keep the plain order: for them the
 * split copy costs more than it saves.
 */
final class ShmOutbox {
    /** Payload bytes in an eager record's first line, behind its header and envelope. */
    private static final int FIRST_LINE_PAYLOAD = (int) ShmRing.LINE - ShmRecordDescriptor.PAYLOAD_OFFSET;
    /** Payload bytes from which an eager record's first line is written last: those of records of 4 lines or more. */
    static final int FIRST_LINE_LAST_FROM = 3 * (int) ShmRing.LINE - ShmRecordDescriptor.PAYLOAD_OFFSET + 1;
    private final MemorySegment seg;
    private final int rank;
    private final ShmRing[] rings;
    private final AtomicIntegerArray pendingCount;
    private final AtomicInteger pendingTotal = new AtomicInteger();
    private final ArrayDeque<Pending>[] pending;

    /**
     * Creates the outbox of one rank.
     *
     * @param seg   the whole mapping
     * @param rank  this rank (the source of every record)
     * @param rings every rank's inbox, by world rank
     */
    @SuppressWarnings({"rawtypes", "unchecked"}) // an array of generic queues, one per destination
    ShmOutbox(final MemorySegment seg, final int rank, final ShmRing[] rings) {
        this.seg = seg;
        this.rank = rank;
        this.rings = rings;
        this.pendingCount = new AtomicIntegerArray(rings.length);
        this.pending = new ArrayDeque[rings.length];
        for (int r = 0; r < rings.length; r++) {
            pending[r] = new ArrayDeque<>();
        }
    }

    /** @return whether records wait for room in any destination's ring */
    boolean anyQueued() {
        return 0 != pendingTotal.get();
    }

    /**
     * Sends an EAGER record: written now and the send completed, or queued and completed when written.
     *
     * @param d the destination
     * @param m the message
     */
    void sendEager(final int d, final Outbound m) {
        if (0 == pendingCount.get(d) && writeEager(d, m)) {
            m.sent(null);
        } else {
            enqueue(d, new Pending(ShmRecordDescriptor.EAGER, m, 0, 0));
        }
    }

    /**
     * Writes an EAGER record now if nothing is queued for {@code d} and its ring has room.
     *
     * @param d        the destination
     * @param context  context id
     * @param tag      tag
     * @param typeCode datatype ordinal
     * @param payload  the message
     * @return whether it was written (else nothing happened)
     */
    boolean tryEager(final int d, final int context, final int tag, final int typeCode, final MemorySegment payload) {
        return 0 == pendingCount.get(d) && writeEager(d, context, tag, typeCode, payload);
    }

    /**
     * Writes an RTS* record now if nothing is queued for {@code d} and its ring has room.
     *
     * @param d        the destination
     * @param m        the message
     * @param type     the record type
     * @param msgId    the message id
     * @param sharedAt the payload's file offset, or -1
     * @return whether it was written (else nothing happened)
     */
    boolean tryRts(final int d, final Outbound m, final int type, final long msgId, final long sharedAt) {
        return 0 == pendingCount.get(d) && writeRts(d, m, type, msgId, sharedAt);
    }

    /**
     * Sends an RTS or RTS_SHARED record: written now or queued. The send completes later, on CTS or FIN.
     *
     * @param d        the destination
     * @param m        the message
     * @param type     {@link ShmRecordDescriptor#RTS} or {@link ShmRecordDescriptor#RTS_SHARED}
     * @param msgId    the message id
     * @param sharedAt the payload's file offset, or -1
     */
    void sendRts(final int d, final Outbound m, final int type, final long msgId, final long sharedAt) {
        if (0 != pendingCount.get(d) || !writeRts(d, m, type, msgId, sharedAt)) {
            enqueue(d, new Pending(type, m, msgId, sharedAt));
        }
    }

    /**
     * Writes a control record now if nothing is queued for {@code d} and its ring has room.
     *
     * @param d     the destination
     * @param type  the record type
     * @param msgId the message id
     * @param value the value
     * @return whether it was written (else nothing happened)
     */
    boolean tryControl(final int d, final int type, final long msgId, final long value) {
        return 0 == pendingCount.get(d) && writeControl(d, type, msgId, value);
    }

    /**
     * Sends a control record (CTS, FIN, BYE), in order with the other records to {@code d}.
     *
     * @param d     the destination
     * @param type  the record type
     * @param msgId the message id
     * @param value the value
     */
    void sendControl(final int d, final int type, final long msgId, final long value) {
        if (0 != pendingCount.get(d) || !writeControl(d, type, msgId, value)) {
            enqueue(d, new Pending(type, null, msgId, value));
        }
    }

    /**
     * Poller: writes queued records while their rings have room, completing the eager sends among them.
     *
     * @return records written
     */
    int flush() {
        int work = 0;
        for (int d = 0; d < rings.length; d++) {
            if (0 == pendingCount.get(d)) {
                continue;
            }
            synchronized (pending[d]) {
                final ArrayDeque<Pending> q = pending[d];
                Pending p;
                while (null != (p = q.peekFirst())) {
                    if (!write(d, p)) {
                        break;
                    }
                    q.pollFirst();
                    pendingCount.decrementAndGet(d);
                    pendingTotal.decrementAndGet();
                    work++;
                    if (ShmRecordDescriptor.EAGER == p.type) {
                        p.out.sent(null);
                    }
                }
            }
        }
        return work;
    }

    /**
     * Drops the records queued for {@code d}, failing the eager sends among them (the others fail with their
     * transfers).
     *
     * @param d the destination
     * @param e the cause
     */
    void fail(final int d, final TuttiException e) {
        synchronized (pending[d]) {
            for (final Pending p : pending[d]) {
                pendingTotal.decrementAndGet();
                if (null != p.out && ShmRecordDescriptor.EAGER == p.type) {
                    p.out.sent(e);
                }
            }
            pending[d].clear();
            pendingCount.set(d, 0);
        }
    }

    private void enqueue(final int d, final Pending p) {
        synchronized (pending[d]) {
            pending[d].addLast(p);
            pendingCount.incrementAndGet(d);
            pendingTotal.incrementAndGet();
        }
    }

    private boolean write(final int d, final Pending p) {
        return switch (p.type) {
            case ShmRecordDescriptor.EAGER -> writeEager(d, p.out);
            case ShmRecordDescriptor.RTS, ShmRecordDescriptor.RTS_SHARED -> writeRts(d, p.out, p.type, p.msgId,
                p.value);
            default -> writeControl(d, p.type, p.msgId, p.value);
        };
    }

    private boolean writeEager(final int d, final Outbound m) {
        return writeEager(d, m.context(), m.tag(), m.typeCode(), m.payload());
    }

    private boolean writeEager(final int d, final int context, final int tag, final int typeCode,
        final MemorySegment payload) {
        final int length = (int) payload.byteSize();
        final int recordBytes = ShmRecordDescriptor.EAGER_HEADER_BYTES + length;
        final ShmRing ring = rings[d];
        final long at = ring.tryClaim(recordBytes);
        if (ShmRing.FULL == at) {
            return false;
        }
        final MemorySegment f = seg;
        try {
            if (length >= FIRST_LINE_LAST_FROM) { // the lines after the first, then the first: see the class note
                SegmentCopy.copy(payload, FIRST_LINE_PAYLOAD, f, at + ShmRing.LINE, length - FIRST_LINE_PAYLOAD);
                ShmRecordDescriptor.putEnvelope(f, at, context, rank, tag, typeCode);
                SegmentCopy.copy(payload, 0, f, at + ShmRecordDescriptor.PAYLOAD_OFFSET, FIRST_LINE_PAYLOAD);
            } else {
                ShmRecordDescriptor.putEnvelope(f, at, context, rank, tag, typeCode);
                if (0 != length) {
                    SegmentCopy.copy(payload, 0, f, at + ShmRecordDescriptor.PAYLOAD_OFFSET, length);
                }
            }
        } catch (final RuntimeException e) {
            ring.commit(at, ShmRing.TYPE_PAD, recordBytes);
            throw e;
        }
        ring.commit(at, ShmRecordDescriptor.EAGER, recordBytes);
        return true;
    }

    private boolean writeRts(final int d, final Outbound m, final int type, final long msgId, final long sharedAt) {
        final ShmRing ring = rings[d];
        final long at = ring.tryClaim(ShmRecordDescriptor.RTS_BYTES);
        if (ShmRing.FULL == at) {
            return false;
        }
        final MemorySegment f = seg;
        ShmRecordDescriptor.putEnvelope(f, at, m.context(), rank, m.tag(), m.typeCode());
        ShmRecordDescriptor.putRts(f, at, m.payload().byteSize(), msgId, sharedAt);
        ring.commit(at, type, ShmRecordDescriptor.RTS_BYTES);
        return true;
    }

    private boolean writeControl(final int d, final int type, final long msgId, final long value) {
        final ShmRing ring = rings[d];
        final long at = ring.tryClaim(ShmRecordDescriptor.CONTROL_BYTES);
        if (ShmRing.FULL == at) {
            return false;
        }
        ShmRecordDescriptor.putControl(seg, at, rank, msgId, value);
        ring.commit(at, type, ShmRecordDescriptor.CONTROL_BYTES);
        return true;
    }

    /** A record that waits for room in a destination's ring. */
    private record Pending(int type, Outbound out, long msgId, long value) {
    }
}
