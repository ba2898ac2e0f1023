package dev.tutti.runtime.identity;

/**
 * Who this process is in its job, as a launcher's environment says: what {@link Identities#detect} finds.
 *
 * @param source    the launcher it comes from: {@code tutti}, {@code openmpi}, {@code hydra}, {@code slurm},
 *                  {@code torchrun} or {@code kubernetes}
 * @param rank      this rank, 0..size-1
 * @param size      the number of ranks
 * @param localRank this rank's index among the ranks of its host, or -1 if the launcher does not say
 * @param jobId     the job's id, the same in every rank and different for every job (for the rendezvous port, the
 *                  job secret and the names of shared resources)
 * @param host      where rank 0's rendezvous listens by default (the first host of the node list, the master
 *                  address, {@code 127.0.0.1} when the launcher says every rank is on this host), or null if the
 *                  launcher does not tell (then {@code TUTTI_RENDEZVOUS} must)
 * @param why       the variables and values it was read from, for {@code tutti info} and messages
 */
public record Identity(String source, int rank, int size, int localRank, String jobId, String host, String why) {
    @Override
    public String toString() {
        return source + ": rank " + rank + " of " + size + (localRank >= 0 ? " (local rank " + localRank + ")" : "")
            + ", job " + jobId + (null == host ? "" : ", rendezvous host " + host) + " [" + why + "]";
    }
}
