package dev.tutti.cli;

import dev.tutti.runtime.Configuration;
import dev.tutti.runtime.LaunchInfo;

import java.io.PrintWriter;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code tutti info}: the Tutti version, the JVM, the processors, every configuration setting of
 * {@link Configuration} with its value and where the value comes from, the transports in this build, and whether
 * this process was started by a launcher.
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

    /** Creates the command. */
    public InfoCommand() {
    }

    @Override
    public Integer call() {
        final PrintWriter out = spec.commandLine().getOut();
        out.println("tutti " + TuttiCommand.version());
        out.println("java        " + Runtime.version() + " (" + System.getProperty("java.vendor") + ")");
        out.println("java.home   " + System.getProperty("java.home"));
        out.println("os          " + System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
            + System.getProperty("os.arch"));
        out.println("processors  " + Runtime.getRuntime().availableProcessors());
        out.println();
        out.println("settings (system property -Dname=value, or environment variable):");
        for (final Setting s : settings()) {
            out.printf("  %-22s %-12s %-22s %s%n", s.property(), s.value(), s.source(), s.envName());
        }
        out.println();
        out.println("transports:");
        for (final String[] t : TRANSPORTS) {
            out.printf("  %-7s %-38s %s%n", t[0], t[2], present(t[1]) ? "available" : "not in this build");
        }
        out.println();
        final LaunchInfo launched = launchInfo();
        out.println("launched    " + (null == launched ? "no (a job of one rank)"
            : "rank " + launched.rank() + " of " + launched.size() + ", rendezvous " + launched.rendezvous()));
        out.flush();
        return 0;
    }

    /**
     * One setting.
     *
     * @param property the system property name
     * @param envName  the environment variable name
     * @param value    the value in force
     * @param source   where it comes from: {@code default}, {@code system property} or {@code environment}
     */
    record Setting(String property, String envName, String value, String source) {
    }

    /**
     * Every {@code *_PROP_NAME} constant of {@link Configuration} with its {@code *_DEFAULT}, so that new settings
     * appear here without changes to this command.
     *
     * @return the settings in declaration order
     */
    static List<Setting> settings() {
        final List<Setting> settings = new ArrayList<>();
        for (final Field f : Configuration.class.getFields()) {
            if (!Modifier.isStatic(f.getModifiers()) || !f.getName().endsWith("_PROP_NAME")
                || String.class != f.getType()) {
                continue;
            }
            final String property = (String) staticValue(f);
            final String base = f.getName().substring(0, f.getName().length() - "_PROP_NAME".length());
            Object defaultValue = null;
            try {
                defaultValue = staticValue(Configuration.class.getField(base + "_DEFAULT"));
            } catch (final NoSuchFieldException e) {
                defaultValue = "(none)";
            }
            // Configuration.value(...) derives the variable name this way: upper case, dots to underscores.
            final String envName = property.toUpperCase(Locale.ROOT).replace('.', '_');
            final String sysValue = System.getProperty(property);
            final String envValue = System.getenv(envName);
            if (null != sysValue) {
                settings.add(new Setting(property, envName, sysValue, "system property"));
            } else if (null != envValue) {
                settings.add(new Setting(property, envName, envValue, "environment"));
            } else {
                settings.add(new Setting(property, envName, String.valueOf(defaultValue), "default"));
            }
        }
        return settings;
    }

    private static Object staticValue(final Field f) {
        try {
            return f.get(null);
        } catch (final IllegalAccessException e) {
            throw new IllegalStateException("public constant " + f + " is not readable", e);
        }
    }

    private static boolean present(final String className) {
        try {
            Class.forName(className, false, InfoCommand.class.getClassLoader());
            return true;
        } catch (final ClassNotFoundException e) {
            return false;
        }
    }

    private static LaunchInfo launchInfo() {
        try {
            return LaunchInfo.fromEnvironment(System.getenv());
        } catch (final IllegalStateException e) {
            return null;
        }
    }
}
