package dev.tutti.cli.trace;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * The Tutti events of a job's recordings ({@code DIR/rank-N.jfr}, one per rank, written by {@code tutti.jfr}), put
 * on one clock: each rank's times are moved by the clock offset to rank 0 that the rank measured at job start (its
 * {@code dev.tutti.ClockOffset} event), so that the ranks' spans line up.
 *
 * <p>Implementation note. Reads each file once, in full; the spans are kept in memory, sorted by rank, thread and
 * start, and each span knows how many spans of its thread enclose it ({@link Span#depth()}: 0 for a call of the
 * program, more for the waits and sends inside it), which the profile uses to count each call once.
 *
 * <p>Each point-to-point and collective call is an event of one of two types, with or without its stack, as the
 * ranks' setting {@code tutti.jfr.stacks} picked; a span knows whether its call site comes from a stack
 * ({@link Span#stacked()}), and {@link #stackSample()} says whether those are every call or a sample.
 *
 * @param size        the number of ranks
 * @param spans       the spans, sorted by rank, thread, start, then longest first
 * @param wallNs      each rank's wall time from its job start (its clock event) to the end of its last span
 * @param missing     the ranks whose recording was not found
 * @param stackSample calls per call with a stack, on average, as the ranks recorded (their
 *                    {@code dev.tutti.Recording} event; the largest): 1 for every call, 0 for none
 */
public record Recordings(int size, List<Span> spans, long[] wallNs, List<Integer> missing, int stackSample) {
    /** Tutti's event names in a recording (their classes are in tutti-core's {@code dev.tutti.trace}). */
    static final String P2P = "dev.tutti.P2p";
    static final String P2P_STACKED = "dev.tutti.P2pWithStack";
    static final String COLLECTIVE = "dev.tutti.Collective";
    static final String COLLECTIVE_STACKED = "dev.tutti.CollectiveWithStack";
    static final String RECORDING = "dev.tutti.Recording";
    static final String CHANNEL = "dev.tutti.ChannelExchange";
    static final String WAIT = "dev.tutti.Wait";
    static final String CLOCK = "dev.tutti.ClockOffset";
    /** The first track number of a rank's channels, above any Java thread id in practice. */
    static final long CHANNEL_TRACKS = 1_000_000L;

    /** Tutti's own packages: a call site is the first frame in none of them. */
    private static final Set<String> LIBRARY = Set.of("dev.tutti", "dev.tutti.calls", "dev.tutti.channel",
        "dev.tutti.check", "dev.tutti.coll", "dev.tutti.coll.algo", "dev.tutti.coll.door", "dev.tutti.coll.inter",
        "dev.tutti.coll.slot", "dev.tutti.comm", "dev.tutti.internal", "dev.tutti.job", "dev.tutti.p2p",
        "dev.tutti.runtime", "dev.tutti.runtime.identity", "dev.tutti.trace", "dev.tutti.transport",
        "dev.tutti.transport.inproc", "dev.tutti.transport.shm", "dev.tutti.transport.tcp", "dev.tutti.type");

    /**
     * @param rank a world rank
     * @return its recording's name in the directory, as the ranks write it
     */
    public static String fileName(final int rank) {
        return "rank-" + rank + ".jfr";
    }

    /**
     * Reads the recordings of ranks 0 to {@code size - 1} from a directory.
     *
     * @param dir  the directory
     * @param size the number of ranks
     * @return the job's spans
     * @throws IOException if a recording cannot be read
     */
    public static Recordings read(final Path dir, final int size) throws IOException {
        final List<Span> all = new ArrayList<>();
        final long[] wall = new long[size];
        final List<Integer> missing = new ArrayList<>();
        final int[] sample = new int[1];
        for (int r = 0; r < size; r++) {
            final Path f = dir.resolve(fileName(r));
            if (!Files.isRegularFile(f)) {
                missing.add(r);
                continue;
            }
            wall[r] = readRank(f, r, all, sample);
        }
        return new Recordings(size, nest(all), wall, List.copyOf(missing), sample[0]);
    }

    /**
     * Reads one rank's spans into {@code into}, and raises {@code sample[0]} to its calls per stack.
     *
     * @return the rank's wall time
     */
    private static long readRank(final Path file, final int rank, final List<Span> into, final int[] sample)
        throws IOException {
        final List<RecordedEvent> events = new ArrayList<>();
        RecordedEvent clock = null;
        for (final RecordedEvent e : RecordingFile.readAllEvents(file)) {
            final String type = e.getEventType().getName();
            if (CLOCK.equals(type)) {
                clock = e;
            } else if (RECORDING.equals(type)) {
                sample[0] = Math.max(sample[0], e.getInt("stackSample"));
            } else if (type.startsWith("dev.tutti.")) {
                events.add(e);
            }
        }
        // Rank r's recording time t, on rank 0's wall clock: t - (recording clock - wall clock) + offset.
        final long shift = null == clock ? 0
            : clock.getLong("offset") - (epochNs(clock.getStartTime()) - clock.getLong("wallNanos"));
        final long origin = null == clock ? Long.MIN_VALUE : epochNs(clock.getStartTime()) + shift;
        long first = null == clock ? Long.MAX_VALUE : origin;
        long last = Long.MIN_VALUE;
        final Map<String, Long> channels = new LinkedHashMap<>();
        final List<Span> mine = new ArrayList<>();
        for (final RecordedEvent e : events) {
            final Span s = span(e, rank, shift, channels);
            if (s.endNs() <= origin) {
                continue; // the clock's own ping-pongs, in Tutti.init: not the program's
            }
            mine.add(s);
            first = Math.min(first, s.startNs());
            last = Math.max(last, s.endNs());
        }
        into.addAll(waitSites(mine));
        return Long.MIN_VALUE == last ? 0 : last - first;
    }

    /**
     * @param channels the track of each channel seen so far: a channel's exchanges overlap its threads' calls (one
     *                 starts at a submit and ends when some thread sees it complete), so each channel has a track of
     *                 its own, numbered from {@link #CHANNEL_TRACKS}
     */
    private static Span span(final RecordedEvent e, final int rank, final long shift,
        final Map<String, Long> channels) {
        final String type = e.getEventType().getName();
        final Map<String, Object> args = new LinkedHashMap<>();
        final String category;
        final String name;
        long bytes = 0;
        switch (type) {
            case P2P, P2P_STACKED -> {
                category = "p2p";
                name = e.getString("op");
                args.put("comm", e.getString("comm"));
                args.put("peer", e.getInt("peer"));
                args.put("tag", e.getInt("tag"));
                request(args, e);
                bytes = e.getLong("bytes");
            }
            case COLLECTIVE, COLLECTIVE_STACKED -> {
                category = "collective";
                name = collectiveName(e.getString("op"), e.getString("variant"));
                args.put("variant", e.getString("variant"));
                args.put("comm", e.getString("comm"));
                args.put("context", e.getInt("context"));
                args.put("size", e.getInt("size"));
                args.put("root", e.getInt("root"));
                args.put("algorithm", e.getString("algorithm"));
                args.put("road", e.getString("road"));
                request(args, e);
                bytes = e.getLong("bytes");
            }
            case CHANNEL -> {
                category = "channel";
                name = "exchange";
                args.put("channel", e.getString("channel"));
                args.put("exchange", e.getLong("number"));
                args.put("road", e.getString("road"));
                bytes = e.getLong("bytes");
            }
            case WAIT -> {
                category = "wait";
                name = "wait " + e.getString("op");
                args.put("peer", e.getInt("peer"));
                args.put("tag", e.getInt("tag"));
                request(args, e);
            }
            default -> {
                category = "other";
                name = type.substring("dev.tutti.".length());
            }
        }
        final RecordedThread t = e.getThread();
        long tid = null == t ? 0 : t.getJavaThreadId();
        String tname = null == t || null == t.getJavaName() ? "thread " + tid : t.getJavaName();
        if (CHANNEL.equals(type)) {
            tname = "channel " + e.getString("channel");
            tid = channels.computeIfAbsent(tname, k -> CHANNEL_TRACKS + channels.size());
        }
        return new Span(rank, tid, tname, category, name, epochNs(e.getStartTime()) + shift,
            e.getDuration().toNanos(), bytes, site(e.getStackTrace()), null != e.getStackTrace(), args, 0);
    }

    /**
     * @return a collective's name as the program calls it: {@code allreduce}, {@code iallreduce},
     *         {@code allreduceBegin}, {@code allreduceInit.start}
     */
    static String collectiveName(final String op, final String variant) {
        return switch (variant) {
            case "nonblocking" -> "i" + op;
            case "tagged" -> op + "Begin";
            case "persistent" -> op + "Init.start";
            default -> op;
        };
    }

    /** Puts a nonblocking call's or a wait's request id into {@code args}, if it has one. */
    private static void request(final Map<String, Object> args, final RecordedEvent e) {
        final int id = e.getInt("request");
        if (0 != id) {
            args.put("request", id);
        }
    }

    /**
     * Gives each wait of one rank the call site of the call that returned its request (the latest one before it with
     * the same request id), and whether that call took its stack: a wait records no stack of its own.
     */
    private static List<Span> waitSites(final List<Span> spans) {
        final Map<Object, List<Span>> starts = new HashMap<>();
        for (final Span s : spans) {
            if (!"wait".equals(s.category()) && s.args().containsKey("request")) {
                starts.computeIfAbsent(s.args().get("request"), k -> new ArrayList<>()).add(s);
            }
        }
        final List<Span> out = new ArrayList<>(spans.size());
        for (final Span s : spans) {
            final List<Span> from = "wait".equals(s.category()) ? starts.get(s.args().get("request")) : null;
            Span best = null;
            if (null != from) {
                for (final Span f : from) {
                    if (f.startNs() <= s.startNs() && (null == best || f.startNs() > best.startNs())) {
                        best = f;
                    }
                }
            }
            out.add(null == best ? s : s.withSite(best.site(), best.stacked()));
        }
        return out;
    }

    /** @return the first frame outside Tutti, {@code Class.method:line}, or empty */
    static String site(final RecordedStackTrace stack) {
        if (null == stack) {
            return "";
        }
        for (final RecordedFrame f : stack.getFrames()) {
            if (!f.isJavaFrame()) {
                continue;
            }
            final String cls = f.getMethod().getType().getName();
            final int dot = cls.lastIndexOf('.');
            final String pkg = dot < 0 ? "" : cls.substring(0, dot);
            if (LIBRARY.contains(pkg)) {
                continue;
            }
            final String simple = cls.substring(dot + 1);
            return simple + "." + f.getMethod().getName() + (f.getLineNumber() > 0 ? ":" + f.getLineNumber() : "");
        }
        return "";
    }

    /** @return the spans sorted by rank, thread, start (longest first), each with its depth */
    private static List<Span> nest(final List<Span> spans) {
        spans.sort(Comparator.comparingInt(Span::rank).thenComparingLong(Span::thread)
            .thenComparingLong(Span::startNs).thenComparing(Comparator.comparingLong(Span::durationNs).reversed()));
        final List<Span> out = new ArrayList<>(spans.size());
        final List<Span> open = new ArrayList<>();
        Span prev = null;
        for (final Span s : spans) {
            if (null == prev || prev.rank() != s.rank() || prev.thread() != s.thread()) {
                open.clear();
            }
            while (!open.isEmpty() && open.getLast().endNs() <= s.startNs()) {
                open.removeLast();
            }
            while (!open.isEmpty() && open.getLast().endNs() < s.endNs()) {
                open.removeLast(); // overlaps without nesting (clock granularity): not inside it
            }
            final Span d = s.atDepth(open.size());
            out.add(d);
            open.add(d);
            prev = s;
        }
        return out;
    }

    private static long epochNs(final Instant t) {
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }
}
