package dev.tutti.check;

import dev.tutti.Datatype;
import dev.tutti.TuttiException;
import dev.tutti.p2p.CommView;
import dev.tutti.p2p.P2pEngine;
import dev.tutti.p2p.RecvRequest;
import dev.tutti.p2p.SiteCode;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The call sites of point-to-point sends, by number: this rank's own (each site gets the next index the first time
 * a send is made from it), and the peers' that they announced. A message carries its sender's index in its type code
 * ({@link SiteCode}); before the first message from a site to a destination, the sender sends the destination the
 * site's text on the world's checker context ({@link Checker#SITE_TAG}). Every transport delivers a pair's messages
 * in order, so the announcement has arrived when the message that names it does.
 *
 * <p>Implementation notes. Own sites: a concurrent map from text to index and a concurrent set of (destination,
 * index) pairs already announced, so that concurrent senders announce a pair at most twice, which is harmless. Peers'
 * sites: a map guarded by this object's lock, filled by {@link #drain}, which the checker's agent runs and which
 * every lookup runs first (an announcement received but not yet read is read then).
 */
final class SiteTable {
    private final P2pEngine engine;
    private final CommView worldView;
    private final Map<String, Integer> own = new ConcurrentHashMap<>();
    private final List<String> ownByIndex = new ArrayList<>(); // guarded by itself
    private final Set<Long> announced = ConcurrentHashMap.newKeySet();
    private final Map<Long, String> peers = new HashMap<>(); // guarded by this
    private RecvRequest announcement; // guarded by this

    SiteTable(final P2pEngine engine, final CommView worldView) {
        this.engine = engine;
        this.worldView = worldView;
    }

    /**
     * Returns the index of a site of this rank, announcing it to {@code destWorld} first if needed.
     *
     * @param site      the site's text
     * @param destWorld the destination of the message about to be sent
     * @return the index
     */
    int index(final String site, final int destWorld) {
        Integer i = own.get(site);
        if (null == i) {
            synchronized (ownByIndex) {
                i = own.computeIfAbsent(site, s -> {
                    ownByIndex.add(s);
                    return ownByIndex.size() - 1;
                });
            }
        }
        final int index = Math.min(i, SiteCode.MAX_SITE);
        if (announced.add((long) destWorld << Integer.SIZE | index)) {
            try {
                engine.isend(Checker.WORLD_CHECK, destWorld, Checker.SITE_TAG, Datatype.BYTE,
                    MemorySegment.ofArray(encode(index, site)));
            } catch (final TuttiException e) {
                // The destination is gone: the message itself will fail the same way.
            }
        }
        return index;
    }

    /**
     * Returns a peer's site.
     *
     * @param worldRank the peer
     * @param index     the index its message carried
     * @return the site's text, or {@code an unknown site} if it was never announced
     */
    synchronized String peer(final int worldRank, final int index) {
        drain();
        final String s = peers.get((long) worldRank << Integer.SIZE | index);
        return null == s ? "an unknown site" : s;
    }

    /** Reads the announcements that have arrived. */
    synchronized void drain() {
        try {
            while (true) {
                if (null == announcement) {
                    announcement = engine.irecvAllocating(Checker.WORLD_CHECK, P2pEngine.ANY, Checker.SITE_TAG,
                        Datatype.BYTE, worldView);
                }
                if (!announcement.isDone()) {
                    return;
                }
                final RecvRequest r = announcement;
                announcement = null;
                final int from = r.waitFor().source();
                try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(r.receivedBytes()))) {
                    final int index = in.readInt();
                    peers.put((long) from << Integer.SIZE | index, in.readUTF());
                }
            }
        } catch (final IOException | TuttiException e) {
            // An unreadable announcement, or the rank is closing: its sites stay unknown.
        }
    }

    private static byte[] encode(final int index, final String site) {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(index);
            out.writeUTF(site.length() > 1_000 ? site.substring(0, 1_000) : site);
        } catch (final IOException e) {
            throw new UncheckedIOException(e); // a byte array does not fail
        }
        return bytes.toByteArray();
    }
}
