/**
 * Rank identity from any launcher: one small source per launcher ({@code tutti run}, Open MPI's {@code mpirun},
 * MPICH's Hydra, Slurm's {@code srun}, torchrun, Kubernetes indexed Jobs), tried in order by
 * {@link dev.tutti.runtime.identity.Identities}, and Slurm's compressed host lists
 * ({@link dev.tutti.runtime.identity.HostList}). Each source reads a map of variables, never the process's
 * environment itself, so that tests give it recorded environments. How a process then joins its job, from its
 * identity and the launch variables ({@link dev.tutti.runtime.identity.Launch}), and the report of what was
 * detected ({@link dev.tutti.runtime.identity.LaunchReport}).
 *
 * <p>Layer: runtime. May import {@code internal}, the value types of {@code dev.tutti} and {@code dev.tutti.runtime}.
 */
package dev.tutti.runtime.identity;
