/**
 * The in-process transport: ranks are threads of one JVM; messages are handed over by reference and copied once.
 *
 * <p>Layer: transport.
 */
package dev.tutti.transport.inproc;
