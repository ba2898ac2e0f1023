package dev.tutti;

/** The code one rank runs in {@link Tutti#runLocal}. */
@FunctionalInterface
public interface RankBody {

    /**
     * Runs the rank.
     *
     * @param world the world communicator of this rank
     * @throws Exception anything; it fails the job, naming this rank
     */
    void run(Communicator world) throws Exception;
}
