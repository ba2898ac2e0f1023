/**
 * The runtime: launch information, the rendezvous (PMI-style key-value exchange), configuration, idle strategies and
 * the progress agent contract.
 *
 * <p>Layer: runtime. May import {@code internal} and the value types of {@code dev.tutti}.
 */
package dev.tutti.runtime;
