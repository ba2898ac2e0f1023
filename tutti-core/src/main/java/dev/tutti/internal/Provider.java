package dev.tutti.internal;

import dev.tutti.Comm;
import dev.tutti.Communicator;
import dev.tutti.RankBody;
import dev.tutti.SharedMemory;
import dev.tutti.SharedWindow;
import dev.tutti.Tutti;

import java.util.Optional;
import java.util.ServiceLoader;

/**
 * The implementation behind the api's static entries ({@link Tutti#init}, {@link Tutti#runLocal},
 * {@link SharedWindow#allocate}, {@link SharedMemory#of}, the checks of {@link Tutti.Options}): the api declares
 * what it needs here and finds the one implementation with {@link ServiceLoader}, so the api package imports
 * nothing of the engine and the engine, which uses the api's values, takes part in no package cycle.
 * {@code dev.tutti.job.JobProvider} is the implementation (registered in {@code module-info.java} and in
 * {@code META-INF/services} for the class path).
 *
 * <p>Implementation note. Looked up once, on first use, by the holder idiom; later calls cost a static load.
 */
public interface Provider {
    /** @return the implementation */
    static Provider get() {
        return Holder.PROVIDER;
    }

    /**
     * @see Tutti#init(Tutti.Options)
     * @param options the options
     * @return this rank's handle
     */
    Tutti init(Tutti.Options options);

    /**
     * @see Tutti#runLocal(int, Tutti.Options, RankBody)
     * @param n       the number of ranks
     * @param options the options
     * @param body    what each rank runs
     */
    void runLocal(int n, Tutti.Options options, RankBody body);

    /**
     * @see SharedWindow#allocate(Communicator, long)
     * @param comm  an intracommunicator
     * @param bytes this rank's block size
     * @return the window, or empty
     */
    Optional<SharedWindow> allocateWindow(Communicator comm, long bytes);

    /**
     * @see SharedMemory#of(Comm)
     * @param comm a communicator, or null
     * @return the arena, or empty
     */
    Optional<SharedMemory> sharedMemory(Comm comm);

    /**
     * Checks a forced algorithm as {@link Tutti.Options#algorithm} takes it.
     *
     * @param operation the MPI name of the operation
     * @param algorithm the algorithm's name, {@code auto} or {@code flat}
     * @throws IllegalArgumentException naming what is wrong
     */
    void checkAlgorithm(String operation, String algorithm);

    /**
     * Checks a host layout as {@link Tutti.Options#hosts} takes it.
     *
     * @param layout the layout
     * @throws IllegalArgumentException naming what is wrong
     */
    void checkHostLayout(String layout);

    /** The one implementation, found on first use. */
    final class Holder {
        private static final Provider PROVIDER = ServiceLoader.load(Provider.class, Provider.class.getClassLoader())
            .findFirst().orElseThrow(() -> Failures.internal("Tutti.init", null,
                "no implementation of dev.tutti.internal.Provider on the class path (tutti-core's"
                    + " META-INF/services entry is missing)"));

        private Holder() {
        }
    }
}
