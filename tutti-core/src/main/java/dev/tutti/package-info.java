/**
 * Tutti's public API: {@link dev.tutti.Tutti} (entry point, embedded mode), {@link dev.tutti.Communicator} (an
 * intracommunicator: point-to-point and every collective), {@link dev.tutti.Buf} (typed buffers), {@link dev.tutti.Op},
 * {@link dev.tutti.Request}, {@link dev.tutti.Status}, {@link dev.tutti.TuttiException} with
 * {@link dev.tutti.ErrorClass}.
 *
 * <p>Layer: api, the top. May import every internal package. The value types {@code Buf}, {@code Datatype},
 * {@code Op}, {@code Status}, {@code Request}, {@code TuttiException} and {@code ErrorClass} are leaves that lower
 * layers may use too (they import nothing above them).
 */
package dev.tutti;
