package dev.tutti.job;

import dev.tutti.Comm;
import dev.tutti.Communicator;
import dev.tutti.RankBody;
import dev.tutti.SharedMemory;
import dev.tutti.SharedWindow;
import dev.tutti.Tutti;
import dev.tutti.calls.SharedMemoryImpl;
import dev.tutti.calls.SharedWindowImpl;
import dev.tutti.coll.AlgorithmId;
import dev.tutti.coll.CollKind;
import dev.tutti.coll.HostMap;
import dev.tutti.coll.SelectionTable;
import dev.tutti.internal.Provider;

import java.util.Optional;

/**
 * The implementation behind the api's static entries, found by {@link Provider#get()} through
 * {@link java.util.ServiceLoader}: it starts ranks ({@link TuttiImpl}) and reaches the shared memory of a
 * communicator ({@link SharedWindowImpl}, {@link SharedMemoryImpl}). Stateless.
 */
public final class JobProvider implements Provider {
    /** For {@link java.util.ServiceLoader}. */
    public JobProvider() {
    }

    @Override
    public Tutti init(final Tutti.Options options) {
        return TuttiImpl.init(options);
    }

    @Override
    public void runLocal(final int n, final Tutti.Options options, final RankBody body) {
        TuttiImpl.runLocal(n, options, body);
    }

    @Override
    public Optional<SharedWindow> allocateWindow(final Communicator comm, final long bytes) {
        return SharedWindowImpl.allocate(comm, bytes);
    }

    @Override
    public Optional<SharedMemory> sharedMemory(final Comm comm) {
        return SharedMemoryImpl.of(comm);
    }

    @Override
    public void checkAlgorithm(final String operation, final String algorithm) {
        final CollKind kind = CollKind.fromMpiName(operation);
        if (!"auto".equalsIgnoreCase(algorithm) && !SelectionTable.FLAT.equalsIgnoreCase(algorithm)) {
            AlgorithmId.parse(kind, algorithm);
        }
    }

    @Override
    public void checkHostLayout(final String layout) {
        HostMap.layout(layout, 1);
    }
}
