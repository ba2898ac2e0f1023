/**
 * What the api starts, not exported: {@link dev.tutti.job.JobProvider}, the implementation of
 * {@code internal.Provider} that {@code ServiceLoader} finds for {@code Tutti.init} and the api's other static
 * entries; a rank's handle ({@link dev.tutti.job.TuttiImpl}); how its engine reaches its peers
 * ({@link dev.tutti.job.TransportWiring}); the ranks of an embedded job as threads and the one outcome made of theirs
 * ({@link dev.tutti.job.LocalJob}); and on which host each rank of a launched job runs
 * ({@link dev.tutti.job.HostDiscovery}).
 *
 * <p>Layer: job, the top of the implementation; nothing in the core imports it. May import every layer below.
 */
package dev.tutti.job;
