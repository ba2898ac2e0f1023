/**
 * Tutti's own additions around the {@code mpi} package (MPJ Express's API on Tutti), which are not part of MPJ
 * Express's API: {@link dev.tutti.mpj.JoinedRank}, for a Tutti program that also uses {@code mpi} in a rank process.
 */
package dev.tutti.mpj;
