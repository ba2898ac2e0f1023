package dev.tutti.runtime;

/**
 * Tunables, each a system property (or the environment variable of the same name upper-cased with dots as
 * underscores, e.g. {@code TUTTI_EAGER_LIMIT}) read once, with a documented default.
 */
public final class Configuration {
    /** Largest message sent eagerly (bytes); larger ones use rendezvous. */
    public static final String EAGER_LIMIT_PROP_NAME = "tutti.eager.limit";
    /** Default of {@link #EAGER_LIMIT_PROP_NAME}: 64 KiB. */
    public static final int EAGER_LIMIT_DEFAULT = 64 * 1024;

    /**
     * Largest message the in-process transport copies eagerly when no receive is posted yet (bytes); larger ones
     * wait for the receiver, which copies them once from the sender's buffer. Small, because an eager unexpected
     * message costs a second copy through a new array.
     */
    public static final String INPROC_EAGER_LIMIT_PROP_NAME = "tutti.inproc.eagerLimit";
    /** Default of {@link #INPROC_EAGER_LIMIT_PROP_NAME}: 8 KiB. */
    public static final int INPROC_EAGER_LIMIT_DEFAULT = 8 * 1024;

    /** Idle strategy: iterations that spin. */
    public static final String IDLE_SPINS_PROP_NAME = "tutti.idle.spins";
    /** Default of {@link #IDLE_SPINS_PROP_NAME}. */
    public static final int IDLE_SPINS_DEFAULT = 1_000;
    /** Idle strategy: iterations that yield after spinning. */
    public static final String IDLE_YIELDS_PROP_NAME = "tutti.idle.yields";
    /** Default of {@link #IDLE_YIELDS_PROP_NAME}. */
    public static final int IDLE_YIELDS_DEFAULT = 5_000;
    /** Idle strategy: longest park in microseconds. */
    public static final String IDLE_MAX_PARK_US_PROP_NAME = "tutti.idle.maxParkUs";
    /** Default of {@link #IDLE_MAX_PARK_US_PROP_NAME}. */
    public static final int IDLE_MAX_PARK_US_DEFAULT = 1_000;

    /** CPU binding of ranks that use shared memory: {@code core} binds the thread that calls {@code init} to one
     *  CPU (the rank's index among its host's ranks, modulo the CPUs: round-robin when the host has more ranks than
     *  CPUs), when native access is enabled ({@code tutti run} enables it); {@code none} leaves scheduling to the
     *  system. */
    public static final String BIND_PROP_NAME = "tutti.bind";
    /** Default of {@link #BIND_PROP_NAME}. */
    public static final String BIND_DEFAULT = "core";

    /** Transport between ranks of a multi-process job: {@code auto} (shm with ranks on this host, tcp with the
     *  others), {@code shm} (every rank must be on this host) or {@code tcp}. */
    public static final String TRANSPORT_PROP_NAME = "tutti.transport";
    /** Default of {@link #TRANSPORT_PROP_NAME}. */
    public static final String TRANSPORT_DEFAULT = "auto";
    /** Directory of the shared-memory transport's job files (a tmpfs). */
    public static final String SHM_DIR_PROP_NAME = "tutti.shm.dir";
    /** Default of {@link #SHM_DIR_PROP_NAME}. */
    public static final String SHM_DIR_DEFAULT = "/dev/shm";
    /** Shared memory: inbox ring bytes per rank (a power of two). */
    public static final String SHM_RING_BYTES_PROP_NAME = "tutti.shm.ringBytes";
    /** Default of {@link #SHM_RING_BYTES_PROP_NAME}: 1 MiB. */
    public static final int SHM_RING_BYTES_DEFAULT = 1 << 20;
    /** Shared memory: largest message copied inline through the inbox ring; larger ones stream in chunks. */
    public static final String SHM_EAGER_LIMIT_PROP_NAME = "tutti.shm.eagerLimit";
    /** Default of {@link #SHM_EAGER_LIMIT_PROP_NAME}: 16 KiB. */
    public static final int SHM_EAGER_LIMIT_DEFAULT = 16 * 1024;
    /** Shared memory: bytes per chunk of a streamed message (a multiple of 64). */
    public static final String SHM_CHUNK_BYTES_PROP_NAME = "tutti.shm.chunkBytes";
    /** Default of {@link #SHM_CHUNK_BYTES_PROP_NAME}: 64 KiB. */
    public static final int SHM_CHUNK_BYTES_DEFAULT = 64 * 1024;
    /**
     * Shared memory: chunk slots per ordered pair of ranks; 0 (the default) chooses by job size, so that a job's
     * chunk channels together stay within 256 MiB: 64 slots (a 4 MiB message in flight at once) per pair for jobs of
     * up to 8 ranks, fewer for larger jobs, at least 8.
     */
    public static final String SHM_CHUNKS_PROP_NAME = "tutti.shm.chunks";
    /** Default of {@link #SHM_CHUNKS_PROP_NAME}: 0, chosen by job size. */
    public static final int SHM_CHUNKS_DEFAULT = 0;
    /**
     * Shared memory: largest message whose chunks the sender streams at once after its announcement, without
     * waiting for the receiver's clear-to-send (one hand-off between the ranks instead of three; a message that
     * arrives before its receive is posted is copied to the heap only if a later message from the same sender must
     * pass it); 0 turns this off. At most the chunk channel's capacity is used.
     */
    public static final String SHM_PUSH_LIMIT_PROP_NAME = "tutti.shm.pushLimit";
    /** Default of {@link #SHM_PUSH_LIMIT_PROP_NAME}: 1 MiB. */
    public static final int SHM_PUSH_LIMIT_DEFAULT = 1 << 20;
    /** Shared memory: bytes of each rank's shared arena (single-copy buffers), in MiB. */
    public static final String SHM_ARENA_MIB_PROP_NAME = "tutti.shm.arenaMiB";
    /** Default of {@link #SHM_ARENA_MIB_PROP_NAME}: 64 MiB (sparse: costs memory only when used). */
    public static final int SHM_ARENA_MIB_DEFAULT = 64;
    /** Shared memory: how often a waiting rank checks that its peers' processes are alive, in milliseconds. */
    public static final String SHM_LIVENESS_MS_PROP_NAME = "tutti.shm.livenessMs";
    /** Default of {@link #SHM_LIVENESS_MS_PROP_NAME}. */
    public static final int SHM_LIVENESS_MS_DEFAULT = 100;

    /** Shared memory: yields before a waiting rank parks (a parked rank is woken by its timeout only, since no
     *  process can unpark another, and a park lasts at least the kernel's timer slack, 50 µs, however short it is
     *  asked to be; yielding keeps the rank responsive, and gives its core away when ranks share cores). Some
     *  milliseconds of yields: a collective's round often waits longer than the spin phase. */
    public static final String SHM_IDLE_YIELDS_PROP_NAME = "tutti.shm.idle.yields";
    /** Default of {@link #SHM_IDLE_YIELDS_PROP_NAME}. */
    public static final int SHM_IDLE_YIELDS_DEFAULT = 20_000;
    /** Shared memory: longest park of a waiting rank in microseconds (bounds the latency after a long wait). */
    public static final String SHM_IDLE_MAX_PARK_US_PROP_NAME = "tutti.shm.idle.maxParkUs";
    /** Default of {@link #SHM_IDLE_MAX_PARK_US_PROP_NAME}. */
    public static final int SHM_IDLE_MAX_PARK_US_DEFAULT = 50;

    /** Shared memory: while spinning, one iteration in this many yields instead (a power of two). Every yield is a
     *  system call, which a rank that owns its core only loses time to; rare yields still let a rank that the
     *  scheduler placed on the core of the rank it waits for step aside within microseconds. */
    public static final String SHM_IDLE_YIELD_EVERY_PROP_NAME = "tutti.shm.idle.yieldEvery";
    /** Default of {@link #SHM_IDLE_YIELD_EVERY_PROP_NAME}. */
    public static final int SHM_IDLE_YIELD_EVERY_DEFAULT = 256;

    /** Fewest yields before a waiting rank parks when its host has more ranks than cores (shared memory). */
    public static final int OVERSUBSCRIBED_SHM_YIELDS = 100_000;

    /** Prefix of every shared-memory job file's name. */
    public static final String SHM_FILE_PREFIX = "tutti-";
    /** Suffix of every shared-memory job file's name. */
    public static final String SHM_FILE_SUFFIX = ".shm";

    private Configuration() {
    }

    /** @return whether ranks bind to CPUs (setting {@value #BIND_PROP_NAME}: core or none) */
    public static boolean bindToCore() {
        final String v = value(BIND_PROP_NAME);
        final String b = null == v || v.isBlank() ? BIND_DEFAULT : v.trim().toLowerCase(java.util.Locale.ROOT);
        if (!"core".equals(b) && !"none".equals(b)) {
            throw new IllegalArgumentException("setting " + BIND_PROP_NAME + "=" + v + ", expected core or none");
        }
        return "core".equals(b);
    }

    /** @return the transport setting, lower case: auto, shm or tcp */
    public static String transport() {
        final String v = value(TRANSPORT_PROP_NAME);
        final String t = null == v || v.isBlank() ? TRANSPORT_DEFAULT : v.trim().toLowerCase(java.util.Locale.ROOT);
        if (!"auto".equals(t) && !"shm".equals(t) && !"tcp".equals(t)) {
            throw new IllegalArgumentException("setting " + TRANSPORT_PROP_NAME + "=" + v
                + ", expected auto, shm or tcp");
        }
        return t;
    }

    /**
     * Returns the shared-memory file of a job on this host. The launcher deletes it when the job ends; the name
     * carries a digest of the job secret so that two jobs with the same id never share a file.
     *
     * @param jobId  the job id
     * @param secret the job secret (hex)
     * @return the path
     */
    public static java.nio.file.Path shmFile(final String jobId, final String secret) {
        return shmFile(value(SHM_DIR_PROP_NAME), jobId, secret);
    }

    /**
     * Returns the shared-memory file of a job in a given directory: what {@link #shmFile(String, String)} returns
     * in a process whose {@value #SHM_DIR_PROP_NAME} setting is {@code dir} (the launcher, whose ranks may be given
     * another setting than its own).
     *
     * @param dir    the directory; null or blank for {@value #SHM_DIR_DEFAULT}
     * @param jobId  the job id
     * @param secret the job secret (hex)
     * @return the path
     */
    public static java.nio.file.Path shmFile(final String dir, final String jobId, final String secret) {
        final String safeId = jobId.replaceAll("[^A-Za-z0-9._-]", "_");
        final String digest;
        try {
            final byte[] d = java.security.MessageDigest.getInstance("SHA-256")
                .digest(secret.getBytes(java.nio.charset.StandardCharsets.UTF_8));
            digest = java.util.HexFormat.of().formatHex(d, 0, 6);
        } catch (final java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
        return java.nio.file.Path.of(null == dir || dir.isBlank() ? SHM_DIR_DEFAULT : dir.trim(),
            SHM_FILE_PREFIX + safeId.substring(0, Math.min(safeId.length(), 100)) + "-" + digest + SHM_FILE_SUFFIX);
    }


    /** @return the in-process transport's eager limit in bytes */
    public static int inprocEagerLimit() {
        return intValue(INPROC_EAGER_LIMIT_PROP_NAME, INPROC_EAGER_LIMIT_DEFAULT);
    }

    /** @return the eager limit in bytes */
    public static int eagerLimit() {
        return intValue(EAGER_LIMIT_PROP_NAME, EAGER_LIMIT_DEFAULT);
    }

    /** @return the idle strategy built from the idle properties */
    public static IdleStrategy idleStrategy() {
        return new BackoffIdleStrategy(intValue(IDLE_SPINS_PROP_NAME, IDLE_SPINS_DEFAULT),
            intValue(IDLE_YIELDS_PROP_NAME, IDLE_YIELDS_DEFAULT), 1_000,
            1_000L * intValue(IDLE_MAX_PARK_US_PROP_NAME, IDLE_MAX_PARK_US_DEFAULT));
    }

    /**
     * Returns the idle strategy for ranks that outnumber the cores (embedded jobs larger than the machine): it
     * spins only briefly, because a spinning rank takes the core from the rank it waits for.
     *
     * @return the strategy
     */
    public static IdleStrategy oversubscribedIdleStrategy() {
        return new BackoffIdleStrategy(20, 20, 1_000,
            1_000L * intValue(IDLE_MAX_PARK_US_PROP_NAME, IDLE_MAX_PARK_US_DEFAULT));
    }

    /**
     * Returns the idle strategy of a rank with peers over shared memory: spin (briefly if this host has more ranks
     * than cores), then yield ({@value #SHM_IDLE_YIELDS_PROP_NAME}), then park at most
     * {@value #SHM_IDLE_MAX_PARK_US_PROP_NAME} µs, because nothing can wake a rank parked on a ring. With more
     * ranks than cores a waiting rank yields at least {@value #OVERSUBSCRIBED_SHM_YIELDS} times before it parks,
     * as Open MPI's {@code mpi_yield_when_idle}: a yield hands the core to a rank with work at once, while a park
     * lasts at least the kernel's timer slack (50 µs) whatever is asked, and a collective waits once per round.
     *
     * @param oversubscribed whether this host has more ranks than cores
     * @return the strategy
     */
    public static IdleStrategy shmIdleStrategy(final boolean oversubscribed) {
        final int yields = intValue(SHM_IDLE_YIELDS_PROP_NAME, SHM_IDLE_YIELDS_DEFAULT);
        return new BackoffIdleStrategy(oversubscribed ? 0 : intValue(IDLE_SPINS_PROP_NAME, IDLE_SPINS_DEFAULT),
            oversubscribed ? Math.max(yields, OVERSUBSCRIBED_SHM_YIELDS) : yields, 1_000,
            1_000L * Math.max(1, intValue(SHM_IDLE_MAX_PARK_US_PROP_NAME, SHM_IDLE_MAX_PARK_US_DEFAULT)),
            intValue(SHM_IDLE_YIELD_EVERY_PROP_NAME, SHM_IDLE_YIELD_EVERY_DEFAULT));
    }

    /**
     * Reads a setting: the system property, else the environment variable derived from its name, else null.
     *
     * @param propName the property name
     * @return the value or null
     */
    public static String value(final String propName) {
        final String p = System.getProperty(propName);
        if (null != p) {
            return p;
        }
        return System.getenv(propName.toUpperCase(java.util.Locale.ROOT).replace('.', '_'));
    }

    /**
     * Reads an integer setting.
     *
     * @param propName     the property name
     * @param defaultValue the value if unset
     * @return the value
     * @throws IllegalArgumentException if set to something that is not an integer
     */
    public static int intValue(final String propName, final int defaultValue) {
        final String v = value(propName);
        if (null == v || v.isBlank()) {
            return defaultValue;
        }
        try {
            return Integer.parseInt(v.trim());
        } catch (final NumberFormatException e) {
            throw new IllegalArgumentException("setting " + propName + "=" + v + " is not an integer", e);
        }
    }
}
