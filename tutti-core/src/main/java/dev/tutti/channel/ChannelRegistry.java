package dev.tutti.channel;

import dev.tutti.Comm;
import dev.tutti.ErrorClass;
import dev.tutti.internal.Errors;

import java.util.HashMap;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * The open channels of each communicator of this JVM, by name: what {@link AlltoallChannel#lookup} reads and what
 * refuses a name used twice on one communicator.
 *
 * <p>Implementation note. Keyed by the communicator object (its identity: {@code Comm} keeps {@code Object}'s
 * equality), weakly, so a dropped communicator does not stay reachable through its channels. A name is reserved
 * (value null) before creation talks to the other ranks, so two threads cannot create one name at once, and bound
 * once creation succeeded; guarded by the class's monitor.
 */
final class ChannelRegistry {
    private static final Map<Comm, Map<String, AlltoallChannel>> OPEN = new WeakHashMap<>();

    private ChannelRegistry() {
    }

    static synchronized void reserve(final String op, final String where, final Comm comm, final String name) {
        final Map<String, AlltoallChannel> names = OPEN.computeIfAbsent(comm, c -> new HashMap<>());
        if (names.containsKey(name)) {
            throw Errors.argument(ErrorClass.ARG, op, where, "name", name, "a name no open channel of this "
                + "communicator has (close the other channel first)");
        }
        names.put(name, null);
    }

    static synchronized void bind(final Comm comm, final String name, final AlltoallChannel channel) {
        OPEN.get(comm).put(name, channel);
    }

    static synchronized void remove(final Comm comm, final String name, final AlltoallChannel channel) {
        final Map<String, AlltoallChannel> names = OPEN.get(comm);
        if (null != names && names.containsKey(name) && channel == names.get(name)) {
            names.remove(name);
        }
    }

    static synchronized AlltoallChannel find(final Comm comm, final String name) {
        final Map<String, AlltoallChannel> names = OPEN.get(comm);
        return null == names ? null : names.get(name);
    }
}
