/**
 * Tutti's public API: {@link dev.tutti.Tutti} (entry point, embedded mode), {@link dev.tutti.Communicator} (an
 * intracommunicator: point-to-point and every collective), {@link dev.tutti.Buf} (typed buffers), {@link dev.tutti.Op},
 * {@link dev.tutti.Request}, {@link dev.tutti.Status}, {@link dev.tutti.TuttiException} with
 * {@link dev.tutti.ErrorClass}.
 *
 * <p>Layer: api, the bottom of the engine. Interfaces ({@code Tutti}, the communicators, {@code SharedWindow},
 * {@code SharedMemory}, the call families), values ({@code Buf}, {@code Datatype}, {@code Op}, {@code Group},
 * {@code Status}, ...) and exceptions; the library implements the interfaces, a program never does. Imports only its
 * support, {@code internal}, and the kernels of {@code type.kernel}; the static entries reach the implementation
 * through {@code internal.Provider} ({@code ServiceLoader}), so every layer of the engine may use the api and none is
 * used by it. See docs/architecture.md.
 */
package dev.tutti;
