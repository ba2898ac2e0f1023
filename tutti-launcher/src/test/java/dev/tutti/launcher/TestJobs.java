package dev.tutti.launcher;

import dev.tutti.Tutti;
import dev.tutti.launcher.testranks.RankProgram;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Helpers for tests that launch real JVMs running {@link RankProgram}. */
final class TestJobs {
    /** Small, quick-starting rank JVMs. */
    static final List<String> SMALL_JVM = List.of("-Xmx64m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");
    /** A rendezvous that does nothing (the test programs never call Tutti.init()); its port is 1. */
    static final RendezvousService.Factory FAKE_RENDEZVOUS = (bindHost, size, secret) -> new RendezvousService() {
        @Override
        public int port() {
            return 1;
        }

        @Override
        public void close() {
        }
    };
    private static final Pattern PID = Pattern.compile("pid=(\\d+)");

    private TestJobs() {
    }

    /** @return the class path holding the test programs and Tutti (which some of their actions use) */
    static String testClasspath() {
        return location(RankProgram.class) + File.pathSeparator + location(Tutti.class);
    }

    private static String location(final Class<?> c) {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (final URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A buffer that wakes up threads waiting for some text to appear in it. */
    static final class Buffer extends ByteArrayOutputStream {
        @Override
        public synchronized void write(final int b) {
            super.write(b);
            notifyAll();
        }

        @Override
        public synchronized void write(final byte[] b, final int off, final int len) {
            super.write(b, off, len);
            notifyAll();
        }

        /**
         * Waits until {@code text} occurs {@code count} times.
         *
         * @param text  the text
         * @param count how often
         * @throws InterruptedException if interrupted (the test's timeout)
         */
        synchronized void await(final String text, final int count) throws InterruptedException {
            while (occurrences(toString(StandardCharsets.UTF_8), text) < count) {
                wait();
            }
        }

        private static int occurrences(final String s, final String text) {
            int n = 0;
            for (int i = s.indexOf(text); i >= 0; i = s.indexOf(text, i + text.length())) {
                n++;
            }
            return n;
        }
    }

    /** Captured output of a job. */
    static final class Output {
        final Buffer out = new Buffer();
        final Buffer err = new Buffer();

        String out() {
            synchronized (out) {
                return out.toString(StandardCharsets.UTF_8);
            }
        }

        String err() {
            synchronized (err) {
                return err.toString(StandardCharsets.UTF_8);
            }
        }

        List<String> outLines() {
            return out().lines().toList();
        }

        List<String> errLines() {
            return err().lines().toList();
        }

        /** @return the pids the ranks printed ({@code pid=P}) */
        List<Long> pids() {
            final List<Long> pids = new ArrayList<>();
            final Matcher m = PID.matcher(out());
            while (m.find()) {
                pids.add(Long.parseLong(m.group(1)));
            }
            return pids;
        }
    }

    /**
     * A launcher builder for {@link RankProgram} with small JVMs, the fake rendezvous and captured output.
     *
     * @param n       ranks
     * @param output  where output goes
     * @param actions the program's arguments
     * @return the builder
     */
    static Launcher.Builder job(final int n, final Output output, final String... actions) {
        return Launcher.builder().ranks(n).rendezvous(FAKE_RENDEZVOUS).jvmOptions(SMALL_JVM)
            .classpath(testClasspath()).mainClass(RankProgram.class.getName()).args(List.of(actions))
            .stdout(output.out).stderr(output.err);
    }

    /** @return whether a process with this pid still runs */
    static boolean alive(final long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    /** @return descriptions of this JVM's descendants that run {@link RankProgram} */
    static List<String> liveRankProcesses() {
        return ProcessHandle.current().descendants().filter(ProcessHandle::isAlive)
            .filter(p -> p.info().arguments().map(a -> String.join(" ", a).contains(RankProgram.class.getName()))
                .orElse(false))
            .map(p -> p.pid() + " " + p.info().commandLine().orElse("?")).toList();
    }
}
