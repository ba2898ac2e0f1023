/**
 * The classes of MPJ Express's {@code mpjdev} package that programs see: the superclass of {@code mpi.Status} and of
 * {@code mpi.MPIException}, the types of {@code mpi}'s public implementation fields, and the device level MPJ
 * Express's own test suite drives: {@link mpjdev.MPJDev} ({@code init}, {@code WORLD}, {@code finish}) and
 * {@link mpjdev.Comm}'s blocking sends and receives of {@code mpjbuf.Buffer} sections. Programs that only
 * {@code import mpjdev.*;} compile because the package exists.
 */
package mpjdev;
