package dev.tutti.check;

import dev.tutti.p2p.RecvRequest;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A rank's answer to the deadlock detector's question ({@link DeadlockDetector}): the waits its threads are blocked
 * in.
 *
 * <p>Wire layout: {@code rank:int n:int (id:long waitedMs:long text:utf k:int (worldRank:int){k}){n}}, where
 * {@code k = -1} stands for "any rank" (a wildcard receive, or targets not known).
 *
 * @param rank  the rank's world rank
 * @param waits its blocked waits, one per blocked thread
 */
record RankState(int rank, List<Blocked> waits) {

    /**
     * One blocked wait.
     *
     * @param id       its number on its rank (a wait that ends and another that starts have different numbers)
     * @param waitedMs how long it has waited
     * @param text     the call, its arguments and call site
     * @param on       the world ranks it waits for, all of them; null for any one (OR)
     */
    record Blocked(long id, long waitedMs, String text, int[] on) {
    }

    /** @return the state as bytes */
    byte[] encode() {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream(128);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(rank);
            out.writeInt(waits.size());
            for (final Blocked b : waits) {
                out.writeLong(b.id());
                out.writeLong(b.waitedMs());
                out.writeUTF(b.text().length() > 2_000 ? b.text().substring(0, 2_000) : b.text());
                out.writeInt(null == b.on() ? -1 : b.on().length);
                if (null != b.on()) {
                    for (final int r : b.on()) {
                        out.writeInt(r);
                    }
                }
            }
        } catch (final IOException e) {
            throw new UncheckedIOException(e); // a byte array does not fail
        }
        return bytes.toByteArray();
    }

    /**
     * Reads a state.
     *
     * @param reply the completed reply receive
     * @return the state, or null if the receive failed or holds none
     */
    static RankState decode(final RecvRequest reply) {
        try {
            reply.waitFor();
            try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(reply.receivedBytes()))) {
                final int rank = in.readInt();
                final int n = in.readInt();
                final List<Blocked> waits = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    final long id = in.readLong();
                    final long waited = in.readLong();
                    final String text = in.readUTF();
                    final int k = in.readInt();
                    int[] on = null;
                    if (k >= 0) {
                        on = new int[k];
                        for (int j = 0; j < k; j++) {
                            on[j] = in.readInt();
                        }
                    }
                    waits.add(new Blocked(id, waited, text, on));
                }
                return new RankState(rank, waits);
            }
        } catch (final IOException | RuntimeException e) {
            return null; // failed or unreadable: no snapshot from this answer
        }
    }

    /** @return the numbers of its waits, to compare two snapshots */
    List<Long> ids() {
        return waits.stream().map(Blocked::id).toList();
    }

    /**
     * @param thresholdMs the threshold
     * @return whether some thread of the rank has been blocked at least that long
     */
    boolean blockedFor(final long thresholdMs) {
        return waits.stream().anyMatch(b -> b.waitedMs() >= thresholdMs);
    }
}
