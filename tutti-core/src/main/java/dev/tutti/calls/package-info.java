/**
 * The api's implementation, not exported: what turns a call on a communicator into a call of the engine. The
 * argument checks ({@link dev.tutti.calls.P2pChecks}, {@link dev.tutti.calls.CollChecks}), the bridges that fill in
 * a collective's descriptor for each communicator kind ({@link dev.tutti.calls.IntraBridge},
 * {@link dev.tutti.calls.InterBridge}), the object collectives ({@link dev.tutti.calls.ObjectBridge}) and the
 * handles' own requests ({@link dev.tutti.calls.CompletedRequest}, {@link dev.tutti.calls.ObjectReceive}).
 *
 * <p>Layer: calls, just below the api handles ({@code Communicator}, {@code Intercommunicator}), which alone use
 * it, and {@code job}. May import {@code dev.tutti} (the handles it serves, the value types), {@code comm},
 * {@code coll} and below. What it needs of a handle's package-private state it reaches through
 * {@link dev.tutti.calls.ApiAccess}, off the per-call paths.
 */
package dev.tutti.calls;
