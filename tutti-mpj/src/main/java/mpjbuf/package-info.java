/**
 * The classes of MPJ Express's {@code mpjbuf} package that programs use: {@link mpjbuf.Buffer} and its storage, for
 * {@code Comm.Pack}/{@code Unpack} and {@code MPI.PACKED} messages, and the buffer's typed sections
 * ({@link mpjbuf.Type}), the messages of the device level ({@code mpjdev.Comm}).
 */
package mpjbuf;
