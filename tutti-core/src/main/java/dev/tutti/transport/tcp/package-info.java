/**
 * The TCP transport: NIO, one authenticated connection per pair of ranks, eager and rendezvous framing
 * ({@link dev.tutti.transport.tcp.FrameDescriptor}); waiting threads read the sockets themselves, an I/O thread when
 * nobody waits (see {@link dev.tutti.transport.tcp.TcpTransport}).
 *
 * <p>Layer: transport.
 */
package dev.tutti.transport.tcp;
