/**
 * Reduction kernels: the local step {@code inout = in (op) inout} of every reducing collective, one loop per
 * (predefined operation x primitive type), plus the adapter for user functions. Entry point:
 * {@link dev.tutti.type.kernel.Kernels}, which takes a predefined operation by its code; the op-aware dispatch is
 * {@link dev.tutti.type.LocalReduction} (and {@code Op.reduceLocal}).
 *
 * <p>Layer: {@code type}, a leaf that any layer may use. Imports only {@code dev.tutti} (Datatype,
 * TuttiException, ErrorClass; never Op), {@code internal} and the JDK.
 *
 * <p>{@code ByteKernels} ... {@code DoubleKernels} are generated from
 * {@code src/main/scripts/PrimitiveKernels.java.template} by {@code src/main/scripts/KernelGen.java}; edit the
 * template, never the generated classes ({@code GeneratedKernelsTest} fails when they drift).
 */
package dev.tutti.type.kernel;
