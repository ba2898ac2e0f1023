/**
 * The {@code tutti} command ({@link dev.tutti.cli.TuttiCommand}): {@code run} starts a job (mpirun's flags),
 * {@code info} describes this installation, {@code bench} runs the benchmarks. This is the one module that decides
 * what the process prints and with which status it exits.
 */
package dev.tutti.cli;
