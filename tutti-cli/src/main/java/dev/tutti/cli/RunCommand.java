package dev.tutti.cli;

import dev.tutti.cli.trace.JobRecordings;
import dev.tutti.launcher.Host;
import dev.tutti.launcher.Hosts;
import dev.tutti.launcher.InvalidLaunchException;
import dev.tutti.launcher.JobResult;
import dev.tutti.launcher.Launcher;
import dev.tutti.launcher.Placement;
import dev.tutti.launcher.RendezvousService;
import dev.tutti.internal.Settings;

import java.io.File;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.security.CodeSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Stack;
import java.util.stream.IntStream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tutti run}: starts a job with mpirun's flags ({@link #SYNOPSIS}) and exits with the job's status. Everything
 * after the main class, or after {@code -jar JAR}, belongs to the program, even if it looks like one of these options.
 * The synopsis is written by hand, in mpirun's form ({@code -n N}, not picocli's {@code -n=N}), and the user guide
 * ({@code docs/running.md}) shows the same lines; {@code RunSynopsisTest} keeps the two equal and checks that the
 * synopsis names every option.
 */
@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
    customSynopsis = {RunCommand.SYNOPSIS_1, RunCommand.SYNOPSIS_2, RunCommand.SYNOPSIS_3, RunCommand.SYNOPSIS_4,
        RunCommand.SYNOPSIS_JFR, RunCommand.SYNOPSIS_5, RunCommand.SYNOPSIS_6},
    description = {"Runs a program on N ranks, one JVM each, on this machine or on other hosts over ssh. Each rank "
        + "gets TUTTI_RANK, TUTTI_SIZE, TUTTI_RENDEZVOUS, TUTTI_JOB_SECRET and TUTTI_JOB_ID. If a rank fails, the "
        + "others are stopped and the exit status is that rank's.", ""},
    footer = {"", "Hosts: ranks fill each host's slots in order (-H a:2,b:2 puts ranks 0,1 on a and 2,3 on b), then "
        + "start over. More ranks than slots are refused only when every host states its slots (unless "
        + "--oversubscribe). Ranks on localhost or this machine start directly; others start over "
        + "'ssh -o BatchMode=yes', in the same working directory, with the same java and class path, which must "
        + "exist on every host.",
        "", "Without -cp (and -jar), the program's class path is CLASSPATH if set, else the working directory, as "
        + "for java; Tutti's own jar is added to it either way.",
        "", "Exit status: 0; the failed rank's status; 124 on timeout; 127 if the program cannot be started (main "
        + "class not found on the class path, no such jar) or a rank could not start; 130 if interrupted; 2 for a "
        + "usage error."})
public final class RunCommand extends ProgramCommand {
    /** Indent of the synopsis's later lines: under the first line's options, after {@code Usage: tutti run }. */
    private static final String MORE = "                 ";
    /** The synopsis, line by line (each within the help's 80 columns): {@code tutti run --help} prints it. */
    static final String SYNOPSIS_1 = "tutti run -n N [-H HOST[:SLOTS][,...] | --hostfile FILE]";
    /** The synopsis, second line. */
    static final String SYNOPSIS_2 = MORE + "[--oversubscribe] [-x VAR[=VALUE]]... [--embedded] [-v]...";
    /** The synopsis, third line. */
    static final String SYNOPSIS_3 = MORE + "[--transport auto|shm|tcp] [--tag-output] [--timeout SECONDS]";
    /** The synopsis, fourth line. */
    static final String SYNOPSIS_4 = MORE + "[--check[=MODE]] [--check-report FILE] [-J OPTION]...";
    /** The synopsis, the recording's line. */
    static final String SYNOPSIS_JFR = MORE + "[--jfr[=DIR]] [--profile[=FILE]] [--trace FILE]";
    /** The synopsis, fifth line. */
    static final String SYNOPSIS_5 = MORE + "[--java PATH] [--rsh COMMAND]";
    /** The synopsis, last line. */
    static final String SYNOPSIS_6 = MORE + "([-cp CLASSPATH] MAIN_CLASS | -jar JAR) [ARGS...]";
    /** The synopsis, as {@code tutti run --help} prints it after {@code Usage: }. */
    static final List<String> SYNOPSIS = List.of(SYNOPSIS_1, SYNOPSIS_2, SYNOPSIS_3, SYNOPSIS_4, SYNOPSIS_JFR,
        SYNOPSIS_5, SYNOPSIS_6);

    @Spec
    private CommandSpec spec;

    @Option(names = {"-n", "-np", "--np"}, required = true, paramLabel = "N", description = "Number of ranks.")
    private int ranks;

    @Option(names = {"-H", "--host"}, paramLabel = "HOST[:SLOTS][,...]",
        description = "Hosts to run on; SLOTS ranks per host per pass (default 1, oversubscribable).")
    private List<String> hosts = new ArrayList<>();

    @Option(names = "--hostfile", paramLabel = "FILE",
        description = "File of hosts, one per line: HOST [slots=K]; # starts a comment.")
    private Path hostfile;

    @Option(names = "--oversubscribe", description = "Allow more ranks than the hosts' stated slots.")
    private boolean oversubscribe;

    @Option(names = "-x", paramLabel = "VAR[=VALUE]",
        description = "Set VAR=VALUE for every rank, or pass this shell's VAR on (repeatable).")
    private List<String> exports = new ArrayList<>();

    @Option(names = "--tag-output", description = "Prefix each output line with [1,RANK]<stdout>: or <stderr>: "
        + "([1,RANK][HOST]<stdout>: for every rank when some run on other hosts).")
    private boolean tagOutput;

    @Option(names = "--timeout", paramLabel = "SECONDS",
        description = "End the job after SECONDS, printing each rank's thread stacks first.")
    private Integer timeoutSeconds;

    @Option(names = "--check", arity = "0..1", fallbackValue = "on", paramLabel = "MODE", description = "Turn the "
        + "correctness checker on in every rank (the setting tutti.check): mismatched collective calls fail on every "
        + "rank with each rank's call and call site, so do receives whose buffers do not fit the message, and a "
        + "deadlocked job ends with a report of every rank's blocked call. --check=strict also makes every blocking "
        + "send wait until it is received, so a program that deadlocks only when sends are not buffered is "
        + "reported. What is only reported (requests never completed, buffers written while an operation owns them, "
        + "what a rank leaves behind) fails the rank at close (exit status 1); --check=warn only reports it.")
    private String check;
    /** The values of {@code --check}: the setting {@code tutti.check}'s. */
    private static final List<String> CHECK_MODES = Settings.CHECK.choices();


    @Option(names = "--check-report", paramLabel = "FILE", description = "With the checker (implies --check): every "
        + "rank appends its findings to FILE, one JSON object per line (the setting tutti.check.report).")
    private java.nio.file.Path checkReport;

    @Option(names = "--jfr", arity = "0..1", fallbackValue = JobRecordings.DEFAULT_DIR, paramLabel = "DIR",
        description = "Record every rank with Java Flight Recorder (the setting tutti.jfr): Tutti's events "
            + "(point-to-point calls, collectives, channel exchanges, waits that block) beside the JVM's own, in "
            + "DIR/rank-N.jfr (default DIR: " + JobRecordings.DEFAULT_DIR + "), for JDK Mission Control. DIR must be "
            + "reachable at the same path on every host. Give DIR with '=' (--jfr=DIR).")
    private String jfr;

    @Option(names = "--profile", arity = "0..1", fallbackValue = JobRecordings.TO_OUTPUT, paramLabel = "FILE",
        description = "Record every rank (as --jfr, into a temporary directory unless --jfr is given) and, when the "
            + "job ends, print a profile: per operation and per call site (the first frame outside Tutti) the count, "
            + "total and mean time, bytes and max/mean time over the ranks, and each rank's share of wall time in "
            + "communication. --profile=FILE.csv or FILE.json writes it to FILE instead.")
    private String profile;

    @Option(names = "--trace", paramLabel = "FILE", description = "Record every rank (as --profile) and, when the "
        + "job ends, merge the recordings into one Chrome trace-event file (one process per rank, one thread per "
        + "application thread, clocks aligned to rank 0's), which Perfetto's UI and chrome://tracing open.")
    private Path trace;

    @Option(names = {"-cp", "-classpath", "--class-path"}, paramLabel = "CLASSPATH",
        description = "Class path of the program; the main class follows. Default: CLASSPATH, else the working "
            + "directory (as for java).")
    private String classpath;

    @Option(names = "-jar", paramLabel = "JAR", preprocessor = JarAndArgs.class,
        description = "Run an executable jar; all later arguments are the program's.")
    private String jar;

    @Option(names = "--embedded", description = "Run the ranks as threads of this JVM (no processes, no network): "
        + "each rank loads the program from -cp through a class loader of its own (its own static fields, as in a "
        + "process), and the program's Tutti.init() joins the in-process job. Needs -cp and a main class.")
    private boolean embedded;

    @Option(names = "--transport", paramLabel = "auto|shm|tcp", description = "How the ranks talk: auto (shared "
        + "memory between ranks of one host, TCP between hosts; the default), shm (every rank on this host) or tcp. "
        + "Sets -Dtutti.transport for every rank.")
    private String transport;

    @Option(names = {"-v", "--verbose"}, description = "Before the job starts, print its wiring on stderr: ranks, "
        + "hosts, the transport of each pair of ranks, eager limits and the collective algorithms forced. Forward "
        + "every rank's stack traces whole (otherwise a rank that fails because a peer failed prints one line, and "
        + "an exception another rank already printed is not repeated). Raise every rank's log level (the setting "
        + "tutti.log.level) to debug; -vv to trace. A level given with -x TUTTI_LOG_LEVEL or -J-Dtutti.log.level "
        + "wins.")
    private boolean[] verbosity = new boolean[0];

    /** The log level of the ranks for each count of {@code -v}, from one: the setting {@code tutti.log.level}'s. */
    static final List<String> VERBOSE_LOG_LEVELS = List.of("debug", "trace");

    /** @return whether {@code -v} was given */
    private boolean verbose() {
        return verbosity.length > 0;
    }

    /** @return the ranks' log level for the {@code -v}s given, or null for none */
    String verboseLogLevel() {
        return verbose() ? VERBOSE_LOG_LEVELS.get(Math.min(verbosity.length, VERBOSE_LOG_LEVELS.size()) - 1) : null;
    }

    @Option(names = {"-J", "--jvm-option"}, paramLabel = "OPTION",
        description = "Option for the ranks' JVMs, e.g. -J-Xmx2g (repeatable).")
    private List<String> jvmOptions = new ArrayList<>();

    @Option(names = "--java", paramLabel = "PATH",
        description = "Java launcher of the ranks (default: the one running tutti).")
    private String java;

    @Option(names = "--rsh", paramLabel = "COMMAND",
        description = "Remote shell for other hosts (default: ssh -o BatchMode=yes).")
    private String remoteShell;


    /** The command as installed: the real rendezvous, this process's standard streams. */
    public RunCommand() {
        this(RendezvousService.tutti(), System.out, System.err);
    }

    /**
     * A command with another rendezvous and streams (tests).
     *
     * @param rendezvous the rendezvous factory
     * @param out        where the ranks' stdout goes
     * @param err        where the ranks' stderr and the failure line go
     */
    RunCommand(final RendezvousService.Factory rendezvous, final PrintStream out, final PrintStream err) {
        super(rendezvous, out, err);
    }

    /**
     * @return the checker's mode for the ranks ({@code on}, {@code strict} or {@code warn}), or null for none
     * @throws CommandLine.ParameterException if {@code --check} has another value
     */
    private String checkMode() {
        if (null == check) {
            return null != checkReport ? "on" : null;
        }
        if (!CHECK_MODES.contains(check)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--check=" + check + ", expected on, strict, "
                + "warn or off");
        }
        return "off".equals(check) ? (null != checkReport ? "on" : null) : check;
    }

    @Override
    public Integer call() {
        if (null != check && !CHECK_MODES.contains(check)
            && spec.commandLine().getParseResult().originalArgs().contains("--check")) {
            program().addFirst(check); // "--check Main": the main class, not the checker's mode
            check = "on";
        }
        final List<String> given = spec.commandLine().getParseResult().originalArgs();
        if (null != jfr && given.contains("--jfr") && !JobRecordings.DEFAULT_DIR.equals(jfr)) {
            program().addFirst(jfr); // "--jfr Main": a directory is given as --jfr=DIR
            jfr = JobRecordings.DEFAULT_DIR;
        }
        if (null != profile && given.contains("--profile") && !JobRecordings.TO_OUTPUT.equals(profile)) {
            program().addFirst(profile); // "--profile Main": a file is given as --profile=FILE
            profile = JobRecordings.TO_OUTPUT;
        }
        final JobRecordings recordings;
        try {
            recordings = JobRecordings.of(jfr, profile, trace);
        } catch (final IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        if (embedded) {
            if (null != recordings) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--jfr, --profile or --trace with "
                    + "--embedded, expected rank processes (each rank records its own JVM)");
            }
            if (null != transport) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--transport " + transport + " with "
                    + "--embedded, expected one of them (embedded ranks are threads of this JVM and talk in memory)");
            }
            if (null == classpath || null != jar || program().isEmpty() || !hosts.isEmpty() || null != hostfile) {
                throw new CommandLine.ParameterException(spec.commandLine(),
                    "--embedded needs -cp CLASSPATH MAIN_CLASS and no -jar, -H or --hostfile");
            }
            if (null != checkMode()) {
                System.setProperty(dev.tutti.internal.Settings.CHECK.name(), checkMode()); // read by the job's options
            }
            if (null != checkReport) {
                System.setProperty(dev.tutti.internal.Settings.CHECK_REPORT.name(),
                    checkReport.toAbsolutePath().toString());
            }
            if (verbose() && null == System.getProperty(Settings.LOG_LEVEL.name())) {
                System.setProperty(Settings.LOG_LEVEL.name(), verboseLogLevel()); // the ranks are this JVM's threads
                dev.tutti.runtime.Log.oneLinePerRecord();
            }
            return EmbeddedRun.run("tutti run", ranks, classpath, program().getFirst(), program().subList(1, program().size()),
                null == timeoutSeconds ? null : Duration.ofSeconds(timeoutSeconds), err);
        }
        final Launcher launcher;
        try {
            launcher = launcher(recordings);
        } catch (final InvalidLaunchException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        if (verbose()) {
            final Map<String, String> env = new HashMap<>(System.getenv());
            for (final String x : exports) {
                final int eq = x.indexOf('=');
                if (eq > 0) {
                    env.put(x.substring(0, eq), x.substring(eq + 1));
                }
            }
            for (final String line : new Wiring(launcher.placement(), rankJvmOptions(), env).describe()) {
                err.println(line);
            }
            err.flush();
        }
        final Integer refused = checkProgram(launcher);
        if (null != refused) {
            return refused;
        }
        final JobResult result = launcher.run();
        if (!result.succeeded()) {
            synchronized (err) {
                err.println("tutti run: " + result.description());
                err.flush();
            }
        }
        if (null != recordings) {
            recordings.report(ranks, out, err);
        }
        return result.exitStatus();
    }

    /** {@link #checkProgram(String, Placement, String, String, String, PrintStream)} for this command's job. */
    private Integer checkProgram(final Launcher launcher) {
        return checkProgram("tutti run", launcher.placement(), jar, classpath,
            program().isEmpty() ? null : program().getFirst(), err);
    }

    /**
     * Checks the program where its ranks' JVMs will look for it, when some rank runs on this machine: warns of each
     * class path entry that does not exist (java ignores it), and refuses a main class that cannot be started or a
     * jar that does not exist in one line, before any rank starts.
     *
     * @param prefix    what starts each line printed ({@code tutti run})
     * @param placement where the ranks run
     * @param jar       the program's jar, or null
     * @param classpath the {@code -cp} given, or null
     * @param mainClass the main class, or null (with a jar)
     * @param err       where the lines go
     * @return null to go on, else the exit status ({@link JobResult#START_FAILED_STATUS})
     */
    static Integer checkProgram(final String prefix, final Placement placement, final String jar,
        final String classpath, final String mainClass, final PrintStream err) {
        if (IntStream.range(0, placement.size()).noneMatch(placement::isLocal)) {
            return null;
        }
        String problem = null;
        if (null != jar) {
            problem = Files.isRegularFile(Path.of(jar)) ? null : "-jar " + jar + " does not exist";
        } else if (null != mainClass) {
            final String cp = programClasspath(classpath);
            for (final String entry : ProgramCheck.missingEntries(cp)) {
                err.println(prefix + ": warning: class path entry " + entry + " does not exist");
            }
            problem = ProgramCheck.mainClassProblem(withTutti(cp), mainClass).map(p ->
                "cannot start " + mainClass + " from " + describeClasspath(classpath) + ": " + p).orElse(null);
        }
        if (null == problem) {
            return null;
        }
        err.println(prefix + ": " + problem);
        err.flush();
        return JobResult.START_FAILED_STATUS;
    }

    @Override
    void jar(final String path) {
        this.jar = path;
    }


    /**
     * Builds the launcher from the options.
     *
     * @return the launcher
     * @throws InvalidLaunchException if the options do not describe a runnable job
     */
    Launcher launcher() {
        return launcher(null);
    }

    /**
     * Builds the launcher from the options.
     *
     * @param recordings where the ranks record, or null for no recording
     * @return the launcher
     * @throws InvalidLaunchException if the options do not describe a runnable job
     */
    private Launcher launcher(final JobRecordings recordings) {
        if (!hosts.isEmpty() && null != hostfile) {
            throw new InvalidLaunchException("both -H and --hostfile were given, expected one of them");
        }
        final List<Host> hostList = null != hostfile ? Hosts.parseHostfile(hostfile) : Hosts.parseList(hosts);
        final Launcher.Builder b = Launcher.builder().ranks(ranks).hosts(hostList).oversubscribe(oversubscribe)
            .tagOutput(tagOutput).verbose(verbose()).jvmOptions(rankJvmOptions()).rendezvous(rendezvous).stdout(out)
            .stderr(err);
        exports.forEach(b::export);
        if (null != checkMode()) {
            b.export(dev.tutti.internal.Settings.CHECK.envName() + "=" + checkMode());
        }
        if (null != checkReport) {
            b.export(dev.tutti.internal.Settings.CHECK_REPORT.envName() + "=" + checkReport.toAbsolutePath());
        }
        final String logEnv = Settings.LOG_LEVEL.envName();
        if (verbose() && exports.stream().noneMatch(x -> x.equals(logEnv) || x.startsWith(logEnv + "="))) {
            b.export(logEnv + "=" + verboseLogLevel());
        }
        if (null != recordings) {
            b.export(Settings.JFR.envName() + "=" + recordings.dir());
        }
        if (null != timeoutSeconds) {
            b.timeout(Duration.ofSeconds(timeoutSeconds));
        }
        if (null != java) {
            b.javaCommand(java);
        }
        if (null != remoteShell) {
            b.remoteShell(Arrays.asList(remoteShell.trim().split("\\s+")));
        }
        // With -jar, a -cp given too reaches the builder, which refuses the pair.
        b.classpath(withTutti(null != jar ? classpath : programClasspath(classpath)));
        if (null != transport && !Settings.TRANSPORT.choices().contains(transport.toLowerCase(Locale.ROOT))) {
            throw new InvalidLaunchException("--transport " + transport + ", expected one of "
                + String.join(", ", Settings.TRANSPORT.choices()) + " (--embedded runs the ranks as threads)");
        }
        if (null != jar) {
            b.jar(jar).args(program());
        } else {
            if (!program().isEmpty()) {
                b.mainClass(program().getFirst()).args(program().subList(1, program().size()));
            }
        }
        final Launcher launcher = b.build();
        if ("shm".equalsIgnoreCase(transport) && launcher.placement().anyRemote()) {
            throw new InvalidLaunchException("--transport shm with ranks on other hosts ("
                + String.join(",", new LinkedHashSet<>(launcher.placement().hosts())) + "), expected every rank on "
                + "this host, or --transport auto or tcp");
        }
        return launcher;
    }

    /**
     * The program's class path as {@code java} takes it: {@code -cp} if given, else the environment's
     * {@code CLASSPATH}, else the working directory.
     *
     * @param classpath the {@code -cp} given, or null
     * @return the class path
     */
    static String programClasspath(final String classpath) {
        if (null != classpath) {
            return classpath;
        }
        final String env = System.getenv("CLASSPATH");
        return null == env || env.isBlank() ? "." : env;
    }

    /** @return where {@link #programClasspath(String)} comes from, for a message */
    private static String describeClasspath(final String classpath) {
        if (null != classpath) {
            return "-cp " + classpath;
        }
        final String env = System.getenv("CLASSPATH");
        return null == env || env.isBlank()
            ? "the working directory " + Path.of("").toAbsolutePath() + " (no -cp given)"
            : "CLASSPATH=" + env + " (no -cp given)";
    }

    /** The ranks' JVM options: those given, then {@code --transport}'s system property. */
    private List<String> rankJvmOptions() {
        final List<String> options = new ArrayList<>(jvmOptions);
        if (null != transport) {
            options.add("-D" + Settings.TRANSPORT.name() + "=" + transport);
        }
        return options;
    }

    /**
     * Appends the jar (or classes directory) that holds Tutti itself to a program's class path, so that programs
     * need not list Tutti; a Tutti on the program's own class path comes first and wins.
     */
    static String withTutti(final String cp) {
        if (null == cp) {
            return null;
        }
        final CodeSource src = dev.tutti.Tutti.class.getProtectionDomain().getCodeSource();
        if (null == src || null == src.getLocation()) {
            return cp;
        }
        try {
            return cp + File.pathSeparator + Path.of(src.getLocation().toURI());
        } catch (final URISyntaxException | IllegalArgumentException e) {
            return cp;
        }
    }

    /**
     * Makes {@code -jar JAR} take every later argument as the program's, as {@code java -jar}, mpirun and mpjrun.sh do, so
     * that {@code tutti run -n 2 -jar app.jar -n 5} passes {@code -n 5} to the program().
     */
    static final class JarAndArgs implements CommandLine.IParameterPreprocessor {

        @Override
        public boolean preprocess(final Stack<String> args, final CommandSpec commandSpec, final ArgSpec argSpec,
            final Map<String, Object> info) {
            if (args.isEmpty()) {
                throw new CommandLine.MissingParameterException(commandSpec.commandLine(), argSpec,
                    "Missing required parameter for option '-jar' (JAR)");
            }
            final ProgramCommand cmd = (ProgramCommand) commandSpec.userObject();
            cmd.jar(args.pop());
            while (!args.isEmpty()) {
                cmd.program().add(args.pop());
            }
            return true;
        }
    }
}
