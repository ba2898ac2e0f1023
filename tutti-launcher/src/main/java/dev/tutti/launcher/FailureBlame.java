package dev.tutti.launcher;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Decides which of several failed ranks a job's failure report blames: the rank that failed first on its own, not
 * one that failed because a peer died or left.
 *
 * <p>A failure is a consequence when an exception of the chain its rank reported ({@link StderrDigest}) is a Tutti
 * exception that reports another rank's failure or departure ({@code TuttiException: ... rank N failed},
 * {@code ... rank N closed} or {@code ... rank N has left the job}, the wording of the transports, the
 * point-to-point engine and the collectives, see {@code Failures.peerLeft}), and that rank
 * failed too, or exited with status 0 (it left while its peers still needed it). Among the other failures the one
 * whose exception was read first (else whose process ended first) wins; if every failure is a consequence (ranks
 * blaming each other, or all blaming a rank that exited 0), the first of them does, and {@link #leftEarly} names
 * the rank that exited 0 if that failure blames one.
 */
final class FailureBlame {
    /** A Tutti exception that only reports that another rank failed or left. */
    private static final Pattern CONSEQUENCE = Pattern.compile(
        "TuttiException: .*?\\brank (\\d+) (?:failed|closed|has left the job)");

    private FailureBlame() {
    }

    /**
     * Returns the rank an exception line blames, or -1.
     *
     * @param line an exception line of a rank's stderr, or null
     * @return the rank named by a Tutti peer-failure message, else -1
     */
    static int blamedRank(final String line) {
        if (null == line) {
            return -1;
        }
        final Matcher m = CONSEQUENCE.matcher(line);
        return m.find() ? Integer.parseInt(m.group(1)) : -1;
    }

    /**
     * Returns the rank an exception chain blames: the first of its exceptions, top first, that blames one.
     *
     * @param chain the exception a rank reported and its causes
     * @return the rank, or -1
     */
    static int blamedRank(final List<String> chain) {
        for (final String line : chain) {
            final int r = blamedRank(line);
            if (r >= 0) {
                return r;
            }
        }
        return -1;
    }

    /**
     * Picks the failure to report (see the class comment).
     *
     * @param failures   the failed exits, at least one
     * @param ranks      the job's ranks, by rank
     * @param exitedZero which ranks have exited with status 0, by rank
     * @return one of the failures
     */
    static RankProcess.Exit rootCause(final List<RankProcess.Exit> failures, final RankProcess[] ranks,
        final boolean[] exitedZero) {
        final Set<Integer> failedRanks = new HashSet<>();
        failures.forEach(f -> failedRanks.add(f.rank()));
        RankProcess.Exit own = null;
        RankProcess.Exit any = null;
        for (final RankProcess.Exit f : failures) {
            final RankProcess rp = ranks[f.rank()];
            final int blamed = blamedRank(rp.exceptionChain());
            if (null == any || rp.failedAtNanos(f) - ranks[any.rank()].failedAtNanos(any) < 0) {
                any = f;
            }
            final boolean consequence = blamed >= 0 && blamed != f.rank()
                && (failedRanks.contains(blamed) || blamed < exitedZero.length && exitedZero[blamed]);
            if (!consequence && (null == own || rp.failedAtNanos(f) - ranks[own.rank()].failedAtNanos(own) < 0)) {
                own = f;
            }
        }
        return null != own ? own : any;
    }

    /**
     * Returns the rank that a failure blames if that rank exited with status 0: it left the job while the failed
     * rank still needed it, so it, not the failed rank, is what went wrong first.
     *
     * @param failure    the failure to report ({@link #rootCause})
     * @param ranks      the job's ranks, by rank
     * @param exitedZero which ranks have exited with status 0, by rank
     * @return the rank, or -1 if the failure blames no rank that exited 0
     */
    static int leftEarly(final RankProcess.Exit failure, final RankProcess[] ranks, final boolean[] exitedZero) {
        final int blamed = blamedRank(ranks[failure.rank()].exceptionChain());
        return blamed >= 0 && blamed < exitedZero.length && blamed != failure.rank() && exitedZero[blamed]
            ? blamed : -1;
    }

    /**
     * Tells whether a rank's failure goes back to another rank: it blames that rank, or a rank whose failure goes
     * back to it (rank 3 blames rank 0, which blames rank 2: rank 3 waited for rank 0 in a collective that rank 0
     * could not finish without rank 2).
     *
     * @param rank  the failed rank
     * @param cause the rank it may go back to
     * @param ranks the job's ranks, by rank
     * @return true if following the blame from {@code rank} reaches {@code cause}
     */
    static boolean goesBackTo(final int rank, final int cause, final RankProcess[] ranks) {
        int r = rank;
        for (int step = 0; step < ranks.length; step++) {
            final int blamed = blamedRank(ranks[r].exceptionChain());
            if (cause == blamed) {
                return true;
            }
            if (blamed < 0 || blamed >= ranks.length || null == ranks[blamed]) {
                return false;
            }
            r = blamed;
        }
        return false;
    }

    /**
     * Tells whether a failure blames a rank that has not exited yet (it is probably going down too).
     *
     * @param failures the failed exits so far
     * @param ranks    the job's ranks, by rank
     * @param exited   which ranks have exited
     * @return true if waiting for more exits may change the blame
     */
    static boolean awaitsBlamedRank(final List<RankProcess.Exit> failures, final RankProcess[] ranks,
        final boolean[] exited) {
        for (final RankProcess.Exit f : failures) {
            final int blamed = blamedRank(ranks[f.rank()].exceptionChain());
            if (blamed >= 0 && blamed < ranks.length && blamed != f.rank() && null != ranks[blamed]
                && !exited[blamed]) {
                return true;
            }
        }
        return false;
    }
}
