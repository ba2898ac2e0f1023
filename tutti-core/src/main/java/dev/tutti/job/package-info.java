/**
 * The wiring of a job behind the entry point ({@link dev.tutti.Tutti}), not exported: how a rank's engine reaches its
 * peers ({@link dev.tutti.job.TransportWiring}), the ranks of an embedded job as threads and the one outcome made of
 * theirs ({@link dev.tutti.job.LocalJob}), and on which host each rank of a launched job runs
 * ({@link dev.tutti.job.HostDiscovery}).
 *
 * <p>Layer: job, the implementation the entry point starts; only {@code Tutti} uses it, and it may use the api and
 * every layer below. It reaches what the api keeps package-private through {@link dev.tutti.calls.ApiAccess}.
 */
package dev.tutti.job;
