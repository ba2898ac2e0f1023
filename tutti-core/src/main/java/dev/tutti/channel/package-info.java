/**
 * Alltoall channels: named, persistent alltoall exchanges created once over a communicator (intragroup) or an
 * intercommunicator (bipartite) and fed through a ring of pre-allocated buffers, after MPI/RT's alltoall collective
 * channel. Start at {@link dev.tutti.channel.AlltoallChannel}.
 *
 * <p>Layering: this package is built on the public API of {@code dev.tutti} only (a channel's exchanges are starts
 * of persistent alltoalls on a private duplicate of the communicator, prioritized through
 * {@link dev.tutti.PersistentRequest#setPriority}), so it sits above the api layer, and nothing in {@code dev.tutti}
 * depends on it (LayeringTest).
 */
package dev.tutti.channel;
