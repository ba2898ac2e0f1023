package dev.tutti.transport.shm;

import java.lang.foreign.MemorySegment;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Allocator of a rank's shared arena: the part of the job file where this rank's single-copy buffers live. A send
 * whose payload lies in it is announced by its offset in the file, and the receiver copies it straight out of its
 * own mapping (one copy instead of two).
 *
 * <p>Implementation notes. First fit over a free map (offset → length) with coalescing on free; blocks are
 * multiples of 64 bytes, 64-aligned. Only this process allocates in its arena; all methods synchronize on this
 * object (allocation is not on the message path).
 */
final class SharedArena {
    private static final long ALIGN = 64;

    private final MemorySegment file;
    private final long base;
    private final long bytes;
    private final TreeMap<Long, Long> free = new TreeMap<>();
    private final Map<Long, Long> used = new HashMap<>();

    SharedArena(final MemorySegment file, final long base, final long bytes) {
        this.file = file;
        this.base = base;
        this.bytes = bytes;
        if (bytes > 0) {
            free.put(base, bytes);
        }
    }

    /**
     * Allocates a block.
     *
     * @param length bytes wanted, at least 1
     * @return the block (a slice of the mapping), zeroed (a block freed earlier keeps its old bytes until then), or
     *         null if the arena has no room
     */
    synchronized MemorySegment allocate(final long length) {
        final long need = ShmLayoutDescriptor.align(Math.max(1, length), ALIGN);
        for (final Map.Entry<Long, Long> e : free.entrySet()) {
            final long at = e.getKey();
            final long room = e.getValue();
            if (room >= need) {
                // Key and length are read before the removal: TreeMap removes a node with two children by moving
                // its successor's key and value into that node, so the entry would then describe another range
                // (and a remainder of the wrong length would overlap live blocks).
                free.remove(at);
                if (room > need) {
                    free.put(at + need, room - need);
                }
                used.put(at, need);
                return file.asSlice(at, length).fill((byte) 0);
            }
        }
        return null;
    }

    /**
     * Frees a block from {@link #allocate}.
     *
     * @param block the block
     * @return false if it is not a block of this arena
     */
    synchronized boolean free(final MemorySegment block) {
        final long at = offsetOf(block);
        final Long length = at < 0 ? null : used.remove(at);
        if (null == length) {
            return false;
        }
        long start = at;
        long len = length;
        final Map.Entry<Long, Long> before = free.floorEntry(at);
        if (null != before && before.getKey() + before.getValue() == at) {
            start = before.getKey();
            len += before.getValue();
            free.remove(before.getKey());
        }
        final Long after = free.remove(at + length);
        if (null != after) {
            len += after;
        }
        free.put(start, len);
        return true;
    }

    /** @return the bytes of the arena not in any block now */
    synchronized long freeBytes() {
        long sum = 0;
        for (final long room : free.values()) {
            sum += room;
        }
        return sum;
    }

    /**
     * Returns the file offset of a segment that lies entirely inside this arena, else -1.
     *
     * @param s any segment
     * @return its offset in the file, or -1
     */
    long offsetOf(final MemorySegment s) {
        if (!s.isNative() || 0 == bytes) {
            return -1;
        }
        final long off = s.address() - file.address();
        return off >= base && off + s.byteSize() <= base + bytes ? off : -1;
    }
}
