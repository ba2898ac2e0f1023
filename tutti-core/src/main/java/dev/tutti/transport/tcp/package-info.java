/**
 * The TCP transport: NIO, one authenticated connection per pair of ranks, eager and rendezvous framing
 * ({@link dev.tutti.transport.tcp.FrameDescriptor}).
 *
 * <p>Layer: transport.
 */
package dev.tutti.transport.tcp;
