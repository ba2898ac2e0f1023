package dev.tutti.calls;

import dev.tutti.Comm;
import dev.tutti.Tutti;

/**
 * The implementation's one way into what the api's handles keep package-private, in the manner of the JDK's
 * {@code SharedSecrets}: {@link Comm} installs the one instance when its class is initialized, so the accessor is
 * set before any communicator exists to be passed here. Used only off the per-call paths (error messages, a rank thread's start).
 */
public abstract class ApiAccess {
    private static ApiAccess access;

    protected ApiAccess() {
    }

    /** Installs the accessor; called once, from {@link Comm}'s static initializer. */
    public static void install(final ApiAccess accessor) {
        access = accessor;
    }

    /** @return the communicator's description, as error messages name it */
    public static String describe(final Comm comm) {
        return access.describeComm(comm);
    }

    /** Binds the rank's handle to the calling thread, as an embedded job's rank thread does first. */
    public static void bindToThread(final Tutti tutti) {
        access.bindTuttiToThread(tutti);
    }

    protected abstract String describeComm(Comm comm);

    protected abstract void bindTuttiToThread(Tutti tutti);
}
