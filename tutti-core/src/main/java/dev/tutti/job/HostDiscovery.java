package dev.tutti.job;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.internal.Settings;
import dev.tutti.p2p.RankLayout;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Learns on which host each rank of a launched job runs, once, when the world is made, for the node-aware
 * collectives ({@code dev.tutti.coll.HostMap}).
 *
 * <p>Implementation notes. A rank's host is known locally from its transport: the ranks it reaches through shared
 * memory are exactly the ranks of its host (the shm file is per host, and the job's fence has passed). If every
 * rank shares memory with this one, the job is on one host, and every rank sees the same (sharing is symmetric), so
 * all ranks skip the exchange together. Otherwise each rank contributes a key, exchanged by one allgather of two
 * longs per rank on the world (before the program sees it, so every rank issues it at the same place in the
 * collective order): the lowest rank it shares memory with, or, with no shared-memory peer (a host of one rank, or
 * {@code tutti.transport=tcp}), a 64-bit hash (FNV-1a) of its host id ({@code tutti.host.id}, else the host name).
 * Equal keys are one host; hosts are numbered in order of their lowest rank. The same keys give each rank's
 * direct-memory group (the lowest rank it shares memory with; itself over tcp alone), which the choice of algorithms
 * reads. A fake host layout ({@code tutti.host.layout}) replaces the hosts found, not the groups.
 */
public final class HostDiscovery {
    private HostDiscovery() {
    }

    /**
     * Returns the host and the direct-memory group of each world rank.
     *
     * @param world        the world communicator, not yet handed to the program
     * @param fake         a fake host layout, or null
     * @param sharesMemory per world rank, whether this rank reaches it by shared memory (itself included)
     * @return the layout, for {@link dev.tutti.p2p.P2pEngine#layout(RankLayout)}
     */
    public static RankLayout of(final Communicator world, final int[] fake, final boolean[] sharesMemory) {
        final int size = world.size();
        int lowest = -1;
        int peers = 0;
        for (int r = 0; r < size; r++) {
            if (sharesMemory[r]) {
                lowest = -1 == lowest ? r : lowest;
                peers++;
            }
        }
        if (peers == size) {
            return new RankLayout(fake, null);
        }
        final long[] mine = peers > 1 ? new long[] {0, lowest} : new long[] {1, fnv(hostId())};
        final long[] all = new long[2 * size];
        world.allgather(Buf.of(mine), Buf.of(all));
        final Map<List<Long>, Integer> index = new HashMap<>();
        final int[] host = new int[size];
        final int[] direct = new int[size];
        for (int r = 0; r < size; r++) {
            host[r] = index.computeIfAbsent(List.of(all[2 * r], all[2 * r + 1]), k -> index.size());
            direct[r] = 0 == all[2 * r] ? (int) all[2 * r + 1] : r;
        }
        return new RankLayout(null != fake ? fake : 1 == index.size() ? null : host, direct);
    }

    /** @return this process's host id: the setting {@code tutti.host.id}, else the host name */
    public static String hostId() {
        final String configured = Settings.HOST_ID.text();
        return configured.isEmpty() ? HostName.NAME : configured;
    }

    /** The host name, looked up once (the lookup may be slow). */
    private static final class HostName {
        static final String NAME = lookup();

        private HostName() {
        }

        private static String lookup() {
            try {
                return InetAddress.getLocalHost().getHostName();
            } catch (final UnknownHostException e) {
                final String env = System.getenv("HOSTNAME");
                return null == env ? "localhost" : env;
            }
        }
    }

    private static long fnv(final String s) {
        long h = 0xcbf29ce484222325L;
        for (final byte b : s.getBytes(StandardCharsets.UTF_8)) {
            h = (h ^ (b & 0xff)) * 0x100000001b3L;
        }
        return h;
    }
}
