package dev.tutti.channel;

import dev.tutti.SharedWindow;

import java.lang.foreign.MemorySegment;

/**
 * Where everything of a one-copy channel lies in its {@link SharedWindow} ({@link WindowExchanges}), for every rank
 * of the window: its landing zones, its sequence lines and its assignment lines; and who sends to whom.
 *
 * <p>The window spans every rank of the channel: the communicator's ranks on an intragroup channel, both groups
 * (merged) on a bipartite one. A rank's <i>peers</i> are the ranks it sends to and receives from: every rank of the
 * group on an intragroup channel (itself included), the remote group on a bipartite one; peer <i>d</i> is block
 * <i>d</i> of a send buffer and of a receive buffer. A rank's <i>index</i> is its place among its peers' peers: its
 * rank in its own group. A rank's block holds, in 64-byte lines: {@code zones} landing zones of {@code stride} bytes
 * (its peers' blocks to it, in peer order), a sequence line per (zone, sender index), then {@code zones}
 * assignments, eight to a line ({@link ZoneAssignments}). Immutable once made.
 */
final class WindowLayout {
    static final long LINE = 64;

    private final MemorySegment[] blocks;
    private final int[] zones;
    private final long[] stride;
    private final long[] seqBase;
    private final long[] lineBase;
    private final int[] senders;
    private final int me;
    private final int index;
    private final int[] peers;
    private final long sendBytes;
    private final long recvBytes;

    /**
     * @param window    the window, a block per rank
     * @param me        this rank's rank in the window
     * @param index     this rank's index among its peers' senders (its rank in its group)
     * @param peers     window ranks of this rank's peers, by peer number
     * @param zones     per window rank: its number of zones
     * @param senders   per window rank: how many peers send to it (its peers' count)
     * @param stride    per window rank: the bytes of one of its zones, in whole lines
     * @param sendBytes the bytes of this rank's block to each peer
     * @param recvBytes the bytes of each peer's block to this rank
     */
    WindowLayout(final SharedWindow window, final int me, final int index, final int[] peers, final int[] zones,
        final int[] senders, final long[] stride, final long sendBytes, final long recvBytes) {
        final int n = zones.length;
        this.blocks = new MemorySegment[n];
        this.zones = zones;
        this.stride = stride;
        this.senders = senders;
        this.seqBase = new long[n];
        this.lineBase = new long[n];
        for (int p = 0; p < n; p++) {
            blocks[p] = window.segment(p);
            seqBase[p] = zones[p] * stride[p];
            lineBase[p] = seqBase[p] + (long) zones[p] * senders[p] * LINE;
        }
        this.me = me;
        this.index = index;
        this.peers = peers;
        this.sendBytes = sendBytes;
        this.recvBytes = recvBytes;
    }

    /** @return the bytes of a rank's block in the window: its zones, sequence lines and assignment lines */
    static long bytes(final int zones, final long stride, final int senders) {
        return zones * stride + (long) zones * senders * LINE + (zones * (long) Long.BYTES + LINE - 1) / LINE * LINE;
    }

    /** @return the bytes of a zone that holds {@code senders} blocks of {@code blockBytes}, in whole lines */
    static long stride(final int senders, final long blockBytes) {
        return (senders * blockBytes + LINE - 1) / LINE * LINE;
    }

    /** @return a window rank's block */
    MemorySegment block(final int p) {
        return blocks[p];
    }

    /** @return this rank's window rank */
    int me() {
        return me;
    }

    /** @return the number of this rank's peers */
    int peerCount() {
        return peers.length;
    }

    /** @return the window rank of peer {@code d} */
    int peer(final int d) {
        return peers[d];
    }

    /** @return a window rank's number of zones */
    int zones(final int p) {
        return zones[p];
    }

    long sendBytes() {
        return sendBytes;
    }

    long recvBytes() {
        return recvBytes;
    }

    /** @return the offset in window rank {@code p}'s block where this rank's block of zone {@code zone} goes */
    long dataAt(final int p, final int zone) {
        return zone * stride[p] + index * sendBytes;
    }

    /** @return the offset in window rank {@code p}'s block of the sequence line of (zone, sender index) */
    long seqAt(final int p, final int zone, final int sender) {
        return seqBase[p] + ((long) zone * senders[p] + sender) * LINE;
    }

    /**
     * Returns where window rank {@code p} says which zone exchange {@code a} (modulo its zones) gets: a long, eight
     * to a line, so that a sender reads the next exchanges' zones with one line, and the receiver's stores take the
     * line back from it once every few exchanges only.
     *
     * @return the offset in window rank {@code p}'s block of its assignment {@code a}
     */
    long lineAt(final int p, final int a) {
        return lineBase[p] + (long) a * Long.BYTES;
    }

    /** @return the number of assignments in a line */
    static int perLine() {
        return (int) (LINE / Long.BYTES);
    }

    /** @return this rank's index among the senders of its peers */
    int index() {
        return index;
    }

    /** @return this rank's zones, by zone number, each {@code peers * recvBytes} long */
    MemorySegment[] ownZones() {
        final MemorySegment[] z = new MemorySegment[zones[me]];
        for (int i = 0; i < z.length; i++) {
            z[i] = blocks[me].asSlice(i * stride[me], peers.length * recvBytes);
        }
        return z;
    }
}
