/**
 * Tutti's own additions around the {@code mpi} package (Open MPI's Java API on Tutti), which are not part of Open
 * MPI's API: {@link dev.tutti.mpi.JoinedRank}, for a Tutti program that also uses {@code mpi} in a rank process.
 */
package dev.tutti.mpi;
