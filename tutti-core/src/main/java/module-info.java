/**
 * Tutti: MPI-style message passing for Java, built around collective communication. Only the public API
 * ({@code dev.tutti}, and the alltoall channels built on it, {@code dev.tutti.channel}) is exported; the
 * launcher's use of the rendezvous service is a qualified export.
 */
@SuppressWarnings("module") // the launcher and the cli are named modules only when run from the module path
module dev.tutti {
    // Only for tutti.log.level debug and trace: lets the default backend of System.Logger pass those records
    // (runtime.Log), where the module is present; nothing else uses it.
    requires static java.logging;
    exports dev.tutti;
    exports dev.tutti.channel;
    exports dev.tutti.internal to dev.tutti.launcher, dev.tutti.cli; // Settings: the one registry of settings
    exports dev.tutti.runtime to dev.tutti.launcher, dev.tutti.cli;
    exports dev.tutti.runtime.identity to dev.tutti.cli; // LaunchReport, Identities: tutti info

    requires jdk.jfr; // dev.tutti.trace: the Flight Recorder events, part of the JDK

    uses dev.tutti.internal.Provider; // Tutti.init and the api's other static entries find the implementation
    provides dev.tutti.internal.Provider with dev.tutti.job.JobProvider;
}
