package dev.tutti.p2p;

/**
 * Where each world rank of a job runs and how the others reach it, as every rank of the job holds it alike: for the
 * node-aware collectives and the choice of algorithms. Learnt once, before any communicator of the job is handed to
 * the program ({@code dev.tutti.job.HostDiscovery}), or given (a fake host layout, threads of one JVM).
 *
 * @param hosts  the host index of each world rank (hosts numbered from 0 in order of their lowest rank), or null
 *               when every rank is on one host
 * @param direct per world rank, the lowest world rank it reaches through direct memory (shared memory between
 *               processes, the heap between threads): ranks of one host over shared memory are one group, and over
 *               tcp alone each rank is its own; or null when every rank reaches every other through direct memory
 */
public record RankLayout(int[] hosts, int[] direct) {
    /** Every rank on one host, reaching every other through direct memory. */
    public static final RankLayout ONE_HOST = new RankLayout(null, null);
}
