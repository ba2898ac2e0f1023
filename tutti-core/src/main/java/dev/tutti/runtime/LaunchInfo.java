package dev.tutti.runtime;

import dev.tutti.ErrorClass;
import dev.tutti.TuttiException;

import dev.tutti.internal.Errors;
import dev.tutti.internal.Settings;
import java.util.Map;

/**
 * What a launched rank learns from its environment: its rank, the job size, where the rendezvous (the
 * PMI-style key-value exchange of endpoints) listens, and the job secret that peers prove to each other.
 *
 * @param rank       this rank, 0..size-1
 * @param size       the number of ranks
 * @param rendezvous {@code host:port} of the launcher's rendezvous service
 * @param secret     the per-job secret (hex), never sent in clear
 * @param jobId      an identifier of the job (for names of shared resources and messages)
 * @param rendezvousUp whether the rendezvous is known to be up when this rank starts: true under {@code tutti run}
 *                   (its launcher serves it before any rank starts), for rank 0 serving it, and once rank 0 has
 *                   written its address; false for the other ranks under another launcher, which reach rank 0's
 *                   rendezvous before rank 0's JVM may have started. {@link RendezvousClient} keeps trying to
 *                   connect for longer when it is false
 */
public record LaunchInfo(int rank, int size, String rendezvous, String secret, String jobId, boolean rendezvousUp) {
    /** Environment variable: this rank. */
    public static final String RANK_ENV = Settings.RANK.envName();
    /** Environment variable: the number of ranks. */
    public static final String SIZE_ENV = Settings.SIZE.envName();
    /** Environment variable: {@code host:port} of the rendezvous. */
    public static final String RENDEZVOUS_ENV = Settings.RENDEZVOUS.envName();
    /** Environment variable: the job secret (hex). */
    public static final String SECRET_ENV = Settings.JOB_SECRET.envName();
    /** Environment variable: the job id. */
    public static final String JOB_ID_ENV = Settings.JOB_ID.envName();

    /**
     * Launch information whose rendezvous is up when the rank starts, as under {@code tutti run}.
     *
     * @param rank       this rank, 0..size-1
     * @param size       the number of ranks
     * @param rendezvous {@code host:port} of the rendezvous
     * @param secret     the per-job secret (hex)
     * @param jobId      an identifier of the job
     */
    public LaunchInfo(final int rank, final int size, final String rendezvous, final String secret,
        final String jobId) {
        this(rank, size, rendezvous, secret, jobId, true);
    }

    /**
     * Reads the launch information from an environment.
     *
     * @param env the environment, usually {@link System#getenv()}
     * @return the information, or null if this process was not started by a Tutti launcher
     * @throws TuttiException of class {@link ErrorClass#ARG} if the variables are present but inconsistent, naming
     *                        them and what a launcher sets
     */
    public static LaunchInfo fromEnvironment(final Map<String, String> env) {
        final String rank = env.get(RANK_ENV);
        if (null == rank) {
            return null;
        }
        final String size = env.get(SIZE_ENV);
        final String rendezvous = env.get(RENDEZVOUS_ENV);
        final String secret = env.get(SECRET_ENV);
        if (null == size || null == rendezvous || null == secret) {
            throw invalid(RANK_ENV + " is set but " + SIZE_ENV + "=" + size + ", " + RENDEZVOUS_ENV + "="
                + rendezvous + ", " + SECRET_ENV + (null == secret ? "=null" : " set"),
                "all of them set, as a Tutti launcher sets them");
        }
        final int r;
        final int n;
        try {
            r = Integer.parseInt(rank.trim());
            n = Integer.parseInt(size.trim());
        } catch (final NumberFormatException e) {
            throw invalid(RANK_ENV + "=" + rank + ", " + SIZE_ENV + "=" + size, "integers");
        }
        if (n < 1 || r < 0 || r >= n) {
            throw invalid(RANK_ENV + "=" + r + " " + SIZE_ENV + "=" + n, "0 <= rank < size");
        }
        return new LaunchInfo(r, n, rendezvous, secret, env.getOrDefault(JOB_ID_ENV, "job"));
    }

    /** The launch environment is inconsistent: Tutti's exception, as {@code init} reports it. */
    private static TuttiException invalid(final String what, final String allowed) {
        return Errors.expected(ErrorClass.ARG, "init", "launch environment", what, allowed);
    }

    @Override
    public String toString() {
        return "LaunchInfo[rank=" + rank + ", size=" + size + ", rendezvous=" + rendezvous + ", jobId=" + jobId
            + (rendezvousUp ? "" : ", rendezvous served by rank 0") + "]";
    }
}
