package dev.tutti.runtime.identity;

import dev.tutti.TuttiException;
import dev.tutti.internal.Settings;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Finds who this process is from its launcher's environment, first match wins: Tutti's own variables
 * ({@code tutti run}), Open MPI's {@code mpirun}, MPICH's Hydra, Slurm's {@code srun}, torchrun ({@code env://}),
 * a Kubernetes indexed Job; else a job of one rank.
 *
 * <p>The order goes from the innermost launcher to the outermost: {@code mpirun} inside a Slurm allocation starts
 * ranks that still carry the batch step's {@code SLURM_PROCID=0}, so Open MPI's variables must win over Slurm's.
 * The sources that also match but lose are reported ({@link Detection#ignored()}); they are not an error, since
 * nested launchers set different variables for good reasons. The first source whose variables are present must
 * have them complete and consistent, or {@code init} fails naming them; a losing source's problem is only reported.
 */
public final class Identities {
    private Identities() {
    }

    /**
     * What detection found.
     *
     * @param chosen  the identity in force, or null for a job of one rank
     * @param ignored the other launchers whose variables are present too (outer launchers), for {@code tutti info}
     */
    public record Detection(Identity chosen, List<String> ignored) {
    }

    /**
     * Detects this process's identity.
     *
     * @param env the environment ({@link System#getenv()} in a rank; a recorded map in tests)
     * @return the detection
     * @throws TuttiException of class {@code ARG} if the first launcher whose variables are present has
     *                        incomplete or inconsistent ones, naming them and their values
     */
    public static Detection detect(final Map<String, String> env) {
        return detect(env, Identities::parentPid);
    }

    /**
     * As {@link #detect(Map)} with the parent's process id given (for tests of Hydra's job id).
     *
     * @param env       the environment
     * @param parentPid the parent's process id
     * @return the detection
     */
    public static Detection detect(final Map<String, String> env, final LongSupplier parentPid) {
        Identity chosen = null;
        final List<String> ignored = new ArrayList<>();
        for (final IdentitySource s : sources(parentPid)) {
            if (null == chosen) {
                chosen = s.detect(env);
                continue;
            }
            try {
                final Identity other = s.detect(env);
                if (null != other) {
                    ignored.add(other.toString());
                }
            } catch (final TuttiException e) {
                ignored.add(s.name() + ": " + e.getMessage());
            }
        }
        return new Detection(chosen, List.copyOf(ignored));
    }

    /**
     * Names what detection looks for, in order, for {@code tutti info} when nothing matched.
     *
     * @return e.g. {@code tutti (TUTTI_RANK), openmpi (OMPI_COMM_WORLD_RANK), ...}
     */
    public static String looksFor() {
        return "tutti (" + Settings.RANK.envName() + "), openmpi (" + OpenMpiSource.RANK + "), hydra ("
            + HydraSource.RANK + "), slurm (" + SlurmSource.RANK + "), torchrun (" + TorchrunSource.RANK
            + "), kubernetes (" + KubernetesSource.INDEX + ")";
    }

    /** @return the sources in the order they are tried */
    static List<IdentitySource> sources(final LongSupplier parentPid) {
        return List.of(new TuttiSource(), new OpenMpiSource(), new HydraSource(parentPid, Settings.JOB_ID.envName()),
            new SlurmSource(), new TorchrunSource(),
            new KubernetesSource(Settings.SIZE.envName(), Settings.K8S_SERVICE.envName()));
    }

    private static long parentPid() {
        return ProcessHandle.current().parent().map(ProcessHandle::pid).orElse(-1L);
    }
}
