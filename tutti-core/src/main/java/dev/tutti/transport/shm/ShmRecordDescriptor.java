package dev.tutti.transport.shm;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * Layout of the records that {@link ShmTransport} writes into a rank's inbox ring ({@link ShmRing}): a header word,
 * then a fixed body per record type, then (EAGER only) the payload. Fields are native-endian, like the rest of the
 * job file ({@link ShmLayoutDescriptor}); offsets count from the record's start, which the ring keeps on a cache line.
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |                                                               |  0
 *  +    Header (long): type in bits 32-63, record length in 0-31   +
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  Envelope records (EAGER, RTS, RTS_SHARED, RTS_PUSH):
 *  +---------------------------------------------------------------+
 *  |                            Context                            |  8
 *  +---------------------------------------------------------------+
 *  |                   Source (sender world rank)                  | 12
 *  +---------------------------------------------------------------+
 *  |                              Tag                              | 16
 *  +---------------------------------------------------------------+
 *  |                  Type code (Datatype ordinal)                 | 20
 *  +---------------------------------------------------------------+
 *  |  EAGER: payload (record length - 24 bytes)                 ... 24
 *  +---------------------------------------------------------------+
 *  RTS*, from 24:
 *  +---------------------------------------------------------------+
 *  |                                                               | 24
 *  +                  Length (long, message bytes)                 +
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                                                               | 32
 *  +                Message id (long, the sender's)                +
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                                                               | 40
 *  +     Shared offset (long, the payload's file offset, or -1)    +
 *  |                                                               |
 *  +---------------------------------------------------------------+ 48
 *  Control records (CTS, FIN, BYE), from 8:
 *  +---------------------------------------------------------------+
 *  |                   Source (sender world rank)                  |  8
 *  +---------------------------------------------------------------+
 *  |                        Reserved (zero)                        | 12
 *  +---------------------------------------------------------------+
 *  |                                                               | 16
 *  +                       Message id (long)                       +
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                                                               | 24
 *  +                          Value (long)                         +
 *  |                                                               |
 *  +---------------------------------------------------------------+ 32
 * </pre>
 *
 * <table>
 *   <caption>Use of the fields per record type (the header's length is the record's, header included)</caption>
 *   <tr><th>type</th><th>code</th><th>length</th><th>context, tag, type code</th><th>source</th>
 *       <th>length field</th><th>message id</th><th>shared offset / value</th><th>payload</th></tr>
 *   <tr><td>EAGER</td><td>1</td><td>24 + payload</td><td>envelope</td><td>sender</td><td>-</td><td>-</td>
 *       <td>-</td><td>the message</td></tr>
 *   <tr><td>RTS</td><td>2</td><td>48</td><td>envelope</td><td>sender</td><td>message bytes</td>
 *       <td>sender's message id</td><td>-1</td><td>none: CTS asks for it</td></tr>
 *   <tr><td>RTS_SHARED</td><td>3</td><td>48</td><td>envelope</td><td>sender</td><td>message bytes</td>
 *       <td>sender's message id</td><td>the payload's offset in the job file (the sender's shared arena)</td>
 *       <td>none: the receiver copies it out and answers FIN</td></tr>
 *   <tr><td>CTS</td><td>4</td><td>32</td><td>-</td><td>the receiver of the message</td><td>-</td>
 *       <td>the message's (sender's) id</td><td>bytes wanted (&le; message; 0: none)</td><td>none</td></tr>
 *   <tr><td>FIN</td><td>5</td><td>32</td><td>-</td><td>the receiver of the message</td><td>-</td>
 *       <td>the message's (sender's) id</td><td>0</td><td>none</td></tr>
 *   <tr><td>BYE</td><td>6</td><td>32</td><td>-</td><td>sender</td><td>-</td><td>0</td><td>0</td>
 *       <td>none: the sender's last record</td></tr>
 *   <tr><td>RTS_PUSH</td><td>7</td><td>48</td><td>envelope</td><td>sender</td><td>message bytes</td>
 *       <td>sender's message id</td><td>-1</td><td>none: its chunks follow without CTS</td></tr>
 *   <tr><td>PAD</td><td>0x7FFF</td><td>to the ring's end</td><td colspan="6">none: skipped by the ring
 *       ({@link ShmRing#TYPE_PAD}); also what an EAGER record whose payload copy failed becomes</td></tr>
 * </table>
 *
 * <p>The header is stored last (release) and read first (acquire), see {@link ShmRing}. The ring rounds a record's
 * room up to whole cache lines (the header keeps the unrounded length, so EAGER's payload is its length less 24) and
 * hands out only zeroed room, so reserved bytes and rounding are zero. The chunks of RTS and RTS_PUSH messages travel through the
 * pair's chunk channel, not the ring ({@link ShmChannel}, slot layout in {@link ShmLayoutDescriptor}).
 * Writers use the put helpers below (static and small: C2 inlines them into the hot write methods, "inline (hot)"
 * in {@code -XX:+PrintInlining}). Readers read the fields in place at the named offsets, on purpose: the inbox is
 * drained on every poll and a record arrives on few of them, so C2 refuses to inline an ordinary call on the
 * record's branch ("low call site frequency"), while {@code MemorySegment.get} is inlined by force.
 */
final class ShmRecordDescriptor {
    /** A message sent whole: envelope and payload. */
    static final int EAGER = 1;
    /** Request to send: announces a rendezvous message without its payload; the receiver answers CTS. */
    static final int RTS = 2;
    /** Request to send of a payload in the sender's shared arena: the receiver copies it out and answers FIN. */
    static final int RTS_SHARED = 3;
    /** Clear to send: the receiver matched an RTS and wants this many bytes streamed. */
    static final int CTS = 4;
    /** Finished: the receiver copied an RTS_SHARED payload out; the send completes. */
    static final int FIN = 5;
    /** Goodbye: the sender writes nothing after it. */
    static final int BYE = 6;
    /** Request to send whose chunks follow at once, without CTS. */
    static final int RTS_PUSH = 7;

    /** Offset of the context id (int) of an envelope record (EAGER, RTS, RTS_SHARED, RTS_PUSH). */
    static final int CONTEXT_OFFSET = ShmRing.HEADER_BYTES;
    /** Offset of the sender's world rank (int) of an envelope record. */
    static final int SOURCE_OFFSET = 12;
    /** Offset of the tag (int) of an envelope record. */
    static final int TAG_OFFSET = 16;
    /** Offset of the datatype ordinal (int) of an envelope record. */
    static final int TYPE_CODE_OFFSET = 20;
    /** Bytes of an EAGER record before its payload: header and envelope. */
    static final int EAGER_HEADER_BYTES = 24;
    /** Offset of an EAGER record's payload. */
    static final int PAYLOAD_OFFSET = EAGER_HEADER_BYTES;
    /** Offset of the message's length in bytes (long) of an RTS* record. */
    static final int LENGTH_OFFSET = 24;
    /** Offset of the sender's message id (long) of an RTS* record. */
    static final int MSG_ID_OFFSET = 32;
    /** Offset of the payload's file offset (long) of an RTS* record: -1 but for RTS_SHARED. */
    static final int SHARED_AT_OFFSET = 40;
    /** Bytes of an RTS, RTS_SHARED or RTS_PUSH record. */
    static final int RTS_BYTES = 48;

    /** Offset of the sender's world rank (int) of a control record (CTS, FIN, BYE). */
    static final int CONTROL_SOURCE_OFFSET = ShmRing.HEADER_BYTES;
    /** Offset of the message id (long) of a control record. */
    static final int CONTROL_MSG_ID_OFFSET = 16;
    /** Offset of the value (long) of a control record: CTS's bytes wanted, else 0. */
    static final int CONTROL_VALUE_OFFSET = 24;
    /** Bytes of a CTS, FIN or BYE record. */
    static final int CONTROL_BYTES = 32;

    private ShmRecordDescriptor() {
    }

    /**
     * Writes the envelope of an EAGER or RTS* record.
     *
     * @param f        the mapping
     * @param at       the record's offset ({@link ShmRing#tryClaim})
     * @param context  context id
     * @param source   sender's world rank
     * @param tag      tag
     * @param typeCode datatype ordinal
     */
    static void putEnvelope(final MemorySegment f, final long at, final int context, final int source,
        final int tag, final int typeCode) {
        f.set(ValueLayout.JAVA_INT, at + CONTEXT_OFFSET, context);
        f.set(ValueLayout.JAVA_INT, at + SOURCE_OFFSET, source);
        f.set(ValueLayout.JAVA_INT, at + TAG_OFFSET, tag);
        f.set(ValueLayout.JAVA_INT, at + TYPE_CODE_OFFSET, typeCode);
    }

    /**
     * Writes the fields of an RTS* record after its envelope.
     *
     * @param f        the mapping
     * @param at       the record's offset
     * @param length   the message's bytes
     * @param msgId    the sender's message id
     * @param sharedAt the payload's file offset (RTS_SHARED), else -1
     */
    static void putRts(final MemorySegment f, final long at, final long length, final long msgId,
        final long sharedAt) {
        f.set(ValueLayout.JAVA_LONG, at + LENGTH_OFFSET, length);
        f.set(ValueLayout.JAVA_LONG, at + MSG_ID_OFFSET, msgId);
        f.set(ValueLayout.JAVA_LONG, at + SHARED_AT_OFFSET, sharedAt);
    }

    /**
     * Writes the body of a CTS, FIN or BYE record.
     *
     * @param f      the mapping
     * @param at     the record's offset
     * @param source sender's world rank
     * @param msgId  the message id
     * @param value  the value
     */
    static void putControl(final MemorySegment f, final long at, final int source, final long msgId,
        final long value) {
        f.set(ValueLayout.JAVA_INT, at + CONTROL_SOURCE_OFFSET, source);
        f.set(ValueLayout.JAVA_LONG, at + CONTROL_MSG_ID_OFFSET, msgId);
        f.set(ValueLayout.JAVA_LONG, at + CONTROL_VALUE_OFFSET, value);
    }
}
