/**
 * The API of MPJ Express 0.44 (mpiJava 1.2 style: {@code MPI.Init}, {@code MPI.COMM_WORLD.Send(buf, offset, count,
 * MPI.INT, dest, tag)}, {@code Rank()}, {@code MPI.OBJECT}, ...), implemented on Tutti's public API, so that
 * programs written for MPJ Express compile and run unchanged under {@code tutti run}. Names, signatures and constant
 * values follow MPJ Express; where its behaviour was broken (Cancel, Intercomm Merge, error handlers,
 * PROC_NULL, Dims_create) this package does what MPI says, as docs/tutti-mpj.md lists; Abort returns, as there.
 */
package mpi;
