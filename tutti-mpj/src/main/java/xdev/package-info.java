/**
 * The one class of MPJ Express's device layer that programs see: {@link xdev.XDevException}, a superclass of
 * {@code mpi.MPIException}.
 */
package xdev;
