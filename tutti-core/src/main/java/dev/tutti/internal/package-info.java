/**
 * Shared internals with no dependencies on other Tutti layers: the error message factories, {@code Errors} (what
 * a caller passed) and {@code Failures} (what went wrong below the caller), and {@code SegmentCopy}, the one way the
 * library copies bytes between memory segments.
 *
 * <p>Layer: internal, the bottom; every layer may use it, {@code type} and the value types of {@code dev.tutti}
 * included. May import only the value types of {@code dev.tutti}.
 */
package dev.tutti.internal;
