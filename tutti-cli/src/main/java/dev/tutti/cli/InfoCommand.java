package dev.tutti.cli;

import dev.tutti.runtime.identity.LaunchReport;
import dev.tutti.runtime.SecretFile;
import dev.tutti.internal.Settings;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code tutti info}: the Tutti version, the JVM, the processors, every setting of {@link Settings} with its value
 * and where the value comes from, the transports in this build, and which launcher started this process and why.
 * {@code tutti info --settings} describes every setting (environment variable, default, when it is read, meaning);
 * with {@code --markdown}, as the user guide's settings table ({@code docs/configuration.md}).
 */
@Command(name = "info", mixinStandardHelpOptions = true,
    description = "Describes this installation: version, Java, processors, settings and transports.")
public final class InfoCommand implements Callable<Integer> {
    /** Transports Tutti knows, with the class that implements each; those present in this build are listed. */
    private static final String[][] TRANSPORTS = {
        {"inproc", "dev.tutti.transport.inproc.InprocTransport", "ranks as threads of one JVM"},
        {"shm", "dev.tutti.transport.shm.ShmTransport", "processes on one host, shared memory"},
        {"tcp", "dev.tutti.transport.tcp.TcpTransport", "processes on any hosts, TCP"},
    };

    @Spec
    private CommandSpec spec;

    @Option(names = "--settings", description = "Describe every setting: name, environment variable, default, "
        + "value in force, when it is read and what it means; and name tutti.*/TUTTI_* names that are no setting.")
    private boolean settings;

    @Option(names = "--markdown", description = "With --settings: print the settings table of docs/configuration.md "
        + "instead.")
    private boolean markdown;

    /** Creates the command. */
    public InfoCommand() {
    }

    @Override
    public Integer call() {
        final PrintWriter out = spec.commandLine().getOut();
        if (markdown && !settings) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--markdown needs --settings");
        }
        if (settings) {
            if (markdown) {
                out.print(SettingsReport.markdown());
            } else {
                SettingsReport.print(out);
            }
            out.flush();
            return 0;
        }
        out.println("tutti " + TuttiCommand.version());
        out.println("java        " + Runtime.version() + " (" + System.getProperty("java.vendor") + ")");
        out.println("java.home   " + System.getProperty("java.home"));
        out.println("os          " + System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
            + System.getProperty("os.arch"));
        out.println("processors  " + Runtime.getRuntime().availableProcessors());
        out.println();
        out.println("settings (system property -Dname=value, or environment variable; tutti info --settings "
            + "describes them):");
        final List<String[]> rows = new ArrayList<>();
        for (final SettingsReport.Value v : SettingsReport.values()) {
            if (Settings.find(v.name()).isProperty()) { // the launch variables: see "launched" below
                rows.add(new String[] {v.name(), v.value().isEmpty() ? "(none)" : v.value(), v.source(), v.envName()});
            }
        }
        final int[] width = new int[3];
        for (final String[] r : rows) {
            for (int c = 0; c < width.length; c++) {
                width[c] = Math.max(width[c], r[c].length());
            }
        }
        for (final String[] r : rows) {
            out.println(("  %-" + width[0] + "s  %-" + width[1] + "s  %-" + width[2] + "s  %s").formatted(
                (Object[]) r));
        }
        if (!SettingsReport.unknown().isEmpty()) {
            out.println("  not settings (misspelt?): " + String.join(", ", SettingsReport.unknown().keySet()));
        }
        out.println();
        out.println("transports:");
        for (final String[] t : TRANSPORTS) {
            out.printf("  %-7s %-38s %s%n", t[0], t[2], present(t[1]) ? "available" : "not in this build");
        }
        out.println();
        final List<String> launch = LaunchReport.describe(System.getenv(), SecretFile.path());
        for (int i = 0; i < launch.size(); i++) {
            out.println((0 == i ? "launcher    " : "            ") + launch.get(i));
        }
        out.flush();
        return 0;
    }

    private static boolean present(final String className) {
        try {
            Class.forName(className, false, InfoCommand.class.getClassLoader());
            return true;
        } catch (final ClassNotFoundException e) {
            return false;
        }
    }
}
