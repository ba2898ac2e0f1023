package dev.tutti.launcher;

import dev.tutti.runtime.Addresses;
import dev.tutti.runtime.Configuration;
import dev.tutti.runtime.LaunchInfo;
import dev.tutti.internal.Settings;

import java.io.OutputStream;
import java.net.Inet4Address;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Starts a job: {@code n} JVMs, one per rank, on this machine or on hosts reached over ssh, and supervises them
 * until they end. This is what {@code tutti run} does, with mpirun's behaviour:
 *
 * <ul>
 *   <li>each rank gets {@code TUTTI_RANK}, {@code TUTTI_SIZE}, {@code TUTTI_RENDEZVOUS=host:port} (a
 *       {@link RendezvousService} started for the job), {@code TUTTI_JOB_SECRET} (32 fresh random bytes from
 *       {@link SecureRandom}, hex) and {@code TUTTI_JOB_ID}, plus the variables given with {@link Builder#env},
 *       {@link Builder#forwardEnv} or {@link Builder#export} (mpirun's {@code -x});</li>
 *   <li>each rank's stdout and stderr are forwarded line by line, optionally tagged {@code [1,rank]<stdout>:}
 *       ({@code [1,rank][host]<stdout>:} for every rank when some run on other hosts); unless verbose, a rank's
 *       uncaught exception that only reports another rank's failure is cut to its first line, and one that another
 *       rank already reported is left out ({@link Builder#verbose});</li>
 *   <li>if a rank exits non-zero, is killed, or dies of an exception, the others are stopped (SIGTERM, then SIGKILL
 *       after {@link Builder#stopGrace}, 2 s by default) and the result names the rank that failed first on its own
 *       (not one that failed because that peer died) and the exception it reported on stderr, e.g. from its
 *       {@code Exception in thread ...} line, never a log record (see {@link JobResult#description()}), or the rank
 *       that exited 0 while the failed ranks still needed it ({@link JobResult.Outcome#LEFT_EARLY});</li>
 *   <li>a job running longer than its timeout gets its ranks' thread stacks printed ({@code jcmd Thread.print}),
 *       is stopped, and ends with {@link JobResult.Outcome#TIMED_OUT};</li>
 *   <li>while a job runs, a shutdown hook stops its ranks and deletes the job's shared-memory file on this host if
 *       this JVM exits (Ctrl-C, SIGTERM), as the launcher does when the job ends.</li>
 * </ul>
 *
 * <p>Ranks run {@code java [jvm options] (-cp CLASSPATH MAIN | -jar JAR) args...} with the same java command as
 * this JVM unless another is given, in this process's working directory. Local ranks inherit this process's
 * environment. Remote ranks are started with {@code ssh -o BatchMode=yes host 'sh -c ...'} (see the remote shell
 * option): the working directory, the java command and the class path must exist under the same paths on every
 * host; they receive only the variables above, and the secret on standard input rather than on a command line.
 * When any rank is remote, the rendezvous listens on all interfaces (IPv4) and is advertised to each rank as a list
 * of this host's address literals, the one on the interface that routes to the rank's host first (never the host
 * name, which many images map to loopback; see {@link #rendezvousAddresses(int)}); otherwise it listens on
 * loopback.
 *
 * <pre>{@code
 * JobResult result = Launcher.builder().ranks(4).classpath(cp).mainClass("app.Main").args(List.of("x"))
 *     .tagOutput(true).timeout(Duration.ofMinutes(5)).build().run();
 * }</pre>
 *
 * <p>A {@code Launcher} is immutable; each {@link #run()} is a new job with a new secret.
 */
public final class Launcher {
    /** The remote shell used for ranks on other hosts unless another is given. */
    public static final List<String> DEFAULT_REMOTE_SHELL = List.of("ssh", "-o", "BatchMode=yes");
    /** How long stopped ranks get to exit after SIGTERM before they are killed, unless set otherwise. */
    public static final Duration DEFAULT_STOP_GRACE = Duration.ofSeconds(2);

    private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    private static final Set<String> LAUNCH_VARIABLES = Set.of(LaunchInfo.RANK_ENV, LaunchInfo.SIZE_ENV,
        LaunchInfo.RENDEZVOUS_ENV, LaunchInfo.SECRET_ENV, LaunchInfo.JOB_ID_ENV);
    private static final SecureRandom RANDOM = new SecureRandom();

    private final int ranks;
    private final Placement placement;
    private final String hostName;
    private final Map<String, String> env;
    private final List<String> forwardedEnv;
    private final boolean tagOutput;
    private final boolean verbose;
    private final Duration timeout;
    private final String javaCommand;
    private final List<String> jvmOptions;
    private final String classpath;
    private final String mainClass;
    private final String jar;
    private final List<String> args;
    private final OutputStream stdout;
    private final OutputStream stderr;
    private final Path workingDirectory;
    private final List<String> remoteShell;
    private final RendezvousService.Factory rendezvous;
    private final Duration stopGrace;
    private final boolean stopOnShutdown;

    private Launcher(final Builder b, final Placement placement, final String hostName) {
        this.ranks = b.ranks;
        this.placement = placement;
        this.hostName = hostName;
        this.env = Map.copyOf(b.env);
        this.forwardedEnv = List.copyOf(b.forwardedEnv);
        this.tagOutput = b.tagOutput;
        this.verbose = b.verbose;
        this.timeout = b.timeout;
        this.javaCommand = b.javaCommand;
        this.jvmOptions = List.copyOf(b.jvmOptions);
        this.classpath = b.classpath;
        this.mainClass = b.mainClass;
        this.jar = b.jar;
        this.args = List.copyOf(b.args);
        this.stdout = b.stdout;
        this.stderr = b.stderr;
        this.workingDirectory = b.workingDirectory;
        this.remoteShell = List.copyOf(b.remoteShell);
        this.rendezvous = b.rendezvous;
        this.stopGrace = b.stopGrace;
        this.stopOnShutdown = b.stopOnShutdown;
    }

    /** @return a builder with the defaults described on each setter */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The java command of this JVM: {@code ProcessHandle.current().info().command()}, else
     * {@code ${java.home}/bin/java}.
     *
     * @return the absolute path of the java launcher running this process
     */
    public static String currentJavaCommand() {
        return ProcessHandle.current().info().command()
            .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    /**
     * Runs the job and returns when every rank has ended or been stopped.
     *
     * @return how the job ended; never throws for failures of the job itself
     */
    public JobResult run() {
        final byte[] secretBytes = new byte[32];
        final byte[] jobBytes = new byte[4];
        RANDOM.nextBytes(secretBytes);
        RANDOM.nextBytes(jobBytes);
        final String secret = HexFormat.of().formatHex(secretBytes);
        final String jobId = ProcessHandle.current().pid() + "-" + HexFormat.of().formatHex(jobBytes);
        final boolean remote = placement.anyRemote();
        final String bindHost = remote ? "0.0.0.0" : "127.0.0.1";
        final RendezvousService service;
        try {
            service = rendezvous.start(bindHost, ranks, secret);
        } catch (final RuntimeException e) {
            return new JobResult(JobResult.START_FAILED_STATUS, JobResult.Outcome.START_FAILED, -1,
                "the rendezvous could not be started on " + bindHost + ": " + e);
        }
        try (service) {
            final String[] addresses = rendezvousAddresses(service.port());
            return new Job(this, r -> addresses[r], secret, jobId).run();
        }
    }

    /**
     * The rendezvous address each rank is given ({@code TUTTI_RENDEZVOUS}): loopback when every rank is local;
     * else, for a rank on another host, this host's IPv4 addresses with the one that routes to that host first
     * ({@link Addresses#advertisedToward}), and for a local rank of such a job the list given to the first remote
     * host (so that its tcp endpoint, bound to the interface that reaches the rendezvous, faces the other hosts).
     *
     * @param port the rendezvous's port
     * @return the address list of each rank
     */
    String[] rendezvousAddresses(final int port) {
        final String[] out = new String[ranks];
        if (!placement.anyRemote()) {
            Arrays.fill(out, "127.0.0.1:" + port);
            return out;
        }
        String firstRemote = null;
        for (int r = 0; r < ranks && null == firstRemote; r++) {
            firstRemote = placement.isLocal(r) ? null : placement.host(r);
        }
        final Map<String, String> byHost = new HashMap<>();
        for (int r = 0; r < ranks; r++) {
            out[r] = byHost.computeIfAbsent(placement.isLocal(r) ? firstRemote : placement.host(r),
                h -> Addresses.candidates(Addresses.advertisedToward(h).stream()
                    .filter(a -> a instanceof Inet4Address).toList(), port));
            if (out[r].isEmpty()) {
                out[r] = hostName + ":" + port; // no IPv4 address at all: the name is all there is
            }
        }
        return out;
    }

    /** @return the placement of the ranks on hosts */
    public Placement placement() {
        return placement;
    }

    /** @return the number of ranks */
    public int ranks() {
        return ranks;
    }

    /**
     * Returns the argv of each rank's JVM: java, {@code --enable-native-access=ALL-UNNAMED} (unless the JVM options
     * set it; Tutti binds ranks to CPUs through the FFM linker), the JVM options, {@code -cp CP MAIN} or
     * {@code -jar JAR}, args.
     *
     * @return the command line
     */
    public List<String> javaCommandLine() {
        final List<String> cmd = new ArrayList<>();
        cmd.add(javaCommand);
        if (jvmOptions.stream().noneMatch(o -> o.startsWith("--enable-native-access"))) {
            // Lets Tutti bind each rank to a CPU (dev.tutti.runtime.CpuBinding) without the JDK's warning.
            cmd.add("--enable-native-access=ALL-UNNAMED");
        }
        cmd.addAll(jvmOptions);
        if (null != jar) {
            cmd.add("-jar");
            cmd.add(jar);
        } else {
            if (null != classpath) {
                cmd.add("-cp");
                cmd.add(classpath);
            }
            cmd.add(mainClass);
        }
        cmd.addAll(args);
        return cmd;
    }

    /**
     * The environment variables a rank gets on top of (local ranks) or instead of (remote ranks) the inherited
     * environment.
     *
     * @param rank       the rank
     * @param rendezvous {@code host:port} of the rendezvous
     * @param secret     the job secret
     * @param jobId      the job id
     * @return the variables, launch variables first
     */
    Map<String, String> rankEnvironment(final int rank, final String rendezvous, final String secret,
        final String jobId) {
        final Map<String, String> vars = new LinkedHashMap<>();
        vars.put(LaunchInfo.RANK_ENV, Integer.toString(rank));
        vars.put(LaunchInfo.SIZE_ENV, Integer.toString(ranks));
        vars.put(LaunchInfo.RENDEZVOUS_ENV, rendezvous);
        vars.put(LaunchInfo.SECRET_ENV, secret);
        vars.put(LaunchInfo.JOB_ID_ENV, jobId);
        for (final String name : forwardedEnv) {
            final String value = System.getenv(name);
            if (null != value) {
                vars.put(name, value);
            }
        }
        vars.putAll(env);
        return vars;
    }

    /**
     * The process that starts a rank: the JVM itself for a local rank, the remote shell for a remote one (whose
     * standard input must then receive the secret, see {@link RemoteCommand}).
     *
     * @param rank       the rank
     * @param rendezvous {@code host:port} of the rendezvous
     * @param secret     the job secret
     * @param jobId      the job id
     * @return the process builder, not started
     */
    ProcessBuilder processBuilder(final int rank, final String rendezvous, final String secret,
        final String jobId) {
        final Map<String, String> vars = rankEnvironment(rank, rendezvous, secret, jobId);
        if (placement.isLocal(rank)) {
            final ProcessBuilder pb = new ProcessBuilder(javaCommandLine()).directory(workingDirectory.toFile());
            pb.environment().putAll(vars);
            return pb;
        }
        vars.remove(LaunchInfo.SECRET_ENV);
        return new ProcessBuilder(RemoteCommand.argv(remoteShell, placement.host(rank),
            workingDirectory.toString(), vars, LaunchInfo.SECRET_ENV, javaCommandLine(),
            Math.max(1, (stopGrace.toMillis() + 999) / 1000)));
    }

    /**
     * The shared-memory file that the job's ranks on this host use: in the directory their settings name (a
     * {@code -Dtutti.shm.dir=} JVM option, else {@code TUTTI_SHM_DIR} as given with {@link Builder#env} or inherited
     * from this process), not this JVM's own setting.
     *
     * @param jobId  the job id
     * @param secret the job secret
     * @return the path ({@link Configuration#shmFile(String, String, String)})
     */
    Path rankShmFile(final String jobId, final String secret) {
        final String option = "-D" + Settings.SHM_DIR.name() + "=";
        String dir = null;
        for (final String o : jvmOptions) {
            if (o.startsWith(option)) {
                dir = o.substring(option.length());
            }
        }
        if (null == dir) {
            final String envName = Settings.SHM_DIR.envName();
            dir = env.containsKey(envName) ? env.get(envName) : System.getenv(envName);
        }
        return Configuration.shmFile(dir, jobId, secret);
    }

    boolean tagOutput() {
        return tagOutput;
    }

    boolean verbose() {
        return verbose;
    }

    Duration timeout() {
        return timeout;
    }

    String javaCommand() {
        return javaCommand;
    }

    OutputStream stdout() {
        return stdout;
    }

    OutputStream stderr() {
        return stderr;
    }

    Duration stopGrace() {
        return stopGrace;
    }

    boolean stopOnShutdown() {
        return stopOnShutdown;
    }

    /** Collects a job description; {@link #build()} checks it. Not thread-safe. */
    public static final class Builder {
        private int ranks = 1;
        private List<Host> hosts = List.of();
        private boolean oversubscribe;
        private final Map<String, String> env = new LinkedHashMap<>();
        private final List<String> forwardedEnv = new ArrayList<>();
        private boolean tagOutput;
        private boolean verbose;
        private Duration timeout;
        private String javaCommand = currentJavaCommand();
        private final List<String> jvmOptions = new ArrayList<>();
        private String classpath;
        private String mainClass;
        private String jar;
        private final List<String> args = new ArrayList<>();
        private OutputStream stdout = System.out;
        private OutputStream stderr = System.err;
        private Path workingDirectory = Path.of("").toAbsolutePath();
        private List<String> remoteShell = DEFAULT_REMOTE_SHELL;
        private RendezvousService.Factory rendezvous = RendezvousService.tutti();
        private LocalHost localHost;
        private Duration stopGrace = DEFAULT_STOP_GRACE;
        private boolean stopOnShutdown = true;

        private Builder() {
        }

        /**
         * Sets the number of ranks (mpirun {@code -n}); default 1.
         *
         * @param n the number of ranks, at least 1 (checked by {@link #build()})
         * @return this builder
         */
        public Builder ranks(final int n) {
            this.ranks = n;
            return this;
        }

        /**
         * Sets the hosts, in placement order (see {@link Placement}); default none, meaning every rank on this
         * machine.
         *
         * @param hosts the hosts, e.g. from {@link Hosts#parseList} or {@link Hosts#parseHostfile}
         * @return this builder
         */
        public Builder hosts(final List<Host> hosts) {
            this.hosts = List.copyOf(hosts);
            return this;
        }

        /**
         * Allows more ranks than the hosts' explicit slots (mpirun {@code --oversubscribe}); default false.
         *
         * @param oversubscribe whether to allow it
         * @return this builder
         */
        public Builder oversubscribe(final boolean oversubscribe) {
            this.oversubscribe = oversubscribe;
            return this;
        }

        /**
         * Sets an environment variable of every rank.
         *
         * @param name  the name (letters, digits, underscore; not one of the {@code TUTTI_} launch variables)
         * @param value the value
         * @return this builder
         */
        public Builder env(final String name, final String value) {
            env.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
            return this;
        }

        /**
         * Passes this process's value of a variable to every rank (nothing if it is unset here). Local ranks
         * inherit the whole environment anyway; this matters for remote ranks.
         *
         * @param name the name
         * @return this builder
         */
        public Builder forwardEnv(final String name) {
            forwardedEnv.add(Objects.requireNonNull(name, "name"));
            return this;
        }

        /**
         * mpirun's {@code -x}: {@code VAR=value} sets a variable, a bare {@code VAR} forwards this process's value.
         *
         * @param spec {@code VAR} or {@code VAR=value}
         * @return this builder
         */
        public Builder export(final String spec) {
            final int eq = spec.indexOf('=');
            return eq < 0 ? forwardEnv(spec) : env(spec.substring(0, eq), spec.substring(eq + 1));
        }

        /**
         * Prefixes each forwarded line with mpirun's tag {@code [1,rank]<stdout>:} or {@code [1,rank]<stderr>:};
         * default false. When some ranks run on other hosts, every rank's tag names its host as placed (local
         * ranks' too): {@code [1,rank][host]<stdout>:}.
         *
         * @param tag whether to tag
         * @return this builder
         */
        public Builder tagOutput(final boolean tag) {
            this.tagOutput = tag;
            return this;
        }

        /**
         * Forwards every rank's stderr as the rank printed it; default false, which shortens the stack traces that
         * repeat what the failing rank and the job's summary already say: a rank that dies of an exception saying
         * only that another rank failed or left prints its first line, and an exception another rank already
         * reported word for word is left out (see {@link StderrFilter}).
         *
         * @param verbose whether to forward everything
         * @return this builder
         */
        public Builder verbose(final boolean verbose) {
            this.verbose = verbose;
            return this;
        }

        /**
         * Ends the job after this long, printing its ranks' thread stacks first; default null (no limit).
         *
         * @param timeout the limit, positive, or null
         * @return this builder
         */
        public Builder timeout(final Duration timeout) {
            this.timeout = timeout;
            return this;
        }

        /**
         * Sets the java command the ranks run; default {@link #currentJavaCommand()}.
         *
         * @param command the path of a java launcher
         * @return this builder
         */
        public Builder javaCommand(final String command) {
            this.javaCommand = Objects.requireNonNull(command, "command");
            return this;
        }

        /**
         * Adds options for the ranks' JVMs (before the class path), e.g. {@code -Xmx1g}.
         *
         * @param options the options
         * @return this builder
         */
        public Builder jvmOptions(final List<String> options) {
            jvmOptions.addAll(options);
            return this;
        }

        /**
         * Sets the class path of the ranks ({@code -cp}); give a main class with it.
         *
         * @param cp the class path
         * @return this builder
         */
        public Builder classpath(final String cp) {
            this.classpath = cp;
            return this;
        }

        /**
         * Sets the main class (without a class path, java's default applies: {@code CLASSPATH} or the directory).
         *
         * @param name the fully qualified class name
         * @return this builder
         */
        public Builder mainClass(final String name) {
            this.mainClass = name;
            return this;
        }

        /**
         * Runs an executable jar instead of a class ({@code -jar}).
         *
         * @param path the jar
         * @return this builder
         */
        public Builder jar(final String path) {
            this.jar = path;
            return this;
        }

        /**
         * Adds program arguments, passed to every rank.
         *
         * @param programArgs the arguments
         * @return this builder
         */
        public Builder args(final List<String> programArgs) {
            args.addAll(programArgs);
            return this;
        }

        /**
         * Sets where the ranks' standard output goes; default {@code System.out}.
         *
         * @param out the stream (written line by line while holding its monitor)
         * @return this builder
         */
        public Builder stdout(final OutputStream out) {
            this.stdout = Objects.requireNonNull(out, "out");
            return this;
        }

        /**
         * Sets where the ranks' standard error and the launcher's thread dumps go; default {@code System.err}.
         *
         * @param err the stream (written line by line while holding its monitor)
         * @return this builder
         */
        public Builder stderr(final OutputStream err) {
            this.stderr = Objects.requireNonNull(err, "err");
            return this;
        }

        /**
         * Sets the ranks' working directory; default this process's.
         *
         * @param dir the directory (the same path is used on remote hosts)
         * @return this builder
         */
        public Builder workingDirectory(final Path dir) {
            this.workingDirectory = dir.toAbsolutePath();
            return this;
        }

        /**
         * Sets the command that runs a command on another host; it is called as {@code shell... host command};
         * default {@link #DEFAULT_REMOTE_SHELL}.
         *
         * @param shell the command and its options, e.g. {@code [ssh, -p, 2222]}
         * @return this builder
         */
        public Builder remoteShell(final List<String> shell) {
            this.remoteShell = List.copyOf(shell);
            return this;
        }

        /**
         * Replaces the rendezvous service; default {@link RendezvousService#tutti()}.
         *
         * @param factory starts the service for each job
         * @return this builder
         */
        public Builder rendezvous(final RendezvousService.Factory factory) {
            this.rendezvous = Objects.requireNonNull(factory, "factory");
            return this;
        }

        /**
         * Replaces the detection of which host names are this machine; default {@link LocalHost#detect()}.
         *
         * @param detector the detector
         * @return this builder
         */
        public Builder localHost(final LocalHost detector) {
            this.localHost = detector;
            return this;
        }

        /**
         * Sets how long stopped ranks get between SIGTERM and SIGKILL; default {@link #DEFAULT_STOP_GRACE}.
         *
         * @param grace the grace period, not negative
         * @return this builder
         */
        public Builder stopGrace(final Duration grace) {
            this.stopGrace = Objects.requireNonNull(grace, "grace");
            return this;
        }

        /**
         * Whether a running job's ranks are stopped if this JVM shuts down (a shutdown hook during
         * {@link Launcher#run()}); default true.
         *
         * @param stop whether to install the hook
         * @return this builder
         */
        public Builder stopOnShutdown(final boolean stop) {
            this.stopOnShutdown = stop;
            return this;
        }

        /**
         * Checks the description and places the ranks.
         *
         * @return the launcher
         * @throws InvalidLaunchException if there is no program or both a jar and a class are given, the number of
         *                                ranks is below 1, the hosts have too few explicit slots, a variable name
         *                                is malformed or reserved, or a duration is not positive
         */
        public Launcher build() {
            if (null != jar && (null != classpath || null != mainClass)) {
                throw new InvalidLaunchException("both -jar " + jar + " and " + (null != classpath
                    ? "-cp " + classpath : "main class " + mainClass) + " were given, expected one program");
            }
            if (null == jar && null == mainClass) {
                throw new InvalidLaunchException(null == classpath
                    ? "no program given, expected -cp CLASSPATH MAIN_CLASS [ARGS...] or -jar JAR [ARGS...]"
                    : "-cp " + classpath + " was given without a main class, expected -cp CLASSPATH MAIN_CLASS");
            }
            if (javaCommand.isBlank()) {
                throw new InvalidLaunchException("java command='" + javaCommand + "', expected a path");
            }
            if (null != timeout && (timeout.isNegative() || timeout.isZero())) {
                throw new InvalidLaunchException("timeout=" + timeout.toSeconds() + " s, expected > 0");
            }
            if (stopGrace.isNegative()) {
                throw new InvalidLaunchException("stop grace=" + stopGrace + ", expected >= 0");
            }
            if (remoteShell.isEmpty()) {
                throw new InvalidLaunchException("remote shell is empty, expected a command such as ssh");
            }
            final List<String> names = new ArrayList<>(env.keySet());
            names.addAll(forwardedEnv);
            for (final String name : names) {
                if (!ENV_NAME.matcher(name).matches()) {
                    throw new InvalidLaunchException("environment variable name '" + name + "' is invalid, expected "
                        + "letters, digits and underscores, not starting with a digit (-x VAR or -x VAR=value)");
                }
                if (LAUNCH_VARIABLES.contains(name)) {
                    throw new InvalidLaunchException("environment variable " + name + " is set by the launcher for "
                        + "each rank and cannot be given with -x");
                }
            }
            final LocalHost detector = null != localHost ? localHost
                : hosts.isEmpty() ? LocalHost.of("localhost", Set.of()) : LocalHost.detect();
            final Placement placement = Placement.of(hosts, ranks, oversubscribe, detector);
            return new Launcher(this, placement, detector.name());
        }
    }
}
