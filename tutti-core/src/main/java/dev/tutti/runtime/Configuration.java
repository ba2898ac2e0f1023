package dev.tutti.runtime;

import dev.tutti.internal.Failures;
import dev.tutti.internal.Setting;
import dev.tutti.internal.Settings;

/**
 * What the settings of {@link Settings} make: the idle strategies, the CPU binding decision and the shared-memory
 * job file's path. The settings themselves are read through their constants in {@link Settings}
 * ({@code Settings.EAGER_LIMIT.intValue()}); when each is read: {@link Setting#readAt()}.
 */
public final class Configuration {
    /**
     * {@link Settings#EAGER_LIMIT}'s name. Code reads the registry ({@code Settings.EAGER_LIMIT.name()}); this
     * constant, {@link #EAGER_LIMIT_DEFAULT} and {@link #SHM_DIR_DEFAULT} stay because a test holds them equal to it.
     */
    public static final String EAGER_LIMIT_PROP_NAME = Settings.EAGER_LIMIT.name();
    /** Default of {@link Settings#EAGER_LIMIT} (see {@link #EAGER_LIMIT_PROP_NAME}). */
    public static final int EAGER_LIMIT_DEFAULT = Settings.EAGER_LIMIT.intDefault();
    /** Default of {@link Settings#SHM_DIR} (see {@link #EAGER_LIMIT_PROP_NAME}). */
    public static final String SHM_DIR_DEFAULT = Settings.SHM_DIR.defaultValue();

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
            throw Failures.missingFromJvm("SHA-256", e);
        }
        return java.nio.file.Path.of(null == dir || dir.isBlank() ? Settings.SHM_DIR.defaultValue() : dir.trim(),
            SHM_FILE_PREFIX + safeId.substring(0, Math.min(safeId.length(), 100)) + "-" + digest + SHM_FILE_SUFFIX);
    }


    /** @return the idle strategy built from the idle settings ({@code tutti.idle.*}) */
    public static IdleStrategy idleStrategy() {
        return new BackoffIdleStrategy(Settings.IDLE_SPINS.intValue(), Settings.IDLE_YIELDS.intValue(), 1_000,
            1_000L * Settings.IDLE_MAX_PARK_US.intValue());
    }

    /**
     * Tells whether a machine that runs this many ranks of the job has more ranks than cores: the one test behind
     * the choices made for such machines (the idle strategies).
     *
     * @param ranksOnHost ranks of the job on this machine (threads of one JVM, or processes, of this host or of
     *                    other hosts on the same kernel, {@link MachineId}), this one included
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
}
