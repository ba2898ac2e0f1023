package dev.tutti.coll;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.ErrorClass;
import dev.tutti.Op;
import dev.tutti.Tutti;
import dev.tutti.TuttiException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Mismatches in which no rank receives a message of the other call (each side only sends) still fail the job: the
 * message that no call consumed is found once the ranks are done, and names both calls. Their correct twins pass.
 * Each rank's body returns normally; only the job's end can tell.
 */
@Timeout(60)
class CollLeftoverTest {
    private static final Tutti.Options OPTS = Tutti.Options.defaults().timeout(Duration.ofSeconds(30));
    private static final String BOTH = "the ranks called different collectives or roots";

    static Stream<Arguments> bcastAlgorithms() {
        final List<Arguments> cases = new ArrayList<>();
        for (final String algo : new String[] {"linear", "binomial", "scatter_allgather"}) {
            for (final int n : new int[] {1, 4, 1000}) {
                cases.add(Arguments.of(algo, n));
            }
        }
        return cases.stream();
    }

    /** Ranks 0, 2 and 3 name root 0; rank 1 names itself. */
    @ParameterizedTest(name = "{0} count={1}")
    @MethodSource("bcastAlgorithms")
    void shouldFailTwoRanksThatEachNameThemselvesTheRootOfABcast(final String algo, final int n) {
        final TuttiException e = assertThrows(TuttiException.class, () -> Tutti.runLocal(4, OPTS.algorithm("bcast",
            algo), w -> {
                final int root = 1 == w.rank() ? 1 : 0;
                w.bcast(Buf.of(new int[n]), root);
            }));
        assertMismatch(e, "bcast root=");
    }

    static Stream<Arguments> bcastAgainstReduce() {
        final List<Arguments> cases = new ArrayList<>();
        for (final int p : new int[] {2, 4}) {
            for (final int n : new int[] {1, 64, 5000}) {
                cases.add(Arguments.of(p, n));
            }
        }
        return cases.stream();
    }

    /** The root bcasts while every other rank reduces to it: each side only sends. */
    @ParameterizedTest(name = "ranks={0} count={1}")
    @MethodSource("bcastAgainstReduce")
    void shouldFailABcastAgainstAReduceToTheSameRoot(final int p, final int n) {
        final TuttiException e = assertThrows(TuttiException.class, () -> Tutti.runLocal(p, OPTS.algorithm("reduce",
            "linear").algorithm("bcast", "linear"), w -> {
                final double[] x = new double[n];
                if (0 == w.rank()) {
                    w.bcast(Buf.of(x), 0);
                } else {
                    w.reduce(Buf.of(x), Buf.of(new double[n]), Op.SUM, 0);
                }
            }));
        assertMismatch(e, "bcast root=0");
        assertTrue(message(e).contains("reduce root=0"), message(e));
    }

    @Test
    void shouldNameBothCallsWithTheirCountsAndNumbers() {
        final TuttiException e = assertThrows(TuttiException.class, () -> Tutti.runLocal(2, OPTS.algorithm("bcast",
            "linear").algorithm("reduce", "linear"), w -> {
                w.barrier();
                if (0 == w.rank()) {
                    w.bcast(Buf.of(new int[3]), 0);
                } else {
                    w.reduce(Buf.of(new int[3]), Buf.of(new int[3]), Op.SUM, 0);
                }
            }));
        final String m = message(e);
        assertTrue(m.contains("(call 1)"), m);
        assertTrue(m.contains("count=3"), m);
        assertTrue(m.contains("a message of 3 INT"), m);
        assertTrue(m.contains("rank=0 sent as part of bcast root=0 (call 1)")
            || m.contains("rank=1 sent as part of reduce root=0 (call 1)"), m);
    }

    /**
     * A rank that makes one collective call more than its peer leaves its message with a peer that never makes it.
     * On a freed communicator every member has freed it, so that is a mismatch; at close it is not reported (a rank
     * that threw stops early, and its exception is the report).
     */
    @Test
    void shouldFailARankThatBroadcastsOnceMoreThanItsPeerOnAFreedCommunicator() {
        final TuttiException e = assertThrows(TuttiException.class, () -> Tutti.runLocal(2, OPTS.algorithm("bcast",
            "linear"), w -> {
                final Communicator c = w.dup();
                c.bcast(Buf.of(new int[2]), 0);
                if (0 == w.rank()) {
                    c.bcast(Buf.of(new int[2]), 0);
                }
                c.free();
                w.barrier();
                w.barrier();
            }));
        assertEquals(ErrorClass.ARG, cause(e).errorClass(), message(e));
        assertTrue(message(e).contains("made only 1 collective calls on this communicator"), message(e));
    }

    /** A mismatch on a communicator that is freed is found when its block is retired, and thrown at the end. */
    @Test
    void shouldFailAMismatchOnAFreedCommunicator() {
        final TuttiException e = assertThrows(TuttiException.class, () -> Tutti.runLocal(3, OPTS.algorithm("bcast",
            "linear").algorithm("reduce", "linear"), w -> {
                final Communicator c = w.dup();
                if (0 == c.rank()) {
                    c.bcast(Buf.of(new long[2]), 0);
                } else {
                    c.reduce(Buf.of(new long[2]), Buf.of(new long[2]), Op.SUM, 0);
                }
                c.free();
                w.barrier(); // the FINs are in at every rank: the next progress retires the block
                w.barrier();
            }));
        assertMismatch(e, "bcast root=0");
    }

    @Test
    void shouldFailTaggedCollectivesThatEachNameThemselvesTheRoot() {
        final TuttiException e = assertThrows(TuttiException.class, () -> Tutti.runLocal(2, OPTS.algorithm("bcast",
            "linear"), w -> w.bcastBegin(Buf.of(new int[4]), w.rank(), 9).end()));
        assertTrue(message(e).contains(BOTH), message(e));
        assertTrue(message(e).contains("bcast tag=9 (use 0)"), message(e));
    }

    /** The correct twins: the same calls, matched. */
    @ParameterizedTest(name = "{0} count={1}")
    @MethodSource("bcastAlgorithms")
    void shouldPassTheCorrectTwins(final String algo, final int n) {
        Tutti.runLocal(4, OPTS.algorithm("bcast", algo), w -> {
            final int[] b = new int[n];
            w.bcast(Buf.of(b), 0);
            w.reduce(Buf.of(b), Buf.of(new int[n]), Op.SUM, 1);
            final Communicator c = w.dup();
            c.bcastBegin(Buf.of(b), 2, 9).end();
            c.ibcast(Buf.of(b), 3).waitFor();
            c.free();
            w.barrier();
        });
    }

    private static void assertMismatch(final TuttiException job, final String needle) {
        final TuttiException e = cause(job);
        assertTrue(ErrorClass.ROOT == e.errorClass() || ErrorClass.ARG == e.errorClass(), message(job));
        assertTrue(e.getMessage().contains(BOTH), message(job));
        assertTrue(message(job).contains(needle), message(job));
    }

    /** @return the rank's exception the job's failure carries */
    private static TuttiException cause(final TuttiException job) {
        return job.getCause() instanceof TuttiException t ? t : job;
    }

    private static String message(final TuttiException job) {
        final StringBuilder sb = new StringBuilder(job.getMessage());
        for (Throwable t = job.getCause(); null != t; t = t.getCause()) {
            sb.append(" / ").append(t.getMessage());
        }
        for (final Throwable s : job.getSuppressed()) {
            sb.append(" / ").append(s.getMessage());
        }
        return sb.toString();
    }
}
