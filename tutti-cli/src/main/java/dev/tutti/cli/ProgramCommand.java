package dev.tutti.cli;

import dev.tutti.launcher.RendezvousService;
import picocli.CommandLine.Parameters;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * A command that starts a job running a main class or a jar ({@code tutti run}, {@code tutti mpjrun}): the program's
 * words, which {@link RunCommand.JarAndArgs} fills in when {@code -jar JAR} takes every later word as the program's,
 * and where the job's rendezvous and output go.
 */
abstract class ProgramCommand implements Callable<Integer> {
    @Parameters(paramLabel = "MAIN_CLASS [ARGS...]", arity = "0..*",
        description = "The main class and its arguments (or, after -jar JAR, the arguments).")
    private List<String> program = new ArrayList<>();

    /** How the job's ranks meet. */
    final RendezvousService.Factory rendezvous;
    /** Where the ranks' stdout goes. */
    final PrintStream out;
    /** Where the ranks' stderr and the failure line go. */
    final PrintStream err;

    /**
     * @param rendezvous the rendezvous factory
     * @param out        where the ranks' stdout goes
     * @param err        where the ranks' stderr and the failure line go
     */
    ProgramCommand(final RendezvousService.Factory rendezvous, final PrintStream out, final PrintStream err) {
        this.rendezvous = rendezvous;
        this.out = out;
        this.err = err;
    }

    /** @param jar the program's jar */
    abstract void jar(String jar);

    /** @return the program's words, modifiable: its main class (without a jar) and its arguments */
    final List<String> program() {
        return program;
    }
}
