package dev.tutti.transport.shm;

import dev.tutti.internal.Settings;

/**
 * The shared-memory transport's tunables (see the {@code tutti.shm.*} settings in {@link Settings}). Every
 * rank of a job must use the same layout values; the file's header records them and a rank whose values differ
 * is refused.
 *
 * @param ringBytes    inbox ring bytes per rank, a power of two
 * @param eagerLimit   largest payload copied inline through the ring
 * @param chunkBytes   bytes per streamed chunk, a multiple of 64
 * @param chunks       chunk slots per ordered pair, or 0 to choose by job size ({@link #chunksPerChannel})
 * @param arenaBytes   shared arena per rank, a multiple of 4096
 * @param livenessMs   how often a polling rank checks its peers' processes
 * @param pushLimit    largest message streamed without waiting for clear-to-send (0: none); not part of the layout
 */
public record ShmConfig(int ringBytes, int eagerLimit, int chunkBytes, int chunks, long arenaBytes, int livenessMs,
    int pushLimit) {
    /** What the chunk channels of a job may take together when {@link #chunks} is chosen by job size. */
    static final long CHANNEL_BUDGET_BYTES = 256L << 20;
    /** Most chunk slots per pair chosen by job size: a whole 4 MiB message (of 64 KiB chunks) in flight. */
    static final int MAX_AUTO_CHUNKS = 64;
    /** Fewest chunk slots per pair chosen by job size. */
    static final int MIN_AUTO_CHUNKS = 8;

    /**
     * The chunk slots per ordered pair for a job of {@code ranks}: {@link #chunks} if set, else as many as keep all
     * channels within {@link #CHANNEL_BUDGET_BYTES}, between 8 and 64. Many slots matter: with a ring that holds a
     * whole message the sender streams without waiting for the receiver, so both ranks copy at memory speed instead
     * of in lockstep over the same few cache-hot slots: a 4 MiB ping-pong is much faster with 64 slots than with 8.
     * The file is sparse, so slots cost memory only once a pair has used them.
     *
     * @param ranks the job's size
     * @return slots per pair, at least 1
     */
    public int chunksPerChannel(final int ranks) {
        if (chunks > 0) {
            return chunks;
        }
        final long pairs = Math.max(1L, (long) ranks * (ranks - 1));
        final long fit = CHANNEL_BUDGET_BYTES / (pairs * chunkBytes);
        return (int) Math.max(MIN_AUTO_CHUNKS, Math.min(MAX_AUTO_CHUNKS, fit));
    }

    /** @return the values from the settings, with their defaults */
    public static ShmConfig fromConfiguration() {
        return new ShmConfig(Settings.SHM_RING_BYTES.intValue(), Settings.SHM_EAGER_LIMIT.intValue(),
            Settings.SHM_CHUNK_BYTES.intValue(), Settings.SHM_CHUNKS.intValue(),
            (long) Settings.SHM_ARENA_MIB.intValue() << 20, Settings.SHM_LIVENESS_MS.intValue(),
            Settings.SHM_PUSH_LIMIT.intValue());
    }

    /**
     * Returns a copy with other ring and eager sizes (tests).
     *
     * @param ring  ring bytes
     * @param eager eager limit
     * @return the copy
     */
    public ShmConfig withRing(final int ring, final int eager) {
        return new ShmConfig(ring, eager, chunkBytes, chunks, arenaBytes, livenessMs, pushLimit);
    }

    /**
     * Returns a copy with other chunking (tests, benchmarks).
     *
     * @param bytes  chunk bytes
     * @param count  chunks per pair
     * @return the copy
     */
    public ShmConfig withChunks(final int bytes, final int count) {
        return new ShmConfig(ringBytes, eagerLimit, bytes, count, arenaBytes, livenessMs, pushLimit);
    }

    /**
     * Returns a copy with another arena size.
     *
     * @param bytes arena bytes per rank
     * @return the copy
     */
    public ShmConfig withArena(final long bytes) {
        return new ShmConfig(ringBytes, eagerLimit, chunkBytes, chunks, bytes, livenessMs, pushLimit);
    }

    /**
     * Returns a copy with another push limit (tests: 0 exercises the clear-to-send protocol at every size).
     *
     * @param bytes largest message streamed without waiting for clear-to-send, 0 for none
     * @return the copy
     */
    public ShmConfig withPushLimit(final int bytes) {
        return new ShmConfig(ringBytes, eagerLimit, chunkBytes, chunks, arenaBytes, livenessMs, bytes);
    }
}
