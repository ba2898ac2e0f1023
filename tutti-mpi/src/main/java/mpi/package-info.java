/**
 * The API of Open MPI 4.1's Java bindings ({@code mpi.MPI}, {@code Comm}, {@code Intracomm}, {@code Datatype},
 * ...), implemented on Tutti's public API, so that programs written for those bindings compile and run unchanged
 * under {@code tutti run}. Names, signatures, constant values and semantics follow that API; see each class.
 */
package mpi;
