/**
 * The transport SPI: {@link dev.tutti.transport.Transport} moves messages in order between ranks;
 * {@link dev.tutti.transport.Outbound} and {@link dev.tutti.transport.Inbound} are a message leaving and arriving;
 * {@link dev.tutti.transport.InboundSink} is where arrivals go (the p2p engine).
 *
 * <p>Layer: transport. May import {@code runtime}, {@code internal} and the value types of {@code dev.tutti}.
 */
package dev.tutti.transport;
