package dev.tutti.transport.shm;

import dev.tutti.internal.CacheLines;
import dev.tutti.internal.SegmentCopy;

import java.lang.foreign.MemorySegment;

import static dev.tutti.transport.shm.ShmRing.LONG;

/**
 * The chunk channel from one rank to another: a single-producer single-consumer queue of fixed-size chunk slots
 * through which large (rendezvous) messages stream, so that the sender's copy-in of chunk k+1 overlaps the
 * receiver's copy-out of chunk k.
 *
 * <p>Implementation notes. {@code produced} and {@code consumed} count chunks and only grow; slot
 * {@code n % chunks} holds chunk {@code n}. The producer (the sending rank's poll-token holder) fills a slot's
 * header and data plainly, then <b>release</b>-stores {@code produced}; the consumer (the receiving rank's token
 * holder) <b>acquire</b>-loads {@code produced} before reading the slot. The consumer copies the data out, writes a
 * word into each cache line it read (see {@link #release}), then <b>release</b>-stores {@code consumed}; the
 * producer <b>acquire</b>-loads {@code consumed} before it reuses a slot. So a slot belongs to one side at a time.
 * Each side caches the other's counter and rereads it only when the cache says full/empty. Every chunk carries the
 * id of its message, so transfers interleave safely and the receiver finds the transfer without ordering
 * assumptions. No allocation, no lock, no system call.
 */
final class ShmChannel {
    private final MemorySegment file;
    private final long producedAt;
    private final long consumedAt;
    private final long slotsAt;
    private final long slotStride;
    private final long chunkBytes;
    private final int chunks;
    /** Producer side: next chunk number, and the last consumed count seen. */
    private long produced;
    private long consumedCache;
    /** Consumer side: next chunk number, and the last produced count seen. */
    private long consumed;
    private long producedCache;

    /**
     * Creates a view of one channel.
     *
     * @param file   the whole mapping
     * @param layout the layout
     * @param sender sending rank
     * @param target receiving rank
     */
    ShmChannel(final MemorySegment file, final ShmLayoutDescriptor layout, final int sender, final int target) {
        this.file = file;
        final long base = layout.channel(sender, target);
        this.producedAt = base + ShmLayoutDescriptor.CHANNEL_PRODUCED;
        this.consumedAt = base + ShmLayoutDescriptor.CHANNEL_CONSUMED;
        this.slotsAt = base + ShmLayoutDescriptor.CHANNEL_SLOTS;
        this.slotStride = layout.slotStride;
        this.chunkBytes = layout.chunkBytes;
        this.chunks = layout.chunksPerChannel;
        this.produced = (long) LONG.getAcquire(file, producedAt);
        this.consumed = (long) LONG.getAcquire(file, consumedAt);
        this.consumedCache = consumed;
        this.producedCache = produced;
    }

    /** @return bytes per chunk */
    long chunkBytes() {
        return chunkBytes;
    }

    /**
     * Producer: copies one chunk in if a slot is free.
     *
     * @param msgId  the message
     * @param source the payload
     * @param offset where in the payload this chunk starts
     * @param bytes  the chunk's length, at most {@link #chunkBytes()}
     * @return false if every slot is full
     */
    boolean offer(final long msgId, final MemorySegment source, final long offset, final long bytes) {
        if (produced - consumedCache >= chunks) {
            // Acquire pairs with the consumer's release in release(): its copy-out of the slot is complete.
            consumedCache = (long) LONG.getAcquire(file, consumedAt);
            if (produced - consumedCache >= chunks) {
                return false;
            }
        }
        final long slot = slotsAt + (produced % chunks) * slotStride;
        file.set(java.lang.foreign.ValueLayout.JAVA_LONG, slot + ShmLayoutDescriptor.CHUNK_MSG_ID, msgId);
        file.set(java.lang.foreign.ValueLayout.JAVA_LONG, slot + ShmLayoutDescriptor.CHUNK_OFFSET, offset);
        file.set(java.lang.foreign.ValueLayout.JAVA_LONG, slot + ShmLayoutDescriptor.CHUNK_BYTES, bytes);
        SegmentCopy.copy(source, offset, file, slot + ShmLayoutDescriptor.SLOT_HEADER_BYTES, bytes);
        produced++;
        // Release pairs with the consumer's acquire in readySlot(): header and data above are visible to it.
        LONG.setRelease(file, producedAt, produced);
        return true;
    }

    /**
     * Consumer: whether a chunk is ready.
     *
     * @return the file offset of the ready slot, or -1
     */
    long readySlot() {
        if (consumed == producedCache) {
            // Acquire pairs with the producer's release in offer().
            producedCache = (long) LONG.getAcquire(file, producedAt);
            if (consumed == producedCache) {
                return -1;
            }
        }
        return slotsAt + (consumed % chunks) * slotStride;
    }

    /**
     * Consumer: the slot returned by {@link #readySlot()} is copied out; free it. First the consumer takes the cache
     * lines of the data it read ({@link CacheLines#take}), so that the producer's next write to the slot does not
     * invalidate shared copies (bench/repro/ShmCopyModes.java shows what that costs at times). The inbox ring needs
     * nothing of the kind: its consumer zeroes what it read.
     *
     * @param slot  the slot's file offset
     * @param bytes the bytes of data the slot held
     */
    void release(final long slot, final long bytes) {
        CacheLines.take(file, data(slot), bytes); // published by the release below
        consumed++;
        // Release pairs with the producer's acquire in offer(): it may overwrite the slot now.
        LONG.setRelease(file, consumedAt, consumed);
    }

    static long msgId(final MemorySegment file, final long slot) {
        return file.get(java.lang.foreign.ValueLayout.JAVA_LONG, slot + ShmLayoutDescriptor.CHUNK_MSG_ID);
    }

    static long offset(final MemorySegment file, final long slot) {
        return file.get(java.lang.foreign.ValueLayout.JAVA_LONG, slot + ShmLayoutDescriptor.CHUNK_OFFSET);
    }

    static long bytes(final MemorySegment file, final long slot) {
        return file.get(java.lang.foreign.ValueLayout.JAVA_LONG, slot + ShmLayoutDescriptor.CHUNK_BYTES);
    }

    static long data(final long slot) {
        return slot + ShmLayoutDescriptor.SLOT_HEADER_BYTES;
    }
}
