package dev.tutti.check;

import dev.tutti.CollectiveMismatchException;
import dev.tutti.p2p.RecvRequest;

import java.util.HashMap;
import java.util.Map;

/**
 * What a checked call that waits too long for a peer's digest asks that peer: once the call has waited the
 * threshold ({@code tutti.check.timeoutMs}), it asks each missing peer for its state ({@link Checker#ask}), and
 * again every threshold while the peer's answer gives no verdict. The verdict: the peer has waited, for at least the
 * threshold, in another checked collective (another call on this communicator, or a call on another one), so it
 * will not make this call until that one completes, which the report names with what it waits for. A peer that does
 * not answer (it computes) or waits outside collectives (point-to-point) is waited for.
 *
 * <p>Implementation note. Guarded by this object's lock: the wait loop of the call and the run that holds the call
 * as its gate may ask at once. One reply receive per missing peer at a time; an unanswered question is asked again
 * after a threshold (replies carry the same information whoever asked, so an answer meant for another call of this
 * rank serves as well).
 */
final class LatePeerInquiry {
    private final Checker checker;
    private final DigestExchange call;
    private final Map<Integer, RecvRequest> replies = new HashMap<>();
    private final Map<Integer, Long> nextAskNs = new HashMap<>();

    LatePeerInquiry(final Checker checker, final DigestExchange call) {
        this.checker = checker;
        this.call = call;
    }

    /**
     * Asks and reads the missing peers' answers.
     *
     * @param waitedMs how long the call has waited
     * @return the report of a peer that waits in another collective, or null to keep waiting
     */
    synchronized CollectiveMismatchException verdict(final long waitedMs) {
        final long threshold = checker.thresholdMs();
        if (waitedMs < threshold) {
            return null;
        }
        final long now = System.nanoTime();
        for (final int peer : call.missingWorldRanks()) {
            final RecvRequest reply = replies.get(peer);
            if (null != reply && reply.isDone()) {
                replies.remove(peer);
                final CollectiveMismatchException found = judge(peer, PeerState.decode(reply), threshold);
                if (null != found) {
                    return found;
                }
            } else if (null == reply && now - nextAskNs.getOrDefault(peer, now) >= 0) {
                replies.put(peer, checker.ask(peer, call.comm().context()));
                nextAskNs.put(peer, now + threshold * 1_000_000L);
            }
        }
        return null;
    }

    /**
     * Reads the answers that have arrived, without asking: what a peer said before it left.
     *
     * @return the report of a peer that waited in another collective, or null
     */
    synchronized CollectiveMismatchException answered() {
        for (final Map.Entry<Integer, RecvRequest> e : replies.entrySet()) {
            if (e.getValue().isDone()) {
                final CollectiveMismatchException found = judge(e.getKey(), PeerState.decode(e.getValue()),
                    checker.thresholdMs());
                if (null != found) {
                    return found;
                }
            }
        }
        return null;
    }

    private CollectiveMismatchException judge(final int peer, final PeerState s, final long threshold) {
        if (null == s) {
            return null;
        }
        final int me = call.comm().world(call.comm().rank());
        for (final PeerState.Pending p : s.pending()) {
            if (p.waitedMs() >= threshold && p.waitsFor(me)) {
                checker.owe(peer); // it will ask this rank in turn, which answers before it leaves
            }
        }
        for (final PeerState.Pending p : s.pending()) {
            if (p.key() != call.key() && p.waitedMs() >= threshold) {
                final int groupRank = call.comm().groupRank(peer);
                final String peerLabel = call.peerLabel(groupRank);
                final String elsewhere = p.comm().equals(call.commName()) ? "" : "; " + call.myLabel() + " and "
                    + peerLabel + " are in collectives on different communicators: " + call.myLabel() + " on '"
                    + call.commName() + "', " + peerLabel + " on '" + p.comm() + "'";
                return Reports.missing(call.commName(), call.mine(), call.myLabel(), call.waitedMs(), peerLabel,
                    "waits in " + p.text() + s.lastCallSuffix(call.commName()) + elsewhere);
            }
        }
        return null;
    }

    /** Cancels the questions still unanswered (the call has completed). */
    synchronized void close() {
        for (final RecvRequest r : replies.values()) {
            r.cancel();
        }
        replies.clear();
    }
}
