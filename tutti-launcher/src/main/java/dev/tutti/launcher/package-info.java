/**
 * Starting a job: {@link dev.tutti.launcher.Launcher} places ranks on hosts, runs the rendezvous, starts one JVM per
 * rank (locally or over ssh), forwards their output line by line, and stops the whole job when one rank fails, the
 * job times out or this process is interrupted. Used by {@code tutti run} and by the benchmarks.
 *
 * <p>Layer: a tool on top of {@code tutti-core}; it uses only {@code dev.tutti.runtime} (the rendezvous and the
 * names of the launch environment variables) and never the communication layers.
 */
package dev.tutti.launcher;
