package dev.tutti.check;

import dev.tutti.CollectiveMismatchException;
import dev.tutti.ErrorClass;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The checker's messages, in one place: a mismatch lists each disagreeing rank's call with its arguments and call
 * site, ranks that made the same call at the same place together, e.g.
 * {@code collective mismatch on 'WORLD' (call #17): ranks 0, 1 bcast(root=0, 4 x int) at Solver.java:42; rank 2
 * reduce(root=0, op=SUM, 4 x int) at Solver.java:57: the ranks called different collectives}.
 */
final class Reports {
    private Reports() {
    }

    /**
     * Writes a finding that stops no call (what a rank leaves behind at close, a buffer written while an operation
     * owned it) where the user reads the checker's report: standard error, as a sanitizer's report, at once and
     * whatever the logging configuration (a logger could filter it out, and then the job would fail for a finding
     * nobody sees). Findings that stop a call are thrown instead.
     *
     * @param report the report, starting {@code tutti check: rank N}
     */
    static void print(final String report) {
        System.err.println(report);
    }

    /**
     * Returns the name of a communicator from its description ({@code comm=WORLD, rank=2} gives {@code WORLD}).
     *
     * @param describe the communicator's description
     * @return its name
     */
    static String commName(final String describe) {
        final int at = describe.indexOf("comm=");
        if (at < 0) {
            return describe;
        }
        final int end = describe.indexOf(',', at);
        return describe.substring(at + "comm=".length(), end < 0 ? describe.length() : end);
    }

    /**
     * Names a call on a communicator: {@code call #17} (ordinary calls) or {@code reduceBegin tag=5 #2} (tagged).
     *
     * @param mine this rank's digest of the call
     * @return the label
     */
    static String callLabel(final CallDigest mine) {
        return dev.tutti.coll.CollCall.Variant.TAGGED == mine.variant()
            ? mine.kind().mpiName() + "Begin tag=" + mine.tag() + " #" + mine.seq() : "call #" + mine.seq();
    }

    /** @return how a message names rank {@code i} of the digests (on an intercommunicator: its group and rank) */
    static String rankLabel(final CallDigest[] d, final int i) {
        return d[i].isInter() ? "group " + d[i].side() + " rank " + d[i].localRank() : "rank " + i;
    }

    /**
     * Builds the exception of a broken rule.
     *
     * @param comm the communicator's name
     * @param d    every rank's digest
     * @param m    the broken rule
     * @return the exception, the same on every rank
     */
    static CollectiveMismatchException mismatch(final String comm, final CallDigest[] d, final DigestRules.Mismatch m) {
        final Map<String, List<Integer>> calls = new LinkedHashMap<>();
        if (null == m.ranks()) {
            for (int i = 0; i < d.length; i++) {
                calls.computeIfAbsent(d[i].toString(), k -> new ArrayList<>()).add(i);
            }
        } else {
            for (final int i : m.ranks()) {
                calls.computeIfAbsent(d[i].toString(), k -> new ArrayList<>()).add(i);
            }
        }
        final StringBuilder sb = new StringBuilder("collective mismatch on '").append(comm).append("' (")
            .append(callLabel(d[0])).append("): ");
        boolean first = true;
        for (final Map.Entry<String, List<Integer>> e : calls.entrySet()) {
            sb.append(first ? "" : "; ").append(ranks(d, e.getValue())).append(' ').append(e.getKey());
            first = false;
        }
        return new CollectiveMismatchException(m.errorClass(), sb.append(": ").append(m.what()).toString());
    }

    private static String ranks(final CallDigest[] d, final List<Integer> rs) {
        if (1 == rs.size()) {
            return rankLabel(d, rs.getFirst());
        }
        final StringBuilder sb = new StringBuilder(d[rs.getFirst()].isInter() ? "" : "ranks ");
        for (int k = 0; k < rs.size(); k++) {
            sb.append(0 == k ? "" : ", ").append(d[rs.get(k)].isInter() ? rankLabel(d, rs.get(k)) : rs.get(k));
        }
        return sb.toString();
    }

    /**
     * The report of a peer that will never make the call: it left the job or failed.
     *
     * @param comm   the communicator's name
     * @param mine   this rank's digest
     * @param me     this rank's label
     * @param peer   the peer's label
     * @param reason what happened to it
     * @return the exception
     */
    static CollectiveMismatchException departed(final String comm, final CallDigest mine, final String me,
        final String peer, final String reason) {
        return new CollectiveMismatchException(ErrorClass.PROC_FAILED, "collective mismatch on '" + comm + "' ("
            + callLabel(mine) + "): " + me + " " + mine + "; " + peer + " will never make this call: " + reason);
    }

    /**
     * The report of a peer that has not reached the call while it waits in Tutti itself (a deadlock, or a call on
     * another communicator or in another order).
     *
     * @param comm    the communicator's name
     * @param mine    this rank's digest
     * @param me      this rank's label
     * @param waitMs  how long this rank has waited
     * @param peer    the peer's label
     * @param state   what the peer says it is doing
     * @return the exception
     */
    static CollectiveMismatchException missing(final String comm, final CallDigest mine, final String me,
        final long waitMs, final String peer, final String state) {
        return new CollectiveMismatchException(ErrorClass.TIMEOUT, "collective mismatch on '" + comm + "' ("
            + callLabel(mine) + "): " + me + " " + mine + " has waited " + waitMs + " ms for " + peer + ", which has "
            + "not reached this call; " + peer + " " + state);
    }

    /**
     * The failure of a rank whose checker reported findings that did not stop a call, at its close.
     *
     * @param rank  the rank's world rank
     * @param kinds the count of each kind of finding
     * @return the exception, e.g. {@code check: rank 1 has 2 findings (1 buffer-in-use, 1 leak), reported above;
     *         --check=warn only reports them}
     */
    static dev.tutti.CheckFailedException checkFailed(final int rank,
        final Map<String, java.util.concurrent.atomic.AtomicInteger> kinds) {
        int total = 0;
        final StringBuilder each = new StringBuilder();
        for (final Map.Entry<String, java.util.concurrent.atomic.AtomicInteger> e : kinds.entrySet()) {
            total += e.getValue().get();
            each.append(each.isEmpty() ? "" : ", ").append(e.getValue().get()).append(' ').append(e.getKey());
        }
        return new dev.tutti.CheckFailedException("check: rank " + rank + " has " + total + (1 == total ? " finding"
            : " findings") + " (" + each + "), reported above; --check=warn only reports them");
    }

    /**
     * The report of a deadlock ({@link DeadlockDetector}, {@link WaitGraph#report}).
     *
     * @param report the text
     * @return the exception every blocked wait of the rank throws
     */
    static dev.tutti.DeadlockException deadlock(final String report) {
        return new dev.tutti.DeadlockException(report);
    }
}
