package dev.tutti.transport.tcp;

import java.nio.ByteBuffer;

/**
 * Layout of a frame of the tcp transport: a fixed 48-byte header, little-endian, followed by {@code length}
 * payload bytes for EAGER and DATA frames (none for the others).
 *
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  |     Type      |     Flags     |           Reserved            |  0
 *  +---------------+---------------+-------------------------------+
 *  |                            Context                            |  4
 *  +---------------------------------------------------------------+
 *  |                    Source (sender world rank)                 |  8
 *  +---------------------------------------------------------------+
 *  |                              Tag                              | 12
 *  +---------------------------------------------------------------+
 *  |        Type code (datatype ordinal + collective header)       | 16
 *  +---------------------------------------------------------------+
 *  |                            Reserved                           | 20
 *  +---------------------------------------------------------------+
 *  |                                                               | 24
 *  +                          Length (long)                        +
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                                                               | 32
 *  +                            Id (long)                          +
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                                                               | 40
 *  +                        Id2 / offset (long)                    +
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |      Payload (Length bytes: EAGER, DATA; Id2 bytes: RTS)      ...  48
 *  +---------------------------------------------------------------+
 * </pre>
 *
 * <table>
 *   <caption>Use of the fields per frame type</caption>
 *   <tr><th>type</th><th>context, tag, type code</th><th>length</th><th>id</th><th>id2</th><th>payload</th></tr>
 *   <tr><td>EAGER</td><td>envelope</td><td>message bytes</td><td>-</td><td>-</td><td>the message</td></tr>
 *   <tr><td>RTS</td><td>envelope</td><td>message bytes</td><td>sender's send id</td><td>prefix bytes</td>
 *       <td>the message's first (prefix) bytes</td></tr>
 *   <tr><td>CTS</td><td>-</td><td>bytes the receiver takes (&le; message)</td><td>sender's send id</td>
 *       <td>receiver's receive id</td><td>none</td></tr>
 *   <tr><td>DATA</td><td>-</td><td>chunk bytes</td><td>receiver's receive id</td><td>offset of the chunk in the
 *       message</td><td>the chunk</td></tr>
 *   <tr><td>BYE</td><td>-</td><td>0</td><td>-</td><td>-</td><td>none: the last frame on the connection; answered
 *       by the peer's BYE</td></tr>
 *   <tr><td>ABORT</td><td>-</td><td>0</td><td>-</td><td>-</td><td>none: the sender failed; the last frame</td></tr>
 * </table>
 *
 * <p>Source is checked against the connection's peer on every frame; unused fields are zero.
 */
final class FrameDescriptor {
    /** Offset of the frame type (byte). */
    static final int TYPE_OFFSET = 0;
    /** Offset of the flags (byte, zero). */
    static final int FLAGS_OFFSET = 1;
    /** Offset of the context id (int). */
    static final int CONTEXT_OFFSET = 4;
    /** Offset of the sender's world rank (int). */
    static final int SOURCE_OFFSET = 8;
    /** Offset of the tag (int). */
    static final int TAG_OFFSET = 12;
    /** Offset of the type code (int, opaque here: see dev.tutti.type.TypeCode). */
    static final int TYPE_CODE_OFFSET = 16;
    /** Offset of the length (long). */
    static final int LENGTH_OFFSET = 24;
    /** Offset of the first id (long). */
    static final int ID_OFFSET = 32;
    /** Offset of the second id or chunk offset (long). */
    static final int ID2_OFFSET = 40;
    /** Length of the header; the payload starts here. */
    static final int HEADER_LENGTH = 48;

    /** A message sent whole: header and payload. */
    static final byte EAGER = 1;
    /** Request to send: announces a rendezvous message without its payload. */
    static final byte RTS = 2;
    /** Clear to send: the receiver matched an RTS and has a destination for it. */
    static final byte CTS = 3;
    /** A chunk of a rendezvous message, addressed by the receiver's receive id. */
    static final byte DATA = 4;
    /**
     * Goodbye: the sender sends nothing after this frame; a close without it is a failure. The receiving I/O thread
     * answers with its own BYE at once (if it has not said goodbye already), so a closing rank waits one round trip
     * for its peers, not until their programs close too.
     */
    static final byte BYE = 5;
    /** Abort: the sender's program failed and it leaves without goodbye; the receiver fails the peer at once. */
    static final byte ABORT = 6;

    private FrameDescriptor() {
    }

    /**
     * Writes a header at an absolute index of a little-endian buffer (position and limit are not changed).
     *
     * @param buf      the buffer, little-endian
     * @param index    where the header starts
     * @param type     the frame type
     * @param context  context id
     * @param source   sender's world rank
     * @param tag      tag
     * @param typeCode type code
     * @param length   the length field
     * @param id       the id field
     * @param id2      the id2 field
     */
    static void putHeader(final ByteBuffer buf, final int index, final byte type, final int context,
        final int source, final int tag, final int typeCode, final long length, final long id, final long id2) {
        buf.putInt(index + TYPE_OFFSET, type & 0xFF); // type, flags = 0 and reserved = 0 in one little-endian int
        buf.putInt(index + CONTEXT_OFFSET, context);
        buf.putInt(index + SOURCE_OFFSET, source);
        buf.putInt(index + TAG_OFFSET, tag);
        buf.putInt(index + TYPE_CODE_OFFSET, typeCode);
        buf.putInt(index + TYPE_CODE_OFFSET + 4, 0);
        buf.putLong(index + LENGTH_OFFSET, length);
        buf.putLong(index + ID_OFFSET, id);
        buf.putLong(index + ID2_OFFSET, id2);
    }

    /**
     * Names a frame type for messages.
     *
     * @param type the type byte
     * @return its name
     */
    static String typeName(final int type) {
        return switch (type) {
            case EAGER -> "EAGER";
            case RTS -> "RTS";
            case CTS -> "CTS";
            case DATA -> "DATA";
            case BYE -> "BYE";
            case ABORT -> "ABORT";
            default -> "UNKNOWN(" + type + ")";
        };
    }
}
