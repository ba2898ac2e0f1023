package dev.tutti.launcher;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Prints the Java thread stacks of running ranks with {@code jcmd <pid> Thread.print} (or {@code jstack <pid>}) from
 * the JDK of the ranks' java command, all ranks in parallel, each rank's dump as one block.
 *
 * <p>Only local ranks can be dumped: a remote rank's pid is on another host. The dump of an unresponsive JVM is
 * abandoned after {@link #DUMP_TIMEOUT_MS}.
 */
final class StackDumper {
    /** Longest wait for one rank's dump. */
    static final long DUMP_TIMEOUT_MS = 10_000;

    private StackDumper() {
    }

    /**
     * The dump tool next to a java command: {@code jcmd}, else {@code jstack}.
     *
     * @param javaCommand the ranks' java command
     * @return the tool's argv before the pid ({@code [.../jcmd]} or {@code [.../jstack]}), or null if neither is
     *         there
     */
    static List<String> tool(final String javaCommand) {
        final Path bin = Path.of(javaCommand).toAbsolutePath().getParent();
        if (null == bin) {
            return null;
        }
        for (final String name : new String[] {"jcmd", "jstack"}) {
            final Path p = bin.resolve(name);
            if (Files.isExecutable(p)) {
                return List.of(p.toString());
            }
        }
        return null;
    }

    /**
     * Dumps the stacks of the given ranks to {@code err}.
     *
     * @param javaCommand the ranks' java command (the tool is looked up next to it)
     * @param ranks       the ranks still running
     * @param err         the destination
     * @throws InterruptedException if interrupted while waiting for the dumps
     */
    static void dump(final String javaCommand, final List<RankProcess> ranks, final OutputStream err)
        throws InterruptedException {
        final List<String> tool = tool(javaCommand);
        final List<Thread> threads = new ArrayList<>();
        for (final RankProcess rp : ranks) {
            if (!rp.isLocal()) {
                write(err, "tutti: rank " + rp.rank() + " runs on " + rp.host()
                    + "; its thread stacks cannot be printed from here\n");
            } else if (null == tool) {
                write(err, "tutti: no jcmd or jstack next to " + javaCommand + "; cannot print the thread stacks of "
                    + "rank " + rp.rank() + "\n");
            } else {
                threads.add(Thread.ofPlatform().daemon().name("tutti-stacks-" + rp.rank())
                    .start(() -> dumpOne(tool, rp, err)));
            }
        }
        for (final Thread t : threads) {
            t.join();
        }
    }

    private static void dumpOne(final List<String> tool, final RankProcess rp, final OutputStream err) {
        final long pid = rp.process().pid();
        final List<String> argv = new ArrayList<>(tool);
        argv.add(Long.toString(pid));
        if (tool.getFirst().endsWith("jcmd")) {
            argv.add("Thread.print");
        }
        final String header = "tutti: thread stacks of rank " + rp.rank() + " (pid " + pid + "):\n";
        try {
            final Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
            p.getOutputStream().close();
            final ByteArrayOutputStream text = new ByteArrayOutputStream();
            final Thread collector = Thread.ofPlatform().daemon().start(() -> collect(p, text));
            if (!p.waitFor(DUMP_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                write(err, header + "(" + String.join(" ", argv) + " did not answer within " + DUMP_TIMEOUT_MS
                    + " ms)\n");
                return;
            }
            collector.join(DUMP_TIMEOUT_MS);
            synchronized (err) {
                err.write(header.getBytes(StandardCharsets.UTF_8));
                text.writeTo(err);
                err.flush();
            }
        } catch (final IOException e) {
            write(err, header + "(" + String.join(" ", argv) + " failed: " + e + ")\n");
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void collect(final Process p, final ByteArrayOutputStream text) {
        try (var in = p.getInputStream()) {
            in.transferTo(text);
        } catch (final IOException e) {
            text.writeBytes(("(reading the output of pid " + p.pid() + " failed: " + e + ")\n")
                .getBytes(StandardCharsets.UTF_8));
        }
    }

    private static void write(final OutputStream err, final String text) {
        synchronized (err) {
            try {
                err.write(text.getBytes(StandardCharsets.UTF_8));
                err.flush();
            } catch (final IOException e) {
                // The launcher's stderr is gone; there is nowhere left to report to.
            }
        }
    }
}
