/**
 * Shared internals with no dependencies on other Tutti layers: error message factories.
 *
 * <p>Layer: internal, the bottom. May import only the value types of {@code dev.tutti}.
 */
package dev.tutti.internal;
