package dev.tutti.runtime;

/**
 * The accessors of the settings declared in {@link Settings} (each a system property, or the environment variable
 * of the same name upper-cased with dots as underscores, e.g. {@code TUTTI_EAGER_LIMIT}), and the
 * {@code *_PROP_NAME}/{@code *_DEFAULT} constants of the older style, which are the registry's names and defaults.
 * When each is read: {@link Setting#readAt()}.
 */
public final class Configuration {
    /** {@link Settings#EAGER_LIMIT}. */
    public static final String EAGER_LIMIT_PROP_NAME = Settings.EAGER_LIMIT.name();
    /** Default of {@link Settings#EAGER_LIMIT}. */
    public static final int EAGER_LIMIT_DEFAULT = Settings.EAGER_LIMIT.intDefault();
    /** {@link Settings#INPROC_EAGER_LIMIT}. */
    public static final String INPROC_EAGER_LIMIT_PROP_NAME = Settings.INPROC_EAGER_LIMIT.name();
    /** Default of {@link Settings#INPROC_EAGER_LIMIT}. */
    public static final int INPROC_EAGER_LIMIT_DEFAULT = Settings.INPROC_EAGER_LIMIT.intDefault();
    /** {@link Settings#IDLE_SPINS}. */
    public static final String IDLE_SPINS_PROP_NAME = Settings.IDLE_SPINS.name();
    /** Default of {@link Settings#IDLE_SPINS}. */
    public static final int IDLE_SPINS_DEFAULT = Settings.IDLE_SPINS.intDefault();
    /** {@link Settings#IDLE_YIELDS}. */
    public static final String IDLE_YIELDS_PROP_NAME = Settings.IDLE_YIELDS.name();
    /** Default of {@link Settings#IDLE_YIELDS}. */
    public static final int IDLE_YIELDS_DEFAULT = Settings.IDLE_YIELDS.intDefault();
    /** {@link Settings#IDLE_MAX_PARK_US}. */
    public static final String IDLE_MAX_PARK_US_PROP_NAME = Settings.IDLE_MAX_PARK_US.name();
    /** Default of {@link Settings#IDLE_MAX_PARK_US}. */
    public static final int IDLE_MAX_PARK_US_DEFAULT = Settings.IDLE_MAX_PARK_US.intDefault();
    /** {@link Settings#BIND}. */
    public static final String BIND_PROP_NAME = Settings.BIND.name();
    /** Default of {@link Settings#BIND}. */
    public static final String BIND_DEFAULT = Settings.BIND.defaultValue();
    /** {@link Settings#TRANSPORT}. */
    public static final String TRANSPORT_PROP_NAME = Settings.TRANSPORT.name();
    /** Default of {@link Settings#TRANSPORT}. */
    public static final String TRANSPORT_DEFAULT = Settings.TRANSPORT.defaultValue();
    /** {@link Settings#SHM_DIR}. */
    public static final String SHM_DIR_PROP_NAME = Settings.SHM_DIR.name();
    /** Default of {@link Settings#SHM_DIR}. */
    public static final String SHM_DIR_DEFAULT = Settings.SHM_DIR.defaultValue();
    /** {@link Settings#SHM_RING_BYTES}. */
    public static final String SHM_RING_BYTES_PROP_NAME = Settings.SHM_RING_BYTES.name();
    /** Default of {@link Settings#SHM_RING_BYTES}. */
    public static final int SHM_RING_BYTES_DEFAULT = Settings.SHM_RING_BYTES.intDefault();
    /** {@link Settings#SHM_EAGER_LIMIT}. */
    public static final String SHM_EAGER_LIMIT_PROP_NAME = Settings.SHM_EAGER_LIMIT.name();
    /** Default of {@link Settings#SHM_EAGER_LIMIT}. */
    public static final int SHM_EAGER_LIMIT_DEFAULT = Settings.SHM_EAGER_LIMIT.intDefault();
    /** {@link Settings#SHM_CHUNK_BYTES}. */
    public static final String SHM_CHUNK_BYTES_PROP_NAME = Settings.SHM_CHUNK_BYTES.name();
    /** Default of {@link Settings#SHM_CHUNK_BYTES}. */
    public static final int SHM_CHUNK_BYTES_DEFAULT = Settings.SHM_CHUNK_BYTES.intDefault();
    /** {@link Settings#SHM_CHUNKS}. */
    public static final String SHM_CHUNKS_PROP_NAME = Settings.SHM_CHUNKS.name();
    /** Default of {@link Settings#SHM_CHUNKS}. */
    public static final int SHM_CHUNKS_DEFAULT = Settings.SHM_CHUNKS.intDefault();
    /** {@link Settings#SHM_PUSH_LIMIT}. */
    public static final String SHM_PUSH_LIMIT_PROP_NAME = Settings.SHM_PUSH_LIMIT.name();
    /** Default of {@link Settings#SHM_PUSH_LIMIT}. */
    public static final int SHM_PUSH_LIMIT_DEFAULT = Settings.SHM_PUSH_LIMIT.intDefault();
    /** {@link Settings#SHM_ARENA_MIB}. */
    public static final String SHM_ARENA_MIB_PROP_NAME = Settings.SHM_ARENA_MIB.name();
    /** Default of {@link Settings#SHM_ARENA_MIB}. */
    public static final int SHM_ARENA_MIB_DEFAULT = Settings.SHM_ARENA_MIB.intDefault();
    /** {@link Settings#SHM_LIVENESS_MS}. */
    public static final String SHM_LIVENESS_MS_PROP_NAME = Settings.SHM_LIVENESS_MS.name();
    /** Default of {@link Settings#SHM_LIVENESS_MS}. */
    public static final int SHM_LIVENESS_MS_DEFAULT = Settings.SHM_LIVENESS_MS.intDefault();
    /** {@link Settings#SHM_IDLE_YIELDS}. */
    public static final String SHM_IDLE_YIELDS_PROP_NAME = Settings.SHM_IDLE_YIELDS.name();
    /** Default of {@link Settings#SHM_IDLE_YIELDS}. */
    public static final int SHM_IDLE_YIELDS_DEFAULT = Settings.SHM_IDLE_YIELDS.intDefault();
    /** {@link Settings#SHM_IDLE_MAX_PARK_US}. */
    public static final String SHM_IDLE_MAX_PARK_US_PROP_NAME = Settings.SHM_IDLE_MAX_PARK_US.name();
    /** Default of {@link Settings#SHM_IDLE_MAX_PARK_US}. */
    public static final int SHM_IDLE_MAX_PARK_US_DEFAULT = Settings.SHM_IDLE_MAX_PARK_US.intDefault();
    /** {@link Settings#SHM_IDLE_YIELD_EVERY}. */
    public static final String SHM_IDLE_YIELD_EVERY_PROP_NAME = Settings.SHM_IDLE_YIELD_EVERY.name();
    /** Default of {@link Settings#SHM_IDLE_YIELD_EVERY}. */
    public static final int SHM_IDLE_YIELD_EVERY_DEFAULT = Settings.SHM_IDLE_YIELD_EVERY.intDefault();

    /** Fewest yields before a waiting rank parks when its host has more ranks than cores (shared memory). */
    public static final int OVERSUBSCRIBED_SHM_YIELDS = 100_000;

    /** Prefix of every shared-memory job file's name. */
    public static final String SHM_FILE_PREFIX = "tutti-";
    /** Suffix of every shared-memory job file's name. */
    public static final String SHM_FILE_SUFFIX = ".shm";

    private Configuration() {
    }

    /** @return whether ranks bind to CPUs ({@link Settings#BIND}: core or none) */
    public static boolean bindToCore() {
        return "core".equals(Settings.BIND.choice());
    }

    /** @return the transport setting ({@link Settings#TRANSPORT}), lower case: auto, shm or tcp */
    public static String transport() {
        return Settings.TRANSPORT.choice();
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
        return shmFile(Settings.SHM_DIR.raw(), jobId, secret);
    }

    /**
     * Returns the shared-memory file of a job in a given directory: what {@link #shmFile(String, String)} returns
     * in a process whose {@link Settings#SHM_DIR} setting is {@code dir} (the launcher, whose ranks may be given
     * another setting than its own).
     *
     * @param dir    the directory; null or blank for the default ({@code /dev/shm})
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
        return java.nio.file.Path.of(null == dir || dir.isBlank() ? Settings.SHM_DIR.defaultValue() : dir.trim(),
            SHM_FILE_PREFIX + safeId.substring(0, Math.min(safeId.length(), 100)) + "-" + digest + SHM_FILE_SUFFIX);
    }


    /** @return the in-process transport's eager limit in bytes ({@link Settings#INPROC_EAGER_LIMIT}) */
    public static int inprocEagerLimit() {
        return Settings.INPROC_EAGER_LIMIT.intValue();
    }

    /** @return the eager limit in bytes ({@link Settings#EAGER_LIMIT}) */
    public static int eagerLimit() {
        return Settings.EAGER_LIMIT.intValue();
    }

    /** @return the idle strategy built from the idle settings ({@code tutti.idle.*}) */
    public static IdleStrategy idleStrategy() {
        return new BackoffIdleStrategy(Settings.IDLE_SPINS.intValue(), Settings.IDLE_YIELDS.intValue(), 1_000,
            1_000L * Settings.IDLE_MAX_PARK_US.intValue());
    }

    /**
     * Tells whether a host that runs this many ranks of the job has more ranks than cores: the one test behind the
     * choices made for such hosts (the idle strategies).
     *
     * @param ranksOnHost ranks of the job on this host (threads of one JVM, or processes), this one included
     * @return true if they outnumber the CPUs this process may use (counted before a rank was bound to one of them,
     *         {@link CpuBinding#unboundCpus()})
     */
    public static boolean oversubscribed(final int ranksOnHost) {
        return ranksOnHost > CpuBinding.unboundCpus();
    }

    /**
     * Returns the idle strategy for ranks that outnumber the cores (embedded jobs larger than the machine): it
     * spins only briefly, because a spinning rank takes the core from the rank it waits for.
     *
     * @return the strategy
     */
    public static IdleStrategy oversubscribedIdleStrategy() {
        return new BackoffIdleStrategy(20, 20, 1_000, 1_000L * Settings.IDLE_MAX_PARK_US.intValue());
    }

    /**
     * Returns the idle strategy of a rank with peers over shared memory: spin (briefly if this host has more ranks
     * than cores), then yield ({@link Settings#SHM_IDLE_YIELDS}), then park at most
     * {@link Settings#SHM_IDLE_MAX_PARK_US} µs, because nothing can wake a rank parked on a ring. With more
     * ranks than cores a waiting rank yields at least {@value #OVERSUBSCRIBED_SHM_YIELDS} times before it parks,
     * as Open MPI's {@code mpi_yield_when_idle}: a yield hands the core to a rank with work at once, while a park
     * lasts at least the kernel's timer slack (50 µs) whatever is asked, and a collective waits once per round.
     *
     * @param oversubscribed whether this host has more ranks than cores
     * @return the strategy
     */
    public static IdleStrategy shmIdleStrategy(final boolean oversubscribed) {
        final int yields = Settings.SHM_IDLE_YIELDS.intValue();
        return new BackoffIdleStrategy(oversubscribed ? 0 : Settings.IDLE_SPINS.intValue(),
            oversubscribed ? Math.max(yields, OVERSUBSCRIBED_SHM_YIELDS) : yields, 1_000,
            1_000L * Math.max(1, Settings.SHM_IDLE_MAX_PARK_US.intValue()),
            Settings.SHM_IDLE_YIELD_EVERY.intValue());
    }

    /**
     * Reads a setting declared in {@link Settings}: the system property, else the environment variable.
     *
     * @param propName the property name (or a family member, e.g. {@code tutti.coll.allreduce})
     * @return the value or null
     * @throws IllegalArgumentException if {@link Settings} declares no such setting
     */
    public static String value(final String propName) {
        return Settings.require(propName).raw();
    }

    /**
     * Reads an integer setting declared in {@link Settings} (prefer {@link Setting#intValue()} on its constant).
     *
     * @param propName     the property name
     * @param defaultValue the value if unset (the registry's default, which callers pass)
     * @return the value
     * @throws IllegalArgumentException if set to something that is not an integer, or if {@link Settings}
     *                                  declares no such setting
     */
    public static int intValue(final String propName, final int defaultValue) {
        final Setting s = Settings.require(propName);
        final String v = s.raw();
        return null == v || v.isBlank() ? defaultValue : s.intValue();
    }
}
