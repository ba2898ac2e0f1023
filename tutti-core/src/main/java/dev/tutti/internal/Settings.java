package dev.tutti.internal;

import dev.tutti.internal.Setting.Kind;
import dev.tutti.internal.Setting.ReadAt;
import dev.tutti.internal.Setting.Type;

import java.util.List;
import java.util.regex.Pattern;

/**
 * Every setting of Tutti, in one place: each {@code tutti.*} system property, its {@code TUTTI_*} environment
 * variable, its default, when it is read and what it means, and the variables the launcher gives each rank.
 * {@code tutti info --settings} lists them with their values, and the user guide's settings table
 * ({@code docs/configuration.md}) is checked against {@link #all()} (a test fails if a row is missing, extra or
 * different). Code reads a setting through its constant here ({@code Settings.EAGER_LIMIT.intValue()}) and names
 * it by {@link Setting#name()}. The few constants elsewhere that carry a name are defined from these: the public
 * API's ({@code Communicator.HOST_ID_PROP_NAME}, {@code ObjectSerializer.ALLOW_PROP_NAME}; this package is not
 * exported), and the launch variables that {@link LaunchInfo} reads.
 *
 * <p>When a setting is read: see {@link Setting#readAt()}. Each is read when the thing it configures is made (a job,
 * a communicator), never per message, and not cached across jobs: one JVM may run many jobs (tests, benchmarks,
 * embedded programs), and a system property set before a job starts applies to that job.
 */
public final class Settings {
    /** Transport between ranks of a multi-process job. */
    public static final Setting TRANSPORT = choice("tutti.transport", "auto", List.of("auto", "shm", "tcp"),
        ReadAt.JOB_START, "`auto`: shared memory between ranks of one host, TCP between hosts; `shm` (every rank on "
            + "this host) or `tcp` forces one");
    /** Largest message sent eagerly over tcp (bytes). */
    public static final Setting EAGER_LIMIT = integer("tutti.eager.limit", 64 * 1024, ReadAt.JOB_START,
        "largest message (bytes) sent eagerly over tcp; larger ones use rendezvous");
    /** Largest message the in-process transport copies eagerly (bytes). */
    public static final Setting INPROC_EAGER_LIMIT = integer("tutti.inproc.eagerLimit", 8 * 1024, ReadAt.JOB_START,
        "the same between ranks that are threads of one JVM: a larger message that arrives before its receive is "
            + "posted waits for it and is copied once, from the sender's buffer");
    /** Idle strategy: iterations that spin. */
    public static final Setting IDLE_SPINS = integer("tutti.idle.spins", 1_000, ReadAt.JOB_START,
        "a waiting thread spins this many iterations, then yields, then parks");
    /** Idle strategy: iterations that yield after spinning. */
    public static final Setting IDLE_YIELDS = integer("tutti.idle.yields", 5_000, ReadAt.JOB_START,
        "iterations a waiting thread yields after spinning, before it parks");
    /** Idle strategy: longest park in microseconds. */
    public static final Setting IDLE_MAX_PARK_US = integer("tutti.idle.maxParkUs", 1_000, ReadAt.JOB_START,
        "longest park (µs) of a waiting thread");
    /** CPU binding of ranks with shared-memory peers. */
    public static final Setting BIND = choice("tutti.bind", "core", List.of("core", "none"), ReadAt.JOB_START,
        "`core`: a rank with shared-memory peers binds the thread that called `init` to one CPU, as Open MPI binds "
            + "ranks (the host's i-th rank to CPU i modulo the CPUs, so with more ranks than CPUs each CPU gets the "
            + "same number), when native access is enabled (`tutti run` passes `--enable-native-access=ALL-UNNAMED`; "
            + "under another launcher add it yourself, or nothing is bound); `none` leaves placement to the OS");
    /** Directory of the shared-memory job files. */
    public static final Setting SHM_DIR = text("tutti.shm.dir", "/dev/shm", ReadAt.JOB_START,
        "directory (a tmpfs) of the shared-memory job files; the launcher removes a job's file from the directory "
            + "its ranks were given");
    /** Shared memory: inbox ring bytes per rank. */
    public static final Setting SHM_RING_BYTES = integer("tutti.shm.ringBytes", 1 << 20, ReadAt.JOB_START,
        "bytes of each rank's inbox ring (a power of two); every rank of a job must use the same");
    /** Shared memory: largest message copied inline through the ring. */
    public static final Setting SHM_EAGER_LIMIT = integer("tutti.shm.eagerLimit", 16 * 1024, ReadAt.JOB_START,
        "largest message (bytes) copied inline through the inbox ring; larger ones stream in chunks");
    /** Shared memory: bytes per chunk. */
    public static final Setting SHM_CHUNK_BYTES = integer("tutti.shm.chunkBytes", 64 * 1024, ReadAt.JOB_START,
        "bytes per chunk of a streamed message (a multiple of 64); every rank of a job must use the same");
    /** Shared memory: chunk slots per ordered pair of ranks. */
    public static final Setting SHM_CHUNKS = integer("tutti.shm.chunks", 0, ReadAt.JOB_START,
        "chunk slots per ordered pair of ranks; 0 chooses by job size: 64 (a 4 MiB message in flight at once) in "
            + "jobs of up to 8 ranks, fewer in larger jobs (all pairs together within 256 MiB of the job file, "
            + "which is used only as pairs exchange large messages), at least 8");
    /** Shared memory: largest message streamed without waiting for clear-to-send. */
    public static final Setting SHM_PUSH_LIMIT = integer("tutti.shm.pushLimit", 1 << 20, ReadAt.JOB_START,
        "largest message (bytes) whose chunks the sender streams right after announcing it, without waiting for "
            + "the receiver's clear-to-send (one hand-off between ranks instead of three, which counts most when "
            + "ranks outnumber cores); such a message is copied to the heap only if a later one from the same sender "
            + "is received first; 0 turns it off. Larger messages wait for clear-to-send");
    /** Shared memory: arena per rank, MiB. */
    public static final Setting SHM_ARENA_MIB = integer("tutti.shm.arenaMiB", 64, ReadAt.JOB_START,
        "MiB of each rank's shared arena (`tutti.allocShared` buffers, sent with a single copy); sparse, so it "
            + "costs memory only when used");
    /** Shared memory: how often a waiting rank checks its peers' processes. */
    public static final Setting SHM_LIVENESS_MS = integer("tutti.shm.livenessMs", 100, ReadAt.JOB_START,
        "how often (ms) a waiting rank checks that its shared-memory peers' processes are alive");
    /** Shared memory: how long a closing rank reads its inbox for its peers' goodbyes. */
    public static final Setting SHM_CLOSE_WAIT_MS = integer("tutti.shm.closeWaitMs", 500, ReadAt.JOB_END,
        "how long (ms) closing reads the shared-memory inbox for the goodbyes of peers that are still running, so "
            + "that what they sent before is read and a collective message no call received is reported; 0: no wait");
    /** Shared memory: yields before a waiting rank parks. */
    public static final Setting SHM_IDLE_YIELDS = integer("tutti.shm.idle.yields", 20_000, ReadAt.JOB_START,
        "iterations a rank with shared-memory peers yields before it parks (no process can wake another, and a "
            + "park lasts at least the kernel's timer slack of 50 µs). With more ranks on the host than cores, "
            + "waits do not spin and yield at least 100000 times before they park, like Open MPI's "
            + "`mpi_yield_when_idle`");
    /** Shared memory: longest park of a waiting rank. */
    public static final Setting SHM_IDLE_MAX_PARK_US = integer("tutti.shm.idle.maxParkUs", 50, ReadAt.JOB_START,
        "longest park (µs) of a rank with shared-memory peers (bounds the latency after a long wait)");
    /** Shared memory: one spin iteration in this many yields. */
    public static final Setting SHM_IDLE_YIELD_EVERY = integer("tutti.shm.idle.yieldEvery", 256, ReadAt.JOB_START,
        "while spinning, one iteration in this many (a power of two) yields, and one at least every 20 µs whatever "
            + "the iterations cost, so that a rank placed on the core of the rank it waits for steps aside within "
            + "microseconds");
    /** Collective algorithm overrides, one per operation. */
    public static final Setting COLL_ALGORITHM = new Setting("tutti.coll.<operation>", "TUTTI_COLL_<OPERATION>",
        Kind.FAMILY, Type.TEXT, "auto", List.of(), ReadAt.COMMUNICATOR,
        "force a collective algorithm, e.g. `-Dtutti.coll.allreduce=ring`; operations as in MPI in lower case "
            + "(`bcast`, `reduce_scatter_block`, ...). `hierarchical` (barrier, bcast, reduce, allreduce, allgather) "
            + "is node-aware, chosen by default on a communicator that spans hosts with several ranks on one; `flat` "
            + "keeps the default choice without it");
    /** Longest a tagged collective may stay unmatched. */
    public static final Setting COLL_TAGGED_TIMEOUT_MS = integer("tutti.coll.tagged.timeoutMs", 300_000,
        ReadAt.COMMUNICATOR, "a tagged collective not matched by then (ms) fails with `TIMEOUT` (0 = wait forever)");
    /** Persistent collectives over shared memory: the largest message that goes through a pre-agreed slot. */
    public static final Setting COLL_DIRECT_LIMIT = integer("tutti.coll.directLimit", -1, ReadAt.EACH_CALL,
        "persistent collectives and alltoall channels: each message up to this many bytes goes through a slot of "
            + "memory agreed once per peer and shape (no matching, no queue) instead of the message layer; -1: "
            + "16384 between ranks that are threads of one JVM (twice as fast there); between processes over "
            + "shared memory 1048576 (faster than the message layer's ring at every size up to there); slots "
            + "take at most a quarter of a rank's shared arena; 0 turns it off; read at each "
            + "`...Init`, and every rank must use the same value");
    /** Collectives of a communicator on one host, every form but tagged: the largest block through its on-host region. */
    public static final Setting COLL_HOST_LIMIT = integer("tutti.coll.hostLimit", -1, ReadAt.COMMUNICATOR,
        "barrier, bcast, reduce, allreduce, gather, allgather, scatter, alltoall, scan, exscan, reduce_scatter_block "
            + "and reduce_scatter, blocking, nonblocking and persistent starts, on a communicator whose ranks all "
            + "share memory: a call whose data per rank (a rank's whole send for scatter and alltoall, its whole "
            + "operand for reduce_scatter_block and reduce_scatter) is at most this many bytes moves through the "
            + "communicator's on-host region (sequence flags and slots set up when a blocking creation makes the "
            + "communicator, else at its first blocking barrier, allreduce, allgather or alltoall; no messages); a "
            + "gatherv, alltoallv, alltoallw or scatterv in any form but tagged, and a blocking allgatherv, goes there "
            + "too when "
            + "every rank's published bytes (its block, or the blocks it sends its peers) fit, else through the "
            + "message layer on every rank alike, and a nonblocking or persistent allgatherv whose largest block fits; "
            + "a larger blocking call may go through the region's chunk area (`tutti.coll.hostChunks`), and so may a "
            + "larger nonblocking call or persistent start once a blocking one has; other larger calls (persistent "
            + "ones through slots, `tutti.coll.directLimit`), tagged forms, forced algorithms "
            + "(`tutti.coll.<operation>`) and a checked job take the message layer; -1: 8192 between processes over "
            + "shared memory and between threads of one JVM; 0 turns it off; read there, and every rank must use the "
            + "same value");
    /** On-host region: calls past its cells through its chunk area. */
    public static final Setting COLL_HOST_CHUNKS = choice("tutti.coll.hostChunks", "auto", List.of("auto", "off",
        "on"), ReadAt.COMMUNICATOR, "`on`: a blocking bcast, reduce, allreduce, gather, allgather, scatter or "
            + "alltoall past `tutti.coll.hostLimit` goes through the on-host region's chunk area, and so does a "
            + "nonblocking call or persistent start once the area is made (at the first blocking one, or at the first "
            + "blocking barrier, allreduce, allgather or alltoall after one of the others went without or a "
            + "persistent one was made: 128 KiB chunks, pipelined; a copy's readers "
            + "copy out of the writers' chunks at once, and each rank reduces its share of each chunk in rank order); "
            + "`off`: through the message layer; `auto`: each of these through the chunks but a reduce of 2 ranks, "
            + "which takes the message layer (its non-root returns without waiting for the root there), and except "
            + "every call between threads of one JVM that outnumber its cores (the message layer beats the chunks "
            + "there); "
            + "either way a reduction whose op is applied to whole operands (one that does not commute, unless it "
            + "declares its items: `Op.Builder.items`) takes the message layer, since the chunks cut the operands; "
            + "read when the region is made, and every rank must use the same");
    /** The least severe log record passed on. */
    public static final Setting LOG_LEVEL = choice("tutti.log.level", "warning", List.of("off", "error", "warning",
        "info", "debug", "trace"), ReadAt.EACH_CALL, "The least severe of Tutti's own log records that is passed on "
            + "(to `System.Logger`, one line each, naming the rank); read at each record. `warning` by default, so "
            + "`info` and below are not shown; `tutti run -v` sets `debug` on every rank, `-vv` `trace` (see "
            + "Logging below)");
    /** The correctness checker. */
    public static final Setting CHECK = choice("tutti.check", "off", List.of("off", "on", "strict", "warn"),
        ReadAt.JOB_START,
        "`on`: every collective call is compared with its peers' calls before its data moves (operation, root, "
            + "reduction, tag, type signature and counts, in-place use, blocking or not) and a mismatch throws "
            + "`CollectiveMismatchException` on every rank involved, naming each rank's call and call site; so are "
            + "point-to-point type signatures, deadlocks and what a rank leaves behind at close; read when "
            + "the default options (`Tutti.Options.defaults()`) are made. `strict`: as `on`, and every blocking send "
            + "waits until it is received (unbuffered), so a program that deadlocks only when sends are not buffered "
            + "is reported. `warn`: as `on`, but what is only reported (what a rank leaves behind at close, a buffer "
            + "written while an operation owns it) does not fail the job; with `on` and `strict` a rank with such a "
            + "finding fails at close (`CheckFailedException`: `runLocal` throws, a rank's process exits 1). `off`: no "
            + "checking and no cost");
    /** How long a checked collective waits for a peer's call before it asks what the peer is doing. */
    public static final Setting CHECK_TIMEOUT_MS = integer("tutti.check.timeoutMs", 1_000, ReadAt.JOB_START,
        "with the checker on: a collective that has waited this long (ms) for a peer's call asks the peer what it "
            + "is doing, and fails with a report naming what the peer waits in if it has waited that long in another "
            + "collective (a rank that computes or waits in point-to-point is waited for); and when every live rank "
            + "has been blocked this long with no way on, the job's deadlock is reported (`DeadlockException`)");
    /** Where the checker's findings go as JSON. */
    public static final Setting CHECK_REPORT = text("tutti.check.report", "", ReadAt.JOB_START,
        "with the checker on: a file every rank appends its findings to, one JSON object per line (`kind`, `rank`, "
            + "`message`); unset: none");
    /** Tutti's Flight Recorder events and each rank's recording. */
    public static final Setting JFR = text("tutti.jfr", "", ReadAt.JOB_START,
        "a directory: Tutti records its Flight Recorder events (point-to-point calls, collectives, channel exchanges, "
            + "waits that block), and each rank of a job records its JVM (the JDK's `default` settings and Tutti's "
            + "events) into `DIR/rank-N.jfr`, written when the rank closes its job or its JVM exits "
            + "(`tutti run --jfr`, `--profile` and `--trace` set it); read once per JVM, when Tutti first records, so set it when the JVM "
            + "starts. Unset: no events, at no cost");
    /**
     * With {@code tutti.jfr.stacks=sampled}, the mean number of a thread's point-to-point and collective calls per
     * call whose event takes the stack: fixed, not a setting.
     */
    public static final int JFR_STACK_SAMPLE = 64;
    /** Which of Tutti's point-to-point and collective events take the calling thread's stack. */
    public static final Setting JFR_STACKS = choice("tutti.jfr.stacks", "sampled", List.of("on", "sampled", "off"),
        ReadAt.JOB_START, "with `tutti.jfr`: which point-to-point and collective events take the calling thread's "
            + "stack (their call site for the profile; a stack is most of an event's cost): `sampled`: about one "
            + "call in " + JFR_STACK_SAMPLE + " of each thread, at random gaps (every call is still an event; the "
            + "profile estimates its call sites from the sampled calls); `on`: every call (exact call sites); "
            + "`off`: none, so the profile has no call sites");
    /**
     * How long a rank under {@code tutti run} keeps trying to reach the rendezvous, which is up before any rank
     * starts: fixed, not a setting.
     */
    public static final int RENDEZVOUS_CONNECT_WINDOW_MS = 10_000;
    /** Longest the rendezvous may take. */
    public static final Setting RENDEZVOUS_TIMEOUT_MS = integer("tutti.rendezvous.timeoutMs", 60_000,
        ReadAt.JOB_START, "how long (ms) a rank waits for all ranks to join the job. Under another launcher "
            + "(`srun`, `mpirun`, ...) that includes reaching rank 0's rendezvous, which a rank keeps trying this long "
            + "(rank 0's JVM may start well after the others); under `tutti run`, whose rendezvous is up before any "
            + "rank starts, a rank that cannot reach it fails within " + RENDEZVOUS_CONNECT_WINDOW_MS / 1000
            + " s");
    /** Address of this rank's tcp endpoint. */
    public static final Setting TCP_HOST = text("tutti.tcp.host", "", ReadAt.JOB_START,
        "address this rank's TCP endpoint binds and advertises; unset: loopback if the rendezvous is on loopback, "
            + "else every interface, advertising this host's addresses, the one that reaches the rendezvous first");
    /** Longest the tcp wiring may take. */
    public static final Setting TCP_CONNECT_TIMEOUT_MS = integer("tutti.tcp.connectTimeoutMs", 60_000,
        ReadAt.JOB_START, "how long (ms) wiring the TCP connections after the rendezvous may take");
    /** Longest a tcp close waits for the peers' goodbyes. */
    public static final Setting TCP_CLOSE_TIMEOUT_MS = integer("tutti.tcp.closeTimeoutMs", 10_000, ReadAt.JOB_END,
        "how long (ms) closing waits for the TCP peers' goodbyes");
    /** Socket buffer size of the tcp connections. */
    public static final Setting TCP_SOCKET_BUFFER_BYTES = integer("tutti.tcp.socketBufferBytes", 0, ReadAt.JOB_START,
        "send and receive buffer size (bytes, SO_SNDBUF and SO_RCVBUF) of each TCP connection; 0: the kernel sizes "
            + "them and grows them with the traffic (autotuning, as Open MPI's default), which a fixed size turns off "
            + "and which the kernel caps at net.core.wmem_max and rmem_max");
    /** Bytes of a rendezvous message (tcp) that travel with its announcement. */
    public static final Setting TCP_RENDEZVOUS_PREFIX = integer("tutti.tcp.rendezvousPrefix", 64 * 1024,
        ReadAt.JOB_START, "bytes of a message above the eager limit (tcp) sent with its announcement (RTS), so that "
            + "they cross the wire while the receiver's clear-to-send comes back; an unexpected message costs the "
            + "receiver this much memory until it is received; 0: none");
    /** How the tcp transport moves rendezvous data in heap arrays. */
    public static final Setting TCP_HEAP_IO = choice("tutti.tcp.heapIo", "direct", List.of("direct", "staged"),
        ReadAt.JOB_START, "how large (rendezvous) messages in heap arrays cross a TCP socket: `direct` writes "
            + "and reads them straight from and into the array (Linux, with native access enabled, as `tutti run` "
            + "does; else `staged`), `staged` copies them through a direct buffer on each side");
    /** Host id of a rank that shares memory with no other. */
    public static final Setting HOST_ID = text("tutti.host.id", "", ReadAt.JOB_START,
        "the host id of a rank that shares memory with no other rank (a host of one rank, or "
            + "`tutti.transport=tcp`): ranks with equal ids are one host for `splitType(SHARED)` and the node-aware "
            + "collectives; unset: the host name");
    /** Fake hosts for node-aware collectives (a testing and tuning aid). */
    public static final Setting HOST_LAYOUT = text("tutti.host.layout", "", ReadAt.JOB_START,
        "a testing and tuning aid: places the ranks on fake hosts for the node-aware (hierarchical) collectives, "
            + "as if the job spanned hosts: `blocks:N` (N hosts, each a contiguous range of ranks), `cyclic:N` "
            + "(rank r on host r mod N) or one host label per rank, comma-separated (`a,a,b,c,c,c`); the transports "
            + "are not affected. Unset: the real hosts (the ranks sharing memory, else the host names), exchanged at "
            + "`init` by a job whose ranks are not all on one host; every rank of a job must use the same");
    /** Extra allow-list patterns of the default object serializer. */
    public static final Setting SERIAL_ALLOW = text("tutti.serial.allow", "", ReadAt.JOB_START,
        "extra allow-list patterns for object messages, separated by `;`, e.g. `com.example.**` (`java.base` is "
            + "always allowed); read when the default options (`Tutti.Options.defaults()`) are made");
    /** Secret file under another launcher. */
    public static final Setting SECRET_FILE = text("tutti.secret.file", "", ReadAt.JOB_START,
        "under another launcher without `TUTTI_JOB_SECRET`: the per-user secret file (unset: `~/.tutti/secret`), "
            + "created on first use with 32 random bytes and mode 0600, and refused if group or others may read it; "
            + "each job's secret is derived from it and the job id, so every host of a job needs the same file");
    /** Launch variable: this rank. */
    public static final Setting RANK = launch("TUTTI_RANK",
        "this rank, 0 to size - 1; a process without it (and without another launcher's variables: see "
            + "\"Running under Slurm or mpirun\") runs as a job of one rank");
    /** Launch variable: the job size. */
    public static final Setting SIZE = launch("TUTTI_SIZE", "the number of ranks");
    /** Launch variable: the rendezvous address. */
    public static final Setting RENDEZVOUS = launch("TUTTI_RENDEZVOUS",
        "`host:port` of the job's rendezvous, where the ranks exchange their endpoints. Under another launcher "
            + "(`srun`, `mpirun`, ...) rank 0 serves it: unset, at the launcher's first host (or `127.0.0.1` when "
            + "every rank is on one host) on port 20000 + (SHA-256 of the job id mod 10000); `tcp://host:port` there; "
            + "`env://` at `MASTER_ADDR:MASTER_PORT`; `file:///dir` on an ephemeral port that rank 0 writes to a file "
            + "in `dir`, a directory every rank shares");
    /** Launch variable: the job secret. */
    public static final Setting JOB_SECRET = launch("TUTTI_JOB_SECRET",
        "the job's secret (hex), which ranks prove to each other and never send in clear");
    /** Launch variable: the job id. */
    public static final Setting JOB_ID = launch("TUTTI_JOB_ID",
        "the job's id, in names of its shared resources and in messages (default `job`); under another launcher "
            + "the launcher's job id unless set");
    /** Headless service of a Kubernetes indexed Job. */
    public static final Setting K8S_SERVICE = launch("TUTTI_K8S_SERVICE",
        "in a Kubernetes indexed Job (`JOB_COMPLETION_INDEX` set, `TUTTI_SIZE` the completions): the headless "
            + "service that is the pods' subdomain; rank 0 is reached at `<job>-0.<service>`");

    /**
     * The collective operations of {@link #COLL_ALGORITHM}, as in MPI in lower case (a test keeps this list equal to
     * the collectives that the selection table knows).
     */
    public static final List<String> COLL_OPERATIONS = List.of("barrier", "bcast", "gather", "gatherv", "scatter",
        "scatterv", "allgather", "allgatherv", "alltoall", "alltoallv", "alltoallw", "reduce", "allreduce",
        "reduce_scatter", "reduce_scatter_block", "scan", "exscan");

    private static final List<Setting> ALL = List.of(TRANSPORT, EAGER_LIMIT, INPROC_EAGER_LIMIT, IDLE_SPINS,
        IDLE_YIELDS, IDLE_MAX_PARK_US, BIND, SHM_DIR, SHM_RING_BYTES, SHM_EAGER_LIMIT, SHM_CHUNK_BYTES, SHM_CHUNKS,
        SHM_PUSH_LIMIT, SHM_ARENA_MIB, SHM_LIVENESS_MS, SHM_CLOSE_WAIT_MS, SHM_IDLE_YIELDS, SHM_IDLE_MAX_PARK_US,
        SHM_IDLE_YIELD_EVERY, COLL_ALGORITHM, COLL_TAGGED_TIMEOUT_MS, COLL_DIRECT_LIMIT, COLL_HOST_LIMIT,
        COLL_HOST_CHUNKS, LOG_LEVEL, CHECK, CHECK_TIMEOUT_MS, CHECK_REPORT, JFR, JFR_STACKS, RENDEZVOUS_TIMEOUT_MS,
        TCP_HOST, TCP_CONNECT_TIMEOUT_MS, TCP_CLOSE_TIMEOUT_MS, TCP_SOCKET_BUFFER_BYTES, TCP_RENDEZVOUS_PREFIX,
        TCP_HEAP_IO, HOST_ID, HOST_LAYOUT, SERIAL_ALLOW, SECRET_FILE, RANK, SIZE, RENDEZVOUS, JOB_SECRET, JOB_ID,
        K8S_SERVICE);

    /** A family member's key: lower case letters, digits and underscores. */
    private static final Pattern KEY = Pattern.compile("[a-z0-9_]+");

    private Settings() {
    }

    /** @return every setting, in the order of the settings table (docs/configuration.md) */
    public static List<Setting> all() {
        return ALL;
    }

    /**
     * Finds the setting of a system property or an environment variable: a declared one (a family by its name with
     * {@code <key>}), or a member of a family whose key is well formed (any key, so that a collective added later is readable before this list knows it).
     *
     * @param name e.g. {@code tutti.eager.limit}, {@code TUTTI_EAGER_LIMIT}, {@code tutti.coll.allreduce}
     * @return the setting, or null if none has that name
     */
    public static Setting find(final String name) {
        for (final Setting s : ALL) {
            if (s.name().equals(name) || s.envName().equals(name)) {
                return s;
            }
        }
        for (final Setting s : ALL) {
            if (Kind.FAMILY != s.kind()) {
                continue;
            }
            if (name.startsWith(s.prefix()) && KEY.matcher(name.substring(s.prefix().length())).matches()) {
                return s.member(name.substring(s.prefix().length()));
            }
            final String envPrefix = Setting.envNameOf(s.prefix());
            if (name.startsWith(envPrefix)) {
                final String key = name.substring(envPrefix.length()).toLowerCase(java.util.Locale.ROOT);
                if (KEY.matcher(key).matches()) {
                    return s.member(key);
                }
            }
        }
        return null;
    }

    /**
     * Returns whether a name is a declared setting: one of {@link #all()}, or a member of {@link #COLL_ALGORITHM}
     * whose key is one of {@link #COLL_OPERATIONS} ({@code tutti info --settings} flags the others as unknown).
     *
     * @param name a system property or environment variable
     * @return whether it is declared
     */
    public static boolean isDeclared(final String name) {
        final Setting s = find(name);
        // Not in ALL: a member of the one family, COLL_ALGORITHM.
        return null != s && (ALL.contains(s)
            || COLL_OPERATIONS.contains(s.name().substring(COLL_ALGORITHM.prefix().length())));
    }

    /**
     * Finds a declared setting.
     *
     * @param name a system property or environment variable
     * @return the setting
     * @throws IllegalArgumentException if no setting has that name
     */
    public static Setting require(final String name) {
        final Setting s = find(name);
        if (null == s) {
            throw Errors.refused("setting " + name + " is not declared in " + Settings.class.getName()
                + ", which lists every setting");
        }
        return s;
    }

    private static Setting integer(final String name, final int defaultValue, final ReadAt readAt,
        final String meaning) {
        return new Setting(name, Setting.envNameOf(name), Kind.TUNABLE, Type.INT, Integer.toString(defaultValue),
            List.of(), readAt, meaning);
    }

    private static Setting text(final String name, final String defaultValue, final ReadAt readAt,
        final String meaning) {
        return new Setting(name, Setting.envNameOf(name), Kind.TUNABLE, Type.TEXT, defaultValue, List.of(), readAt,
            meaning);
    }

    private static Setting choice(final String name, final String defaultValue, final List<String> choices,
        final ReadAt readAt, final String meaning) {
        return new Setting(name, Setting.envNameOf(name), Kind.TUNABLE, Type.CHOICE, defaultValue, choices, readAt,
            meaning);
    }

    private static Setting launch(final String envName, final String meaning) {
        return new Setting(envName, envName, Kind.LAUNCH, Type.TEXT, "", List.of(), ReadAt.JOB_START, meaning);
    }
}
