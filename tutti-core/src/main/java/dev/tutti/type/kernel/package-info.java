/**
 * Reduction kernels: the local step {@code inout = in (op) inout} of every reducing collective, one loop per
 * (predefined operation x primitive type), plus the adapter for user functions. Entry point:
 * {@link dev.tutti.type.kernel.Reductions}.
 *
 * <p>Layer: {@code type}, a leaf that any layer may use. Imports only {@code dev.tutti} (Op, Datatype,
 * TuttiException, ErrorClass) and the JDK.
 *
 * <p>{@code ByteKernels} ... {@code DoubleKernels} are generated from
 * {@code src/main/scripts/PrimitiveKernels.java.template} by {@code src/main/scripts/KernelGen.java}; edit the
 * template, never the generated classes ({@code GeneratedKernelsTest} fails when they drift).
 */
package dev.tutti.type.kernel;
