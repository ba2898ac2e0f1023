/**
 * Point-to-point: the matching engine of a rank (posted and unexpected queues, MPI non-overtaking order), requests
 * and their wait loop, failure bookkeeping.
 *
 * <p>Layer: p2p. May import {@code transport}, {@code runtime}, {@code internal} and the value types of
 * {@code dev.tutti}.
 */
package dev.tutti.p2p;
