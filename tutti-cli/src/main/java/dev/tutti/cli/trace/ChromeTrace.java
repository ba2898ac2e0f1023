package dev.tutti.cli.trace;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A job's spans as one Chrome trace-event file (the JSON object form, which Perfetto's UI and
 * {@code chrome://tracing} open): one process per rank ({@code pid} = rank, named {@code rank N}), one thread per
 * application thread ({@code tid} = the Java thread id) and one per channel, each span a complete event
 * ({@code "ph":"X"}) with its fields, bytes, call site and depth in {@code args}. A collective also carries
 * {@code call}: its number among the collectives of its communicator on its rank, so that the same call has the
 * same {@code (context, call)} on every rank, and {@code last_in}: the rank that started that call last, whom the
 * others waited for. Times are microseconds from the job's first span, with nanosecond
 * decimals, on rank 0's clock.
 *
 * <p>Implementation note. Events are written in the order of {@link Recordings#spans()} (by rank, thread, start),
 * so each track's timestamps never go back; the file is written through one buffered writer.
 */
public final class ChromeTrace {
    private ChromeTrace() {
    }

    /**
     * Writes the trace.
     *
     * @param rec  the job's spans
     * @param file where to write it
     * @throws IOException if it cannot be written
     */
    public static void write(final Recordings rec, final Path file) throws IOException {
        final Path parent = file.toAbsolutePath().getParent();
        if (null != parent) {
            Files.createDirectories(parent);
        }
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            write(rec, w);
        }
    }

    /**
     * Writes the trace.
     *
     * @param rec the job's spans
     * @param w   where to write it
     * @throws IOException if it cannot be written
     */
    public static void write(final Recordings rec, final Writer w) throws IOException {
        final long origin = rec.spans().stream().mapToLong(Span::startNs).min().orElse(0);
        final Map<Span, Integer> calls = collectiveCalls(rec.spans());
        final Map<String, Span> lastIn = new HashMap<>();
        for (final Map.Entry<Span, Integer> c : calls.entrySet()) {
            lastIn.merge(c.getKey().args().get("context") + "#" + c.getValue(), c.getKey(),
                (a, b) -> a.startNs() > b.startNs() || a.startNs() == b.startNs() && a.rank() < b.rank() ? a : b);
        }
        w.write("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"tool\":\"tutti run --trace\",\"ranks\":" + rec.size()
            + "},\"traceEvents\":[\n");
        boolean first = true;
        for (int r = 0; r < rec.size(); r++) {
            first = meta(w, first, "process_name", r, 0, Map.of("name", "rank " + r));
            first = meta(w, first, "process_sort_index", r, 0, Map.of("sort_index", r));
        }
        long lastRank = -1;
        long lastThread = Long.MIN_VALUE;
        for (final Span s : rec.spans()) {
            if (s.rank() != lastRank || s.thread() != lastThread) {
                first = meta(w, first, "thread_name", s.rank(), s.thread(), Map.of("name", s.threadName()));
                lastRank = s.rank();
                lastThread = s.thread();
            }
            final Map<String, Object> args = new LinkedHashMap<>(s.args());
            args.put("bytes", s.bytes());
            args.put("site", s.site());
            args.put("depth", s.depth());
            final Integer call = calls.get(s);
            if (null != call) {
                args.put("call", call);
                args.put("last_in", lastIn.get(s.args().get("context") + "#" + call).rank());
            }
            final StringBuilder b = new StringBuilder(200);
            b.append(first ? "" : ",\n").append("{\"name\":");
            Json.string(b, s.name()).append(",\"cat\":");
            Json.string(b, s.category()).append(",\"ph\":\"X\",\"ts\":").append(Json.micros(s.startNs() - origin))
                .append(",\"dur\":").append(Json.micros(s.durationNs())).append(",\"pid\":").append(s.rank())
                .append(",\"tid\":").append(s.thread()).append(",\"args\":");
            Json.value(b, args).append('}');
            w.write(b.toString());
            first = false;
        }
        w.write("\n]}\n");
    }

    private static boolean meta(final Writer w, final boolean first, final String name, final int pid,
        final long tid, final Map<String, Object> args) throws IOException {
        final StringBuilder b = new StringBuilder(first ? "" : ",\n").append("{\"name\":\"").append(name)
            .append("\",\"ph\":\"M\",\"ts\":0,\"pid\":").append(pid).append(",\"tid\":").append(tid)
            .append(",\"args\":");
        Json.value(b, args).append('}');
        w.write(b.toString());
        return false;
    }

    /**
     * @return each collective span of the program (depth 0) with its number among its rank's collectives on its
     *         communicator, in start order
     */
    static Map<Span, Integer> collectiveCalls(final List<Span> spans) {
        final List<Span> colls = new ArrayList<>();
        for (final Span s : spans) {
            if ("collective".equals(s.category())) {
                colls.add(s);
            }
        }
        colls.sort(Comparator.comparingInt(Span::rank).thenComparingLong(Span::startNs));
        final Map<String, Integer> next = new HashMap<>();
        final Map<Span, Integer> out = new java.util.IdentityHashMap<>();
        for (final Span s : colls) {
            out.put(s, next.merge(s.rank() + "/" + s.args().get("context"), 1, Integer::sum) - 1);
        }
        return out;
    }
}
