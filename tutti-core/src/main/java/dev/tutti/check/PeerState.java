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
 * A rank's answer to a peer's question ({@link LatePeerInquiry}): the checked collectives it waits in, and its last
 * completed call on the communicator the question is about.
 *
 * <p>Wire layout: {@code n:int (key:long waitedMs:long text:utf comm:utf k:int (worldRank:int){k}){n}
 * lastCall:utf}.
 *
 * @param pending  the calls this rank waits in
 * @param lastCall its last completed call on the communicator asked about, or ""
 */
record PeerState(List<Pending> pending, String lastCall) {

    /**
     * A checked call that waits for its peers' digests.
     *
     * @param key      its context and tag ({@link DigestExchange#key()})
     * @param waitedMs how long it has waited
     * @param text     its description
     * @param comm     the name of its communicator
     * @param waitsOn  the world ranks whose digests it still waits for
     */
    record Pending(long key, long waitedMs, String text, String comm, int[] waitsOn) {

        /**
         * @param worldRank a world rank
         * @return whether this call waits for that rank's digest
         */
        boolean waitsFor(final int worldRank) {
            for (final int r : waitsOn) {
                if (r == worldRank) {
                    return true;
                }
            }
            return false;
        }
    }

    /** @return the answer as bytes */
    byte[] encode() {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream(128);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(pending.size());
            for (final Pending p : pending) {
                out.writeLong(p.key());
                out.writeLong(p.waitedMs());
                out.writeUTF(clip(p.text()));
                out.writeUTF(clip(p.comm()));
                out.writeInt(p.waitsOn().length);
                for (final int r : p.waitsOn()) {
                    out.writeInt(r);
                }
            }
            out.writeUTF(clip(lastCall));
        } catch (final IOException e) {
            throw new UncheckedIOException(e); // a byte array does not fail
        }
        return bytes.toByteArray();
    }

    private static String clip(final String s) {
        return s.length() > 4_000 ? s.substring(0, 4_000) + "..." : s;
    }

    /**
     * Reads an answer.
     *
     * @param reply the completed reply receive
     * @return the answer, or null if the receive failed or holds no answer
     */
    static PeerState decode(final RecvRequest reply) {
        try {
            reply.waitFor();
            final byte[] b = reply.receivedBytes();
            if (null == b) {
                return null;
            }
            try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(b))) {
                final int n = in.readInt();
                final List<Pending> pending = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    final long key = in.readLong();
                    final long waited = in.readLong();
                    final String text = in.readUTF();
                    final String comm = in.readUTF();
                    final int[] on = new int[in.readInt()];
                    for (int j = 0; j < on.length; j++) {
                        on[j] = in.readInt();
                    }
                    pending.add(new Pending(key, waited, text, comm, on));
                }
                return new PeerState(pending, in.readUTF());
            }
        } catch (final IOException | RuntimeException e) {
            return null; // cancelled, failed or unreadable: no verdict from this answer
        }
    }

    /**
     * @param comm the communicator's name
     * @return {@code ; its last completed call on 'comm' was ...}, or "" if it made none
     */
    String lastCallSuffix(final String comm) {
        return lastCall.isEmpty() ? "; it has completed no checked call on '" + comm + "'"
            : "; its last completed call on '" + comm + "' was " + lastCall;
    }
}
