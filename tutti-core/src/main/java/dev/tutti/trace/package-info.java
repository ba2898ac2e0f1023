/**
 * Tutti's Java Flight Recorder events and a rank's recording: what the library does (point-to-point operations,
 * collectives, channel exchanges, waits that block), as {@code jdk.jfr} events that JDK Mission Control shows beside
 * the JVM's own, and the clock offset of each rank to rank 0 that lets the ranks' recordings be merged into one
 * timeline. {@link dev.tutti.trace.Trace} is the one switch: off unless the setting {@code tutti.jfr} names a
 * directory when the JVM starts, and then free (a {@code static final} flag the compiler folds away).
 *
 * <p>Layer: trace, between type and the api. Imports only the api's support ({@code internal}: the setting) and
 * {@code jdk.jfr}; every layer above, the channels included, may record its events here.
 */
package dev.tutti.trace;
