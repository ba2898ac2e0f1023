/**
 * Datatypes and reductions: the engine's op-aware reduction step ({@link dev.tutti.type.LocalReduction}), boolean
 * staging and type codes; {@code type.kernel} holds one reduction kernel per operation and primitive type.
 *
 * <p>Layer: leaf; any layer may use it. May import only the value types of {@code dev.tutti}.
 */
package dev.tutti.type;
