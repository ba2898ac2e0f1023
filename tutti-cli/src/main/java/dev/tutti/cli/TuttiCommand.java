package dev.tutti.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.util.Properties;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The {@code tutti} command and the main class of {@code tutti.jar}: {@code tutti run|mpjrun|info|bench|help ...}.
 *
 * <p>Exit status: that of the subcommand; 2 for a usage error (unknown option, missing or invalid argument), with
 * one line naming the problem and a pointer to {@code --help}.
 */
@Command(name = "tutti", mixinStandardHelpOptions = true, versionProvider = TuttiCommand.Version.class,
    description = "Tutti: message passing for Java. Runs jobs, benchmarks, and describes the installation.",
    synopsisSubcommandLabel = "COMMAND")
public final class TuttiCommand implements Runnable {
    @Spec
    private CommandSpec spec;

    /**
     * Runs the command line and exits with its status.
     *
     * @param args the arguments
     */
    public static void main(final String[] args) {
        System.exit(newCommandLine().execute(args));
    }

    /**
     * The command line with every subcommand registered, writing to {@code System.out}/{@code System.err}.
     *
     * @return the command line
     */
    public static CommandLine newCommandLine() {
        return newCommandLine(new RunCommand());
    }

    /**
     * The command line with a given {@code run} subcommand (tests supply one with a stand-in rendezvous).
     *
     * @param run the run subcommand
     * @return the command line
     */
    static CommandLine newCommandLine(final RunCommand run) {
        return newCommandLine(run, new MpjrunCommand());
    }

    /**
     * The command line with given {@code run} and {@code mpjrun} subcommands (tests supply them with a stand-in
     * rendezvous or streams).
     *
     * @param run    the run subcommand
     * @param mpjrun the mpjrun subcommand
     * @return the command line
     */
    static CommandLine newCommandLine(final RunCommand run, final MpjrunCommand mpjrun) {
        final CommandLine cl = new CommandLine(new TuttiCommand());
        cl.addSubcommand("run", run);
        cl.addSubcommand("mpjrun", mpjrun);
        cl.addSubcommand("info", new InfoCommand());
        cl.addSubcommand("bench", new dev.tutti.bench.osu.BenchCommand());
        cl.addSubcommand("help", new CommandLine.HelpCommand());
        cl.getSubcommands().get("run").setStopAtPositional(true);
        cl.getSubcommands().get("mpjrun").setStopAtPositional(true);
        cl.setParameterExceptionHandler(TuttiCommand::usageError);
        cl.setHelpFactory(SpaceSeparatedHelp::new);
        return cl;
    }

    /**
     * The help of every command, with an option's value after a space as mpirun and the user guide write it
     * ({@code -n N}, {@code -cp CLASSPATH}) rather than picocli's {@code -n=N}. An optional value keeps its {@code =}
     * ({@code --check[=MODE]}), the only form in which it is read as the option's. Parsing is not changed: both
     * {@code -n 4} and {@code -n=4} are accepted.
     */
    static final class SpaceSeparatedHelp extends CommandLine.Help {
        SpaceSeparatedHelp(final CommandSpec spec, final CommandLine.Help.ColorScheme colors) {
            super(spec, colors);
        }

        @Override
        public IParamLabelRenderer parameterLabelRenderer() {
            final IParamLabelRenderer standard = super.parameterLabelRenderer();
            return new IParamLabelRenderer() {
                @Override
                public Ansi.Text renderParameterLabel(final CommandLine.Model.ArgSpec arg, final Ansi ansi,
                    final java.util.List<Ansi.IStyle> styles) {
                    final Ansi.Text label = standard.renderParameterLabel(arg, ansi, styles);
                    final String separator = standard.separator();
                    if (arg.isOption() && label.plainString().startsWith(separator)) {
                        return ansi.text(" ").concat(label.substring(separator.length()));
                    }
                    return label;
                }

                @Override
                public String separator() {
                    return " ";
                }
            };
        }
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "a command is required (run, mpjrun, info, bench, help)");
    }

    /**
     * Reports a usage error in one line plus a pointer to the help, and returns exit status 2.
     *
     * @param e    the error
     * @param args the arguments
     * @return 2
     */
    private static int usageError(final CommandLine.ParameterException e, final String[] args) {
        final CommandLine cl = e.getCommandLine();
        final PrintWriter err = cl.getErr();
        err.println(cl.getCommandSpec().qualifiedName() + ": " + e.getMessage());
        err.println("Try '" + cl.getCommandSpec().qualifiedName() + " --help' for more information.");
        err.flush();
        return cl.getCommandSpec().exitCodeOnInvalidInput();
    }

    /** @return the version of Tutti, from the build ({@code unknown} if run from unfiltered sources) */
    static String version() {
        try (InputStream in = TuttiCommand.class.getResourceAsStream("version.properties")) {
            if (null == in) {
                return "unknown";
            }
            final Properties p = new Properties();
            p.load(in);
            return p.getProperty("version", "unknown");
        } catch (final IOException e) {
            return "unknown (" + e + ")";
        }
    }

    /** Supplies {@code tutti --version}. */
    public static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"tutti " + version(), "java " + Runtime.version() + " ("
                + System.getProperty("java.vendor") + ", " + System.getProperty("java.home") + ")"};
        }
    }
}
