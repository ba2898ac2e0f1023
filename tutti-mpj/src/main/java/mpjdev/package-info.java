/**
 * The classes of MPJ Express's {@code mpjdev} package that programs see: the superclass of {@code mpi.Status} and of
 * {@code mpi.MPIException}, and the types of {@code mpi}'s public implementation fields. Programs that only
 * {@code import mpjdev.*;} compile because the package exists.
 */
package mpjdev;
