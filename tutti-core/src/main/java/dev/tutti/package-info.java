/**
 * Tutti's public API: {@link dev.tutti.Tutti} (entry point, embedded mode), {@link dev.tutti.Communicator} (an
 * intracommunicator: point-to-point and every collective), {@link dev.tutti.Buf} (typed buffers), {@link dev.tutti.Op},
 * {@link dev.tutti.Request}, {@link dev.tutti.Status}, {@link dev.tutti.TuttiException} with
 * {@link dev.tutti.ErrorClass}.
 *
 * <p>Layer: api, below the channels. The public API only: its handles ({@code Tutti}, the communicators,
 * {@code SharedWindow}, ...) hold or start the implementation, which lives in packages that are not exported
 * ({@code dev.tutti.job}, {@code dev.tutti.calls}, the engine below); its value types ({@code Buf}, {@code Datatype},
 * {@code Op}, {@code Status}, {@code Request}, {@code TuttiException}, {@code ErrorClass}, ...) hold none of it and
 * are used by every layer (they import only {@code internal} and {@code type}). See docs/architecture.md.
 */
package dev.tutti;
