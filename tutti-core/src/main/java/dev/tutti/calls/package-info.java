/**
 * The communicators behind the api's interfaces, not exported: {@link dev.tutti.calls.CommImpl} (identity and
 * point-to-point), {@link dev.tutti.calls.CollectiveCalls} (the collective families, once for both kinds),
 * {@link dev.tutti.calls.CommunicatorImpl} and {@link dev.tutti.calls.IntercommunicatorImpl}, and the shared memory
 * of a communicator ({@link dev.tutti.calls.SharedWindowImpl}, {@link dev.tutti.calls.SharedMemoryImpl}). Around them,
 * what turns a call into a call of the engine: the argument checks ({@link dev.tutti.calls.P2pChecks},
 * {@link dev.tutti.calls.CollChecks}), the bridges that fill in a collective's descriptor for each communicator kind
 * ({@link dev.tutti.calls.IntraBridge}, {@link dev.tutti.calls.InterBridge}), the object collectives
 * ({@link dev.tutti.calls.ObjectBridge}) and the handles' own requests.
 *
 * <p>Layer: calls, below {@code job}, which alone makes communicators. May import the api, {@code check},
 * {@code comm}, {@code coll} and every layer below.
 */
package dev.tutti.calls;
