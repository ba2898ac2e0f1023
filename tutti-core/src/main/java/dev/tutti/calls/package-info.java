/**
 * The api's implementation, not exported: what turns a call on a communicator into a call of the engine. The
 * argument checks ({@link dev.tutti.calls.P2pChecks}, {@link dev.tutti.calls.CollChecks}), the bridges that fill in
 * a collective's descriptor for each communicator kind ({@link dev.tutti.calls.IntraBridge},
 * {@link dev.tutti.calls.InterBridge}) and the object collectives ({@link dev.tutti.calls.ObjectBridge}).
 *
 * <p>Layer: calls, just below the api handles ({@code Communicator}, {@code Intercommunicator}), which alone use
 * it. May import the value types of {@code dev.tutti}, {@code comm}, {@code coll} and below. What it needs of a
 * handle's package-private state it reaches through {@link dev.tutti.calls.ApiAccess}, off the per-call paths.
 */
package dev.tutti.calls;
