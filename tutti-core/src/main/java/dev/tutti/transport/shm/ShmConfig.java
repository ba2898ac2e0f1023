package dev.tutti.transport.shm;

import dev.tutti.runtime.Configuration;

/**
 * The shared-memory transport's tunables (see the {@code tutti.shm.*} settings in {@link Configuration}). Every
 * rank of a job must use the same layout values; the file's header records them and a rank whose values differ
 * is refused.
 *
 * @param ringBytes    inbox ring bytes per rank, a power of two
 * @param eagerLimit   largest payload copied inline through the ring
 * @param chunkBytes   bytes per streamed chunk, a multiple of 64
 * @param chunks       chunk slots per ordered pair
 * @param arenaBytes   shared arena per rank, a multiple of 4096
 * @param livenessMs   how often a polling rank checks its peers' processes
 */
public record ShmConfig(int ringBytes, int eagerLimit, int chunkBytes, int chunks, long arenaBytes, int livenessMs) {

    /** @return the values from the settings, with their defaults */
    public static ShmConfig fromConfiguration() {
        return new ShmConfig(
            Configuration.intValue(Configuration.SHM_RING_BYTES_PROP_NAME, Configuration.SHM_RING_BYTES_DEFAULT),
            Configuration.intValue(Configuration.SHM_EAGER_LIMIT_PROP_NAME, Configuration.SHM_EAGER_LIMIT_DEFAULT),
            Configuration.intValue(Configuration.SHM_CHUNK_BYTES_PROP_NAME, Configuration.SHM_CHUNK_BYTES_DEFAULT),
            Configuration.intValue(Configuration.SHM_CHUNKS_PROP_NAME, Configuration.SHM_CHUNKS_DEFAULT),
            (long) Configuration.intValue(Configuration.SHM_ARENA_MIB_PROP_NAME,
                Configuration.SHM_ARENA_MIB_DEFAULT) << 20,
            Configuration.intValue(Configuration.SHM_LIVENESS_MS_PROP_NAME, Configuration.SHM_LIVENESS_MS_DEFAULT));
    }

    /**
     * Returns a copy with other ring and eager sizes (tests).
     *
     * @param ring  ring bytes
     * @param eager eager limit
     * @return the copy
     */
    public ShmConfig withRing(final int ring, final int eager) {
        return new ShmConfig(ring, eager, chunkBytes, chunks, arenaBytes, livenessMs);
    }

    /**
     * Returns a copy with other chunking (tests, benchmarks).
     *
     * @param bytes  chunk bytes
     * @param count  chunks per pair
     * @return the copy
     */
    public ShmConfig withChunks(final int bytes, final int count) {
        return new ShmConfig(ringBytes, eagerLimit, bytes, count, arenaBytes, livenessMs);
    }

    /**
     * Returns a copy with another arena size.
     *
     * @param bytes arena bytes per rank
     * @return the copy
     */
    public ShmConfig withArena(final long bytes) {
        return new ShmConfig(ringBytes, eagerLimit, chunkBytes, chunks, bytes, livenessMs);
    }
}
