package dev.tutti.internal;

import dev.tutti.ErrorClass;
import dev.tutti.TuttiException;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Errors speak in one voice: every message family is worded by a factory of {@link Errors} or {@link Failures}
 * (pinned here, one example each), and no main source outside {@code dev.tutti.internal} builds a
 * {@link TuttiException} itself.
 */
class ErrorsTest {
    private static final Path MAIN = Path.of("src/main/java");
    private static final String INLINE = "new TuttiException(";

    /** Main code builds every {@code TuttiException} through a factory of {@code Errors} or {@code Failures}. */
    @Test
    void shouldBuildExceptionsOnlyThroughTheFactories() throws IOException {
        final List<String> inline = inlineConstructions(MAIN);
        assertTrue(inline.isEmpty(), "build these through dev.tutti.internal.Errors or Failures (add a factory "
            + "if no family fits): " + inline);
    }

    /**
     * The JDK's argument and state exceptions too: code below the operations refuses a value with
     * {@link Errors#refused} and reports a state that should not arise with {@link Failures#badState}.
     */
    @Test
    void shouldBuildArgumentAndStateExceptionsOnlyThroughTheFactories() throws IOException {
        final List<String> inline = constructions(MAIN, List.of("new IllegalArgumentException(",
            "new IllegalStateException("));
        assertTrue(inline.isEmpty(), "build these through Errors.refused or Failures.badState (add a factory if "
            + "neither fits): " + inline);
    }

    /** The scan finds what it is for: an inline construction in a file that is not on the list. */
    @Test
    void shouldCatchAnInlineConstruction() throws IOException {
        final Path root = Files.createTempDirectory("errors-test");
        try {
            final Path file = root.resolve("dev/tutti/p2p/Planted.java");
            Files.createDirectories(file.getParent());
            Files.writeString(file, "class Planted {\n    Object e = " + INLINE + "null, \"x\");\n}\n");
            final Path allowed = root.resolve("dev/tutti/internal/Made.java");
            Files.createDirectories(allowed.getParent());
            Files.writeString(allowed, "class Made {\n    Object e = " + INLINE + "null, \"x\");\n}\n");
            assertEquals(List.of("dev/tutti/p2p/Planted.java:2"), inlineConstructions(root));
        } finally {
            try (Stream<Path> files = Files.walk(root)) {
                for (final Path p : files.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList()) {
                    Files.delete(p);
                }
            }
        }
    }

    private static List<String> inlineConstructions(final Path root) throws IOException {
        return constructions(root, List.of(INLINE));
    }

    private static List<String> constructions(final Path root, final List<String> needles) throws IOException {
        assertTrue(Files.isDirectory(root), "no source tree at " + root.toAbsolutePath());
        final List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (final Path f : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                final String name = root.relativize(f).toString().replace('\\', '/');
                if (name.startsWith("dev/tutti/internal/")) {
                    continue;
                }
                final List<String> lines = Files.readAllLines(f);
                for (int i = 0; i < lines.size(); i++) {
                    final String line = lines.get(i);
                    if (needles.stream().anyMatch(line::contains)) {
                        found.add(name + ":" + (i + 1));
                    }
                }
            }
        }
        return found;
    }

    @Test
    void shouldWordArgumentsAsOpWhereArgValueExpected() {
        check(ErrorClass.RANK, "send (comm=WORLD, rank=0): dest=2 is out of range, expected 0..1 or PROC_NULL",
            Errors.rank("send", "comm=WORLD, rank=0", "dest", 2, 2, " or PROC_NULL"));
        check(ErrorClass.ROOT, "bcast (comm=WORLD, rank=0): root=3 is out of range, expected 0..2",
            Errors.root("bcast", "comm=WORLD, rank=0", 3, 3));
        check(ErrorClass.TAG, "recv (comm=WORLD, rank=1): tag=-7 is out of range, expected 0..32767 or ANY_TAG",
            Errors.tag("recv", "comm=WORLD, rank=1", -7, 32767, " or ANY_TAG"));
        check(ErrorClass.BUFFER, "send (comm=WORLD, rank=0): buf=null, expected a buffer",
            Errors.nullArg("send", "comm=WORLD, rank=0", "buf"));
        check(ErrorClass.BUFFER, "send (comm=WORLD, rank=0): buf=IN_PLACE, expected a buffer (IN_PLACE is only for "
            + "collectives)", Errors.inPlace("send", "comm=WORLD, rank=0", "buf", "only for collectives"));
        check(ErrorClass.COUNT, "gather (comm=WORLD, rank=0): recvCount=5 does not fit, expected 0..2 (the buffer's "
            + "element count)", Errors.count("gather", "comm=WORLD, rank=0", "recvCount", 5, 2));
        check(ErrorClass.ARG, "runLocal: n=0, expected n >= 1", Errors.argument(ErrorClass.ARG, "runLocal", null,
            "n", 0, "n >= 1"));
        check(ErrorClass.COUNT, "Buf.pairs: array length=3 is odd, expected an even length",
            Errors.expected(ErrorClass.COUNT, "Buf.pairs", null, "array length=3 is odd", "an even length"));
        final IllegalArgumentException parsed = new IllegalArgumentException("rendezvous=x, expected host:port");
        final TuttiException e = Errors.argument("init", "rank=0", parsed);
        check(ErrorClass.ARG, "init (rank=0): rendezvous=x, expected host:port", e);
        assertSame(parsed, e.getCause());
        check(ErrorClass.COMM, "free (comm=WORLD, rank=0): the world communicator cannot be freed",
            Errors.invalid(ErrorClass.COMM, "free", "comm=WORLD, rank=0", "the world communicator cannot be freed"));
    }

    @Test
    void shouldWordDisagreementsAndReceivesOneWay() {
        check(ErrorClass.COUNT, "bcast (comm=WORLD, rank=1): rank=0 sent count=4 (bytes=16) but this rank expected "
            + "count=8 (bytes=32) of type=INT: the ranks passed different counts or types",
            Errors.mismatch(ErrorClass.COUNT, "bcast", "comm=WORLD, rank=1", 0, "count=4 (bytes=16)",
                "expected count=8 (bytes=32) of type=INT", "the ranks passed different counts or types"));
        check(ErrorClass.TYPE, "recv (comm=WORLD, rank=1): message from rank=0 tag=0 has type=DOUBLE, the receive "
            + "expects type=LONG", Errors.received(ErrorClass.TYPE, "recv", "comm=WORLD, rank=1", 0, 0,
                "type=DOUBLE", "the receive expects type=LONG"));
    }

    @Test
    void shouldWordFailuresByFamily() {
        final TuttiException peer = Failures.peerFailed(3, "connection reset", null);
        check(ErrorClass.PROC_FAILED, "rank 3 failed: connection reset", peer);
        check(ErrorClass.PROC_FAILED, "allreduce (comm=WORLD, rank=0): cannot complete: rank 3 failed: connection "
            + "reset", Failures.wrap(peer, "allreduce", "comm=WORLD, rank=0", "cannot complete"));
        check(ErrorClass.PROC_FAILED, "rank 1 closed (left the job), so nothing more can be received from or sent "
            + "to it", Failures.peerLeft(1));
        check(ErrorClass.PROC_FAILED, "rank 2 aborted: java.lang.IllegalStateException: boom",
            Failures.aborted(2, new IllegalStateException("boom")));
        check(ErrorClass.PROC_FAILED, "shm send (rank=0): rank 1 has left the job",
            Failures.unreachable("shm send", "rank=0", "rank 1 has left the job"));
        check(ErrorClass.TIMEOUT, "rendezvous (rank=0): fence not reached within 500 ms; still missing ranks=[1]",
            Failures.timeout("rendezvous", "rank=0", "fence not reached", 500, "still missing ranks=[1]", null));
        check(ErrorClass.TIMEOUT, "runLocal: the job did not end within 500 ms",
            Failures.timeout("runLocal", null, "the job did not end", 500, "", null));
        check(ErrorClass.INTERN, "rendezvous (rank=0): handshake failed: java.io.IOException: reset",
            Failures.io("rendezvous", "rank=0", "handshake failed", new IOException("reset")));
        check(ErrorClass.INTERN, "shm poll (rank=0): protocol violation: unknown record type=9",
            Failures.protocol("shm poll", "rank=0", "unknown record type=9"));
        check(ErrorClass.INTERN, "reduce: no kernel for op=SUM on type=BOOLEAN",
            Failures.internal("reduce", null, "no kernel for op=SUM on type=BOOLEAN"));
        check(ErrorClass.INTERN, "runLocal: interrupted while waiting for the ranks",
            Failures.interrupted("runLocal", null, "waiting for the ranks", null));
        check(ErrorClass.SERIALIZATION, "serialize: class=x.Y does not implement java.io.Serializable",
            Failures.serialization("serialize", "class=x.Y does not implement java.io.Serializable", null));
        final TuttiException again = Failures.rethrown(peer);
        check(ErrorClass.PROC_FAILED, peer.getMessage(), again);
        assertSame(peer, again.getCause());
    }

    private static void check(final ErrorClass errorClass, final String message, final TuttiException e) {
        assertEquals(message, e.getMessage());
        assertEquals(errorClass, e.errorClass(), message);
    }
}
