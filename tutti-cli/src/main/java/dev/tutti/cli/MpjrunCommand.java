package dev.tutti.cli;

import dev.tutti.internal.Settings;
import dev.tutti.launcher.Host;
import dev.tutti.launcher.Hosts;
import dev.tutti.launcher.InvalidLaunchException;
import dev.tutti.launcher.JobResult;
import dev.tutti.launcher.Launcher;
import dev.tutti.launcher.RendezvousService;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tutti mpjrun}: MPJ Express's {@code mpjrun.sh} command line ({@link #SYNOPSIS}) on Tutti's launcher, so
 * that an MPJ Express program starts as its users know it. The devices map onto Tutti's modes: {@code multicore}
 * (the default, as in MPJ Express) runs the ranks as threads of this JVM, each with its own class loader
 * ({@link EmbeddedRun}); {@code niodev} and {@code hybdev} run one JVM a rank, on this machine or on the hosts of
 * the machines file, which takes Tutti's hostfile form (one host a line, as MPJ Express writes it). The exit status
 * is the job's (MPJ Express's {@code mpjrun.sh} exits 0 whatever the ranks did).
 *
 * <p>The program's class path must hold package {@code mpi} (tutti-mpj): {@code tutti.jar} cannot carry one, as a
 * program of Open MPI's Java API (tutti-mpi) brings its own, so the command refuses a class path without
 * tutti-mpj's before any rank starts rather than letting every rank fail to link.
 */
@Command(name = "mpjrun", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
    customSynopsis = {MpjrunCommand.SYNOPSIS_1, MpjrunCommand.SYNOPSIS_2, MpjrunCommand.SYNOPSIS_3},
    description = {"Runs an MPJ Express program (built against tutti-mpj) with the flags of MPJ Express's launcher: "
        + "-dev multicore runs the ranks as threads of this JVM, each loading the program through its own class "
        + "loader (its own static fields); niodev and hybdev run one JVM a rank, on this machine or on the hosts of "
        + "the machines file. Options come before the main class; every later word is the program's.", ""},
    footer = {"", "Not supported (an error naming the flag): -dev native and mxdev, the daemon and port flags "
        + "(-dport, -mpjport, -sport, -headnodeip), -mxboardnum, -localloader, -remoteloader, -debug, -profile.",
        "", "Exit status: 0; the failed rank's status (1 for a rank thread); 127 if the program cannot be started; "
        + "2 for a usage error."})
public final class MpjrunCommand extends ProgramCommand {
    /** Indent of the synopsis's later lines: under the first line's options, after {@code Usage: tutti mpjrun }. */
    private static final String MORE = "                    ";
    /** The synopsis, first line: {@code tutti mpjrun --help} prints it. */
    static final String SYNOPSIS_1 = "tutti mpjrun [-np N] [-dev multicore|niodev|hybdev] [-machinesfile FILE]";
    /** The synopsis, second line. */
    static final String SYNOPSIS_2 = MORE + "[-wdir DIR] [-psl BYTES] [-DNAME[=VALUE]]... [-XOPTION]...";
    /** The synopsis, last line. */
    static final String SYNOPSIS_3 = MORE + "[-ea] ([-cp CLASSPATH] MAIN_CLASS | -jar JAR) [ARGS...]";
    /** The synopsis, as {@code tutti mpjrun --help} prints it after {@code Usage: }. */
    static final List<String> SYNOPSIS = List.of(SYNOPSIS_1, SYNOPSIS_2, SYNOPSIS_3);
    /** The devices taken, as {@code -dev} names them. */
    static final List<String> DEVICES = List.of("multicore", "niodev", "hybdev");
    /** mpjrun.sh's flags that have no meaning here (a daemon, MPJ Express's ports and loaders, Myrinet). */
    static final List<String> UNSUPPORTED = List.of("-dport", "-mpjport", "-sport", "-headnodeip", "-mxboardnum",
        "-localloader", "-remoteloader", "-debug", "-profile");
    /**
     * The marker resource of Tutti's mpi APIs (tutti-mpj, tutti-mpi): a class path without it has no package
     * {@code mpi} to run an MPJ program on. (A resource, not {@code mpi/MPI.class}: tutti.jar's relocation of the
     * benchmarks' package {@code mpi} rewrites such names in string constants.)
     */
    private static final String MPI_API_MARKER = "META-INF/tutti/mpi-api.properties";
    /** The machines file mpjrun.sh reads for niodev and hybdev when none is given. */
    static final Path DEFAULT_MACHINES = Path.of("machines");

    @Spec
    private CommandSpec spec;

    @Option(names = {"-np", "-n"}, paramLabel = "N",
        description = "Number of ranks (default: the number of processors, as in MPJ Express).")
    private Integer ranks;

    @Option(names = "-dev", paramLabel = "multicore|niodev|hybdev", description = "multicore (the default): ranks "
        + "are threads of this JVM; niodev, hybdev: one JVM a rank (ranks of one host talk through shared memory, "
        + "hosts over TCP).")
    private String device = "multicore";

    @Option(names = "-machinesfile", paramLabel = "FILE", description = "Hosts for niodev and hybdev, one a line "
        + "(HOST [slots=K]; # starts a comment); ranks go round the hosts in order. Default: ./machines if it exists, "
        + "else every rank on this machine.")
    private Path machinesFile;

    @Option(names = "-wdir", paramLabel = "DIR", description = "Working directory of the ranks (niodev, hybdev).")
    private Path workingDirectory;

    @Option(names = "-psl", paramLabel = "BYTES", description = "Protocol switch limit: the largest message sent "
        + "eagerly (Tutti's eager limit, -Dtutti.eager.limit; tutti.inproc.eagerLimit for multicore).")
    private Integer protocolSwitchLimit;

    @Option(names = "-D", paramLabel = "NAME[=VALUE]",
        description = "A system property for every rank (multicore: set in this JVM before the ranks start).")
    private List<String> properties = new ArrayList<>();

    @Option(names = "-X", paramLabel = "OPTION",
        description = "A JVM option for every rank's JVM, as -Xmx2g or -XX:+UseG1GC (niodev, hybdev).")
    private List<String> jvmOptions = new ArrayList<>();

    @Option(names = {"-ea", "-enableassertions"}, description = "Enable assertions in the ranks' JVMs (niodev, "
        + "hybdev; multicore ranks take this JVM's).")
    private boolean assertions;

    @Option(names = {"-cp", "-classpath"}, paramLabel = "CLASSPATH", description = "Class path of the program, "
        + "with tutti-mpj (package mpi) on it. Default: CLASSPATH, else the working directory (as for java).")
    private String classpath;

    @Option(names = "-jar", paramLabel = "JAR", preprocessor = RunCommand.JarAndArgs.class,
        description = "Run an executable jar (niodev, hybdev); all later arguments are the program's.")
    private String jar;

    @Option(names = {"-dport", "-mpjport", "-sport", "-headnodeip", "-mxboardnum", "-localloader", "-remoteloader",
        "-debug", "-profile"}, arity = "0..1", hidden = true)
    private List<String> unsupported = new ArrayList<>();


    /** The command as installed: the real rendezvous, this process's standard streams. */
    public MpjrunCommand() {
        this(RendezvousService.tutti(), System.out, System.err);
    }

    /**
     * A command with another rendezvous and streams (tests).
     *
     * @param rendezvous the rendezvous factory
     * @param out        where the ranks' stdout goes
     * @param err        where the ranks' stderr and the failure line go
     */
    MpjrunCommand(final RendezvousService.Factory rendezvous, final PrintStream out, final PrintStream err) {
        super(rendezvous, out, err);
    }

    @Override
    void jar(final String path) {
        this.jar = path;
    }


    @Override
    public Integer call() {
        validate();
        if ("multicore".equals(device)) {
            properties.forEach(MpjrunCommand::setProperty);
            if (null != protocolSwitchLimit) {
                System.setProperty(Settings.INPROC_EAGER_LIMIT.name(), String.valueOf(protocolSwitchLimit));
            }
            final Integer refused = refuseWithoutMpi(RunCommand.programClasspath(classpath));
            if (null != refused) {
                return refused;
            }
            return EmbeddedRun.run("tutti mpjrun", ranks(), RunCommand.programClasspath(classpath),
                program().getFirst(), program().subList(1, program().size()), null, err);
        }
        final Launcher launcher;
        try {
            launcher = launcher();
        } catch (final InvalidLaunchException e) {
            throw usage(e.getMessage());
        }
        final Integer refused = null != jar ? null : refuseWithoutMpi(RunCommand.programClasspath(classpath));
        if (null != refused) {
            return refused;
        }
        final Integer unstartable = RunCommand.checkProgram("tutti mpjrun", launcher.placement(), jar, classpath,
            null != jar ? null : program().getFirst(), err);
        if (null != unstartable) {
            return unstartable;
        }
        final JobResult result = launcher.run();
        if (!result.succeeded()) {
            synchronized (err) {
                err.println("tutti mpjrun: " + result.description());
                err.flush();
            }
        }
        return result.exitStatus();
    }

    /**
     * Refuses what this command cannot do, naming the flag: an unsupported mpjrun.sh flag or device, a flag the
     * device cannot honour, a missing program().
     */
    private void validate() {
        if (!unsupported.isEmpty()) {
            final String flag = spec.commandLine().getParseResult().originalArgs().stream()
                .filter(UNSUPPORTED::contains).findFirst().orElse(UNSUPPORTED.getFirst());
            throw usage(flag + " is not supported: Tutti's ranks need no MPJ Express daemon, ports or loaders "
                + "(expected -np, -dev, -machinesfile, -wdir, -psl, -cp, -jar and JVM options)");
        }
        device = device.toLowerCase(Locale.ROOT);
        if (!DEVICES.contains(device)) {
            throw usage("-dev " + device + " is not supported, expected multicore (ranks as threads), niodev or hybdev "
                + "(one JVM a rank)");
        }
        if (null != ranks && ranks < 1) {
            throw usage("-np " + ranks + ", expected a number of ranks >= 1");
        }
        if (null != protocolSwitchLimit && protocolSwitchLimit < 0) {
            throw usage("-psl " + protocolSwitchLimit + ", expected a number of bytes >= 0");
        }
        if (null == jar && program().isEmpty()) {
            throw usage("no program given, expected MAIN_CLASS or -jar JAR after the options");
        }
        if (null != jar && null != classpath) {
            throw usage("both -cp and -jar were given, expected one of them (a jar names its class path)");
        }
        if ("multicore".equals(device)) {
            final String needsProcesses = null != jar ? "-jar " + jar
                : null != machinesFile ? "-machinesfile " + machinesFile
                : null != workingDirectory ? "-wdir " + workingDirectory
                : !jvmOptions.isEmpty() ? "-X" + jvmOptions.getFirst()
                : assertions ? "-ea" : null;
            if (null != needsProcesses) {
                throw usage(needsProcesses + " with -dev multicore: the ranks are threads of this JVM, expected "
                    + "-dev niodev or hybdev (one JVM a rank)" + (null != jar ? ", or -cp " + jar + " MAIN_CLASS" : ""));
            }
        }
    }

    /** @return the number of ranks: {@code -np}, else the number of processors */
    private int ranks() {
        return null != ranks ? ranks : Runtime.getRuntime().availableProcessors();
    }

    /**
     * Builds the launcher of a process job (niodev, hybdev).
     *
     * @return the launcher
     * @throws InvalidLaunchException if the options do not describe a runnable job
     */
    Launcher launcher() {
        final Path machines = null != machinesFile ? machinesFile
            : Files.isRegularFile(DEFAULT_MACHINES) ? DEFAULT_MACHINES : null;
        final List<Host> hosts = null != machines ? Hosts.parseHostfile(machines) : List.of();
        final List<String> options = new ArrayList<>();
        properties.forEach(p -> options.add("-D" + p));
        jvmOptions.forEach(x -> options.add("-X" + x));
        if (assertions) {
            options.add("-ea");
        }
        if (null != protocolSwitchLimit) {
            options.add("-D" + Settings.EAGER_LIMIT.name() + "=" + protocolSwitchLimit);
        }
        final Launcher.Builder b = Launcher.builder().ranks(ranks()).hosts(hosts).jvmOptions(options)
            .rendezvous(rendezvous).stdout(out).stderr(err);
        if (null != workingDirectory) {
            if (!Files.isDirectory(workingDirectory)) {
                throw new InvalidLaunchException("-wdir " + workingDirectory + " is not a directory");
            }
            b.workingDirectory(workingDirectory);
        }
        if (null != jar) {
            b.classpath(RunCommand.withTutti(null)).jar(jar).args(program());
        } else {
            b.classpath(RunCommand.withTutti(RunCommand.programClasspath(classpath))).mainClass(program().getFirst())
                .args(program().subList(1, program().size()));
        }
        return b.build();
    }

    /**
     * Refuses a class path without Tutti's package {@code mpi} (its marker), in one line naming it and what to add.
     *
     * @param cp the program's class path
     * @return null to go on, else the exit status ({@link JobResult#START_FAILED_STATUS})
     */
    private Integer refuseWithoutMpi(final String cp) {
        try (URLClassLoader l = ProgramCheck.loader(cp, ClassLoader.getPlatformClassLoader())) {
            if (null != l.findResource(MPI_API_MARKER)) {
                return null;
            }
        } catch (final IOException e) {
            return null; // an entry is no path: the program check names it
        }
        err.println("tutti mpjrun: no tutti-mpj (MPJ Express's API) on the class path " + cp + ", expected tutti-mpj on it (-cp "
            + "tutti-mpj/target/tutti-mpj-" + TuttiCommand.version() + ".jar:... or tutti-mpj/target/classes:...)");
        err.flush();
        return JobResult.START_FAILED_STATUS;
    }

    private static void setProperty(final String nameValue) {
        final int eq = nameValue.indexOf('=');
        if (eq < 0) {
            System.setProperty(nameValue, "");
        } else {
            System.setProperty(nameValue.substring(0, eq), nameValue.substring(eq + 1));
        }
    }

    private CommandLine.ParameterException usage(final String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }
}
