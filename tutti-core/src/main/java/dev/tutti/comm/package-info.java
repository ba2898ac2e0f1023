/**
 * Communicator management, below the API and above the collective engine: context-id blocks and the agreement
 * by which the members of a new communicator choose one ({@link dev.tutti.comm.ContextIdAllocator},
 * {@link dev.tutti.comm.Agreement}). The API layer ({@code dev.tutti}) builds the communicator objects; this
 * package decides their ids. May import {@code dev.tutti} (types and errors), {@code dev.tutti.coll},
 * {@code dev.tutti.p2p}, {@code dev.tutti.runtime} and {@code dev.tutti.internal}.
 */
package dev.tutti.comm;
