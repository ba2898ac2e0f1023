/**
 * Datatypes and reductions in the engine: the op-aware reduction step ({@link dev.tutti.type.LocalReduction}),
 * boolean staging and type codes.
 *
 * <p>Layer: type, just above the api; every layer of the engine may use it. Imports the api, {@code internal} and
 * {@code type.kernel}.
 */
package dev.tutti.type;
