/**
 * Reduction kernels: the local step {@code inout = in (op) inout} of every reducing collective, one loop per
 * (predefined operation x primitive type), plus the adapter for user functions. {@link dev.tutti.type.kernel.Kernels}
 * holds the operation codes; {@code internal.RawReduction} checks a reduction and picks the kernel for a datatype.
 *
 * <p>Layer: kernel, the bottom: pure arithmetic over memory segments that imports only the JDK, so the api's
 * {@code Op} and the engine may both use it.
 *
 * <p>{@code ByteKernels} ... {@code DoubleKernels} are generated from
 * {@code src/main/scripts/PrimitiveKernels.java.template} by {@code src/main/scripts/KernelGen.java}; edit the
 * template, never the generated classes ({@code GeneratedKernelsTest} fails when they drift).
 */
package dev.tutti.type.kernel;
