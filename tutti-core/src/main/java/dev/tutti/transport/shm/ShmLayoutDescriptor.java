package dev.tutti.transport.shm;

import dev.tutti.internal.Errors;

/**
 * The layout of a job's shared-memory file: one file per job in the shm directory ({@code /dev/shm}), mapped by
 * every rank of the job on this host. All numbers are native-endian 64-bit words; every word accessed by more than
 * one process is 8-byte aligned and accessed only through the {@code VarHandle} of
 * {@link java.lang.foreign.ValueLayout#JAVA_LONG} (acquire/release or CAS), never plainly.
 *
 * <pre>
 *  offset 0 ─────────────────────────── GLOBAL HEADER (4096 B) ───────────────────────────────────────────────
 *    0  magic "TUTTISHM"     8  version        16 initState (0 fresh, 1 initializing, 2 ready; CAS + release)
 *   24  ranks               32  ringBytes      40 chunkBytes       48 chunksPerChannel
 *   56  arenaBytes          64  totalBytes     72 creatorPid       80 createdMillis
 *  128  liveRanks (getAndAdd; padded to 256)                  256 jobId length, 264.. jobId UTF-8 (≤ 256 B)
 *  SLOTS_OFFSET = 4096 ────────────── RANK SLOTS: ranks × 256 B ────────────────────────────────────────────────
 *   +0 state (0 empty, 1 joined, 2 left, 3 aborted; release by owner, acquire by peers)
 *   +8 pid     +16 process start (epoch ms, -1 unknown)   — written before the release store of state
 *  inboxesOffset (4096-aligned) ───── INBOX per receiver: ranks × inboxStride ───────────────────────────────────
 *   +0   tail  (producers CAS)                     ┐ each on its own 128 B (two cache lines: no false sharing,
 *   +128 head  (consumer release, producers acquire)┘ no adjacent-line prefetch interference)
 *   +256 data[ringBytes]  MPSC ring of records, each on whole cache lines:
 *        ┌──────────────────────────┬──────────────────────────────┐
 *        │ header: type&lt;&lt;32 | length│ body (length - 8 bytes)      │   header stored last (release),
 *        └──────────────────────────┴──────────────────────────────┘   read first (acquire); 0 = not yet
 *  channelsOffset (4096-aligned) ──── CHUNK CHANNEL per ordered pair (s → r) at index s·ranks + r ────────────
 *   +0   produced (sender release, receiver acquire)   +128 consumed (receiver release, sender acquire)
 *   +256 slot k at 256 + k·slotStride: +0 msgId, +8 offset in message, +16 bytes; data at +64 (chunkBytes)
 *   channel r → r carries nothing (a rank's messages to itself never reach shm): its start is rank r's scratch
 *   ring for {@link ShmRing#warmUp} (tail, head, 512 B of data)
 *  arenasOffset (4096-aligned) ────── SHARED ARENA per rank: ranks × arenaBytes (single-copy buffers) ─────────
 *  totalBytes
 * </pre>
 *
 * <p>Implementation notes. The file is sparse on tmpfs: pages cost memory only once touched, so the p² chunk
 * channels and the arenas cost nothing for pairs and ranks that never use them. Offsets depend only on the
 * parameters in the header, so every rank computes the same layout; the creator writes the parameters and the
 * others check them ({@link ShmFile}). Rings hold records in the style of Agrona's {@code ManyToOneRingBuffer}
 * (see {@link ShmRing}); channels are single-producer single-consumer chunk queues ({@link ShmChannel}).
 */
final class ShmLayoutDescriptor {
    /** "TUTTISHM" in ASCII, little-endian. */
    static final long MAGIC = 0x4D48_5349_5454_5554L;
    /** Layout version; a file of another version is refused. */
    static final long VERSION = 1;

    static final long MAGIC_OFFSET = 0;
    static final long VERSION_OFFSET = 8;
    static final long INIT_STATE_OFFSET = 16;
    static final long RANKS_OFFSET = 24;
    static final long RING_BYTES_OFFSET = 32;
    static final long CHUNK_BYTES_OFFSET = 40;
    static final long CHUNKS_OFFSET = 48;
    static final long ARENA_BYTES_OFFSET = 56;
    static final long TOTAL_BYTES_OFFSET = 64;
    static final long CREATOR_PID_OFFSET = 72;
    static final long CREATED_MILLIS_OFFSET = 80;
    static final long LIVE_RANKS_OFFSET = 128;
    static final long JOB_ID_LENGTH_OFFSET = 256;
    static final long JOB_ID_OFFSET = 264;
    static final int MAX_JOB_ID_BYTES = 256;
    static final long HEADER_BYTES = 4096;

    static final long INIT_FRESH = 0;
    static final long INIT_BUSY = 1;
    static final long INIT_READY = 2;

    static final long SLOTS_OFFSET = HEADER_BYTES;
    static final long SLOT_BYTES = 256;
    static final long SLOT_STATE = 0;
    static final long SLOT_PID = 8;
    static final long SLOT_START_MILLIS = 16;

    static final long STATE_EMPTY = 0;
    static final long STATE_JOINED = 1;
    static final long STATE_LEFT = 2;
    static final long STATE_ABORTED = 3;

    /** Padding of a hot counter: two cache lines. */
    static final long PAD = 128;
    static final long RING_TAIL = 0;
    static final long RING_HEAD = PAD;
    static final long RING_DATA = 2 * PAD;

    static final long CHANNEL_PRODUCED = 0;
    static final long CHANNEL_CONSUMED = PAD;
    static final long CHANNEL_SLOTS = 2 * PAD;
    static final long SLOT_HEADER_BYTES = 64;
    static final long CHUNK_MSG_ID = 0;
    static final long CHUNK_OFFSET = 8;
    static final long CHUNK_BYTES = 16;

    private static final long PAGE = 4096;

    final int ranks;
    final long ringBytes;
    final long chunkBytes;
    final int chunksPerChannel;
    final long arenaBytes;
    final long inboxesOffset;
    final long inboxStride;
    final long channelsOffset;
    final long slotStride;
    final long channelStride;
    final long arenasOffset;
    final long totalBytes;

    /**
     * Computes the layout.
     *
     * @param ranks            ranks of the job
     * @param ringBytes        inbox ring capacity, a power of two
     * @param chunkBytes       chunk size, a multiple of 64
     * @param chunksPerChannel chunk slots per pair
     * @param arenaBytes       shared arena per rank, a multiple of 4096
     */
    ShmLayoutDescriptor(final int ranks, final long ringBytes, final long chunkBytes, final int chunksPerChannel,
        final long arenaBytes) {
        if (ranks < 1 || Long.bitCount(ringBytes) != 1 || ringBytes < 4096 || chunkBytes < 64
            || 0 != chunkBytes % 64 || chunksPerChannel < 1 || arenaBytes < 0 || 0 != arenaBytes % PAGE) {
            throw Errors.refused("shm layout: ranks=" + ranks + " ringBytes=" + ringBytes + " chunkBytes=" + chunkBytes
                + " chunks=" + chunksPerChannel + " arenaBytes=" + arenaBytes, "ranks >= 1, ringBytes a power of "
                + "two >= 4096, chunkBytes a multiple of 64, chunks >= 1, arenaBytes a multiple of 4096");
        }
        this.ranks = ranks;
        this.ringBytes = ringBytes;
        this.chunkBytes = chunkBytes;
        this.chunksPerChannel = chunksPerChannel;
        this.arenaBytes = arenaBytes;
        this.inboxesOffset = align(SLOTS_OFFSET + ranks * SLOT_BYTES, PAGE);
        this.inboxStride = align(RING_DATA + ringBytes, PAGE);
        this.channelsOffset = align(inboxesOffset + ranks * inboxStride, PAGE);
        this.slotStride = SLOT_HEADER_BYTES + chunkBytes;
        // At least a page, so also room for a scratch ring (ShmRing.WARM_UP_FOOTPRINT) in the channel to oneself.
        this.channelStride = align(CHANNEL_SLOTS + chunksPerChannel * slotStride, PAGE);
        this.arenasOffset = align(channelsOffset + (long) ranks * ranks * channelStride, PAGE);
        this.totalBytes = arenasOffset + ranks * arenaBytes;
    }

    /** @return offset of rank {@code r}'s slot */
    long slot(final int r) {
        return SLOTS_OFFSET + r * SLOT_BYTES;
    }

    /** @return offset of rank {@code r}'s inbox (its tail word) */
    long inbox(final int r) {
        return inboxesOffset + r * inboxStride;
    }

    /** @return offset of the chunk channel from {@code sender} to {@code receiver} */
    long channel(final int sender, final int receiver) {
        return channelsOffset + ((long) sender * ranks + receiver) * channelStride;
    }

    /** @return offset of rank {@code r}'s scratch ring for {@link ShmRing#warmUp}: its unused channel to itself */
    long warmUpRing(final int r) {
        return channel(r, r);
    }

    /** @return offset of rank {@code r}'s shared arena */
    long arena(final int r) {
        return arenasOffset + r * arenaBytes;
    }

    /** @return the header bytes plus the slot table: what a stale-file check reads */
    static long headerAndSlotsBytes(final int ranks) {
        return SLOTS_OFFSET + ranks * SLOT_BYTES;
    }

    static long align(final long v, final long to) {
        return (v + to - 1) & -to;
    }

    @Override
    public String toString() {
        return "shm layout(ranks=" + ranks + ", ringBytes=" + ringBytes + ", chunkBytes=" + chunkBytes + ", chunks="
            + chunksPerChannel + ", arenaBytes=" + arenaBytes + ", totalBytes=" + totalBytes + ")";
    }
}
