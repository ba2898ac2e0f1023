package dev.tutti.transport.shm;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * A many-producer, one-consumer ring of variable-length records in shared memory: the inbox of one rank. Any
 * thread of any process may produce ({@link #tryClaim}, write the body, {@link #commit}); only the owning rank's
 * poll-token holder consumes ({@link #peek}, {@link #consume}, {@link #releaseConsumed}).
 *
 * <p>Implementation notes (after Agrona's {@code ManyToOneRingBuffer}).
 * <ul>
 * <li>{@code tail} and {@code head} are byte positions that only grow; the index is {@code position & mask}.
 * Producers claim {@code [tail, tail + aligned)} by CAS on {@code tail}; a record that would cross the end is
 * preceded by a padding record up to the end, claimed in the same CAS.</li>
 * <li>Every record starts on a cache line ({@link #LINE}: its room is rounded up to whole lines), so a record of up
 * to 64 bytes (an EAGER record of up to 40 payload bytes) is one line, and a larger one spans no more lines than
 * its length needs: the receiver of a message takes one line, or the fewest, from the sender's core. A record
 * packed behind the previous one would straddle two lines at many sizes, and share its first line with a record
 * the consumer has read.</li>
 * <li>A record's first word is its header {@code type << 32 | length}. The producer writes the body plainly, then
 * <b>release</b>-stores the header ({@link #commit}); the consumer <b>acquire</b>-loads the header
 * ({@link #peek}) and reads the body after it. A zero header means "claimed but not yet committed" (or free):
 * the consumer stops there, so a producer's records are consumed in its claim order.</li>
 * <li>The consumer zeroes consumed records, then <b>release</b>-stores {@code head} ({@link #releaseConsumed});
 * producers <b>acquire</b>-load {@code head} before deciding a range is free, so they never overwrite bytes the
 * consumer still reads or zeroes, and a stale body word can never look like a header. The poller releases in batches
 * of {@code releaseBatch} bytes ({@link #releaseBatch}: 4 KiB, an eighth of a small ring): zeroing a record is
 * stores to lines the producer's core wrote, each of which must take the line back from that core, and then the
 * shared head's line; per message that work sat between one receive and the next, in batches it is one pass over
 * many lines (bench/RESULTS.md). Held back, at most {@code releaseBatch} bytes, less than the ring minus the
 * largest claim with its padding (half the ring), so a producer that waits for room always gets it once the
 * consumer has read what is committed.</li>
 * <li>Cost: one CAS per record for a producer, which reads the consumer-written head only when its cached bound
 * ({@code headCache}) leaves too little room; for the consumer one acquire load per poll, and the zeroing of what
 * it read once per batch; no allocation, no lock, no system call. Known limit: a producer
 * process that dies between its claim and its commit leaves a zero header that blocks the ring (the job is
 * failing anyway; the launcher takes it down).</li>
 * </ul>
 */
final class ShmRing {
    /** Coordinates (MemorySegment, long offset); every cross-process word goes through it. */
    static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    /** Result of {@link #tryClaim} when the ring has no room. */
    static final long FULL = -1;
    /** Bytes of a record header. */
    static final int HEADER_BYTES = 8;
    /** Bytes of a cache line: every record starts on one. */
    static final long LINE = 64;
    /** The most consumed bytes the poller holds back before zeroing and releasing them ({@link #releaseBatch}). */
    private static final long RELEASE_BATCH = 4096;
    /** Type of a padding record (skipped by the consumer). */
    static final int TYPE_PAD = 0x7FFF;
    /** Data bytes of the scratch ring of {@link #warmUp}: small, so that it wraps every few records. */
    static final int WARM_UP_BYTES = 512;
    /** Bytes {@link #warmUp} uses at its offset: the counters and the data. */
    static final long WARM_UP_FOOTPRINT = ShmLayoutDescriptor.RING_DATA + WARM_UP_BYTES;
    /** Records {@link #warmUp} runs through the scratch ring: with 500, one of the paths still trapped once. */
    static final int WARM_UP_RECORDS = 1_000;
    /** Type of the records {@link #warmUp} writes (never seen by a transport). */
    private static final int TYPE_WARM_UP = 0x7FFE;
    /** Source of the zeroes written over consumed records longer than 256 bytes (never written). */
    private static final byte[] ZEROS = new byte[4096];

    private final MemorySegment file;
    private final long tailAt;
    private final long headAt;
    private final long dataAt;
    private final long capacity;
    private final long mask;
    /** Consumer-owned: the next record to read (only the token holder touches it). */
    private long head;
    /** Consumer-owned: consumed records below this are zeroed and published as the shared head. */
    private long released;
    /**
     * Producers' last read of the shared head, a lower bound of it (head only grows): a producer reads the shared
     * head, a line the consumer writes on every poll that took records, only when this bound leaves too little room.
     * Racy between this process's producer threads on purpose: any value some thread read is a valid lower bound.
     */
    private volatile long headCache;
    /** Consumed bytes that {@link #releaseBatch} lets accumulate: {@link #RELEASE_BATCH}, an eighth of a small ring. */
    private final long releaseBatch;

    /**
     * Creates a view of one inbox.
     *
     * @param file     the whole mapping
     * @param offset   the inbox's offset ({@link ShmLayoutDescriptor#inbox})
     * @param capacity data bytes, a power of two
     */
    ShmRing(final MemorySegment file, final long offset, final long capacity) {
        this.file = file;
        this.tailAt = offset + ShmLayoutDescriptor.RING_TAIL;
        this.headAt = offset + ShmLayoutDescriptor.RING_HEAD;
        this.dataAt = offset + ShmLayoutDescriptor.RING_DATA;
        this.capacity = capacity;
        this.mask = capacity - 1;
        this.releaseBatch = Math.min(RELEASE_BATCH, capacity / 8);
        this.head = (long) LONG.getAcquire(file, headAt);
        this.released = head;
        this.headCache = head;
    }

    /** @return the largest record (header included) this ring accepts */
    long maxRecordBytes() {
        return capacity / 4;
    }

    /**
     * Claims room for a record.
     *
     * @param length record bytes including the 8-byte header, at most {@link #maxRecordBytes()}
     * @return the file offset of the record (write the body at +8, then {@link #commit}), or {@link #FULL}
     */
    long tryClaim(final int length) {
        final long aligned = alignLine(length);
        final MemorySegment f = file;
        while (true) {
            final long tail = (long) LONG.getVolatile(f, tailAt);
            final long index = tail & mask;
            final long toEnd = capacity - index;
            final long padding = aligned > toEnd ? toEnd : 0;
            long h = headCache;
            if (aligned + padding > capacity - (tail - h)) {
                // Acquire pairs with the consumer's release in releaseConsumed(): the zeroed range is visible before
                // reuse. A cached head was read the same way by some thread of this process, which then released
                // it through the volatile headCache, so every range below it is zeroed for this thread too.
                h = (long) LONG.getAcquire(f, headAt);
                headCache = h;
                if (aligned + padding > capacity - (tail - h)) {
                    return FULL;
                }
            }
            if (LONG.compareAndSet(f, tailAt, tail, tail + aligned + padding)) {
                if (0 != padding) {
                    // Release pairs with the consumer's acquire in peek(): it skips to the start of the data.
                    LONG.setRelease(f, dataAt + index, header(TYPE_PAD, (int) padding));
                    return dataAt;
                }
                return dataAt + index;
            }
        }
    }

    /**
     * Publishes a claimed record whose body is written.
     *
     * @param recordAt file offset from {@link #tryClaim}
     * @param type     record type, 1..0x7FFE
     * @param length   record bytes including the header, as claimed
     */
    void commit(final long recordAt, final int type, final int length) {
        // Release pairs with the consumer's acquire in peek(): the body written before is visible to it.
        LONG.setRelease(file, recordAt, header(type, length));
    }

    /**
     * Returns the header of the next record if it is committed (padding records are consumed here).
     *
     * @return the header, or 0 if the ring is empty or the next record is not committed yet
     */
    long peek() {
        while (true) {
            if (head - released >= capacity / 2) {
                // Half a lap consumed in one poll: release it now, for the producers' sake and because a full
                // lap would bring head back to records consumed but not yet zeroed (their headers look committed).
                releaseConsumed();
            }
            final long at = dataAt + (head & mask);
            // Acquire pairs with the producer's release in commit()/tryClaim(): the body is visible after it.
            final long h = (long) LONG.getAcquire(file, at);
            if (0 == h || TYPE_PAD != type(h)) {
                return h;
            }
            consume(h);
        }
    }

    /** @return the file offset of the record {@link #peek} returned */
    long recordAt() {
        return dataAt + (head & mask);
    }

    /**
     * Moves past the record {@link #peek} returned. Its bytes stay as they are, and producers cannot reuse them,
     * until {@link #releaseConsumed}.
     *
     * @param header its header
     */
    void consume(final long header) {
        head += alignLine(length(header));
    }

    /**
     * Releases the consumed records ({@link #releaseConsumed}) once they add up to {@code releaseBatch} bytes. The
     * poller calls it at the start of each poll rather than right after consuming: zeroing stores to lines the
     * producer wrote must first take those lines back from the producer's core, and the next atomic instruction
     * would wait for that; at the next poll the rank is usually idle, and once per batch it zeroes many lines at
     * once rather than one or two per message.
     *
     * @return whether anything was released
     */
    boolean releaseBatch() {
        return head - released >= releaseBatch && releaseConsumed();
    }

    /**
     * Zeroes the records consumed since the last release and makes their room available to producers.
     *
     * @return whether anything was released
     */
    boolean releaseConsumed() {
        long from = released;
        final long to = head;
        if (from == to) {
            return false;
        }
        while (from < to) {
            final long index = from & mask;
            final long n = Math.min(to - from, capacity - index);
            final long at = dataAt + index;
            if (n <= 256) {
                for (long i = 0; i < n; i += 8) {
                    file.set(ValueLayout.JAVA_LONG, at + i, 0L);
                }
            } else {
                for (long i = 0; i < n; i += ZEROS.length) { // not fill() on a slice: that slice is garbage
                    MemorySegment.copy(ZEROS, 0, file, ValueLayout.JAVA_BYTE, at + i,
                        (int) Math.min(ZEROS.length, n - i));
                }
            }
            from += n;
        }
        released = to;
        // Release pairs with the producers' acquire of head in tryClaim(): the zeroing above happens-before reuse.
        LONG.setRelease(file, headAt, to);
        return true;
    }

    /**
     * Runs records through a private scratch ring, so that the JIT's profile of this class has seen every path before
     * a transport uses it: padding at the end of the ring, a stale cached head, a full ring, consuming half a lap in
     * one poll, releasing a batch or not yet, zeroing ranges short and long and across the end. Otherwise these paths
     * are first taken when a 1 MiB inbox first wraps, often seconds into a job. C2 compiles a branch that its profile
     * has never seen taken as a trap to the interpreter; each compiled method that inlines the branch then
     * deoptimizes when it is first taken, and is compiled again. With 4 ranks on 2 cores those compilations take the
     * cores from the ranks for the kernel's 4 ms tick, once or more, and a timed loop stalls for milliseconds
     * ({@code -Xlog:deoptimization=debug} shows the traps in {@code tryClaim} and {@code peek}; the diagnosis:
     * bench/RESULTS.md, "Findings kept in the diary"). Profiles belong to the method, not to the ring, so this ring's
     * records count for every ring.
     *
     * <p>Cost: tens of milliseconds at start with 4 ranks starting on 2 cores, most of it in the interpreter (part of
     * it, linking the {@code VarHandle}s, the first messages would pay otherwise), and {@link #WARM_UP_FOOTPRINT}
     * bytes of the file that nothing else uses. {@value #WARM_UP_RECORDS} records leave no trap in these paths in a
     * 4-rank barrier benchmark ({@code -Xlog:deoptimization=debug}). The producer's retry after a lost CAS is not
     * exercised (it needs a second producer thread).
     *
     * @param file   the whole mapping (the same kind of segment as the inboxes', so that type profiles stay as
     *               they will be)
     * @param offset where the scratch ring lives, {@link #WARM_UP_FOOTPRINT} bytes of this process's own
     * @param records how many records to run through it
     */
    static void warmUp(final MemorySegment file, final long offset, final int records) {
        final ShmRing ring = new ShmRing(file, offset, WARM_UP_BYTES);
        final int lengths = (int) ring.maxRecordBytes() - HEADER_BYTES;
        int consumedUnreleased = 0;
        for (int i = 0; i < records; i++) {
            final int length = HEADER_BYTES + (i * 41) % lengths; // every length from 8 to the largest, unaligned
            long at = ring.tryClaim(length);
            if (FULL == at) {
                ring.drainWarmUp();
                at = ring.tryClaim(length);
            }
            ring.commit(at, TYPE_WARM_UP, length);
            if (0 == i % 3) { // consume 1 record in 3 now, the rest when the ring is full: both short and long ranges
                final long h = ring.peek();
                ring.consume(h);
                if (++consumedUnreleased % 5 == 0) {
                    ring.releaseConsumed();
                } else {
                    ring.releaseBatch(); // the poller's call: both of its branches seen
                }
            }
        }
        ring.drainWarmUp();
    }

    private void drainWarmUp() {
        for (long h = peek(); 0 != h; h = peek()) {
            consume(h);
        }
        releaseConsumed();
    }

    /** @return the file */
    MemorySegment file() {
        return file;
    }

    static long header(final int type, final int length) {
        return (long) type << 32 | (length & 0xFFFF_FFFFL);
    }

    static int type(final long header) {
        return (int) (header >>> 32);
    }

    static int length(final long header) {
        return (int) header;
    }

    /**
     * @param length a record's bytes, header included
     * @return the room it takes in the ring: whole cache lines
     */
    static long alignLine(final long length) {
        return (length + LINE - 1) & -LINE;
    }
}
