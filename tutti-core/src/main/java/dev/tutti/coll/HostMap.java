package dev.tutti.coll;

import dev.tutti.internal.Errors;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Which ranks of a communicator share a host: the host groups (each in increasing rank order), their leaders (the
 * lowest rank of each host) and this rank's place, for the node-aware (hierarchical) algorithms.
 *
 * <p>Implementation notes. A communicator's map is derived, with no communication, from the job's host index of
 * each world rank ({@link dev.tutti.p2p.P2pEngine#layout()}), which every rank holds identically; so every
 * rank of a communicator derives the same map. Hosts are numbered in the order of their lowest rank here, so
 * leaders are in increasing rank order. The map is {@link #contiguous()} when each host's ranks form one range of
 * consecutive ranks: then the hierarchy keeps MPI's rank order of operands (reduce within each host in rank
 * order, then across hosts in host order = rank order), and gathered blocks need no reordering. Immutable.
 */
public final class HostMap {
    private final int[] hostOf;
    private final int[][] members;
    private final int[] indexInHost;
    private final boolean contiguous;

    private HostMap(final int[] hostOf) {
        this.hostOf = hostOf;
        int hosts = 0;
        for (final int h : hostOf) {
            hosts = Math.max(hosts, h + 1);
        }
        final int[] sizes = new int[hosts];
        for (final int h : hostOf) {
            sizes[h]++;
        }
        this.members = new int[hosts][];
        for (int h = 0; h < hosts; h++) {
            members[h] = new int[sizes[h]];
        }
        this.indexInHost = new int[hostOf.length];
        final int[] fill = new int[hosts];
        boolean runs = true;
        for (int r = 0; r < hostOf.length; r++) {
            final int h = hostOf[r];
            runs &= 0 == fill[h] || members[h][fill[h] - 1] == r - 1;
            indexInHost[r] = fill[h];
            members[h][fill[h]++] = r;
        }
        this.contiguous = runs;
    }

    /**
     * Returns the map of a group, or null when the hierarchy has nothing to do: the group is on one host, or no
     * host has more than one of its ranks.
     *
     * @param hostOfWorldRank the job's host index of each world rank, or null (one host)
     * @param worldRanks      the world rank of each group rank, or null for the world in order
     * @param size            the group size
     * @return the map, or null
     */
    public static HostMap of(final int[] hostOfWorldRank, final int[] worldRanks, final int size) {
        if (null == hostOfWorldRank || size < 3) {
            return null; // one host, or at most two ranks: on one host, or one on each
        }
        final int[] hostOf = new int[size];
        final Map<Integer, Integer> renumber = new HashMap<>();
        for (int r = 0; r < size; r++) {
            final int h = hostOfWorldRank[null == worldRanks ? r : worldRanks[r]];
            hostOf[r] = renumber.computeIfAbsent(h, k -> renumber.size());
        }
        final int hosts = renumber.size();
        return 1 == hosts || hosts == size ? null : new HostMap(hostOf);
    }

    /**
     * Returns the map of a group all on one host (what the hierarchical algorithms use when forced on such a group).
     *
     * @param size the group size
     * @return the map
     */
    public static HostMap single(final int size) {
        return new HostMap(new int[size]);
    }

    /**
     * Returns a map from the host of each rank, as given (for tests and tools).
     *
     * @param hostOf the host of each rank: any non-negative numbers
     * @return the map, hosts renumbered in order of their lowest rank
     */
    public static HostMap ofHosts(final int[] hostOf) {
        final int[] renumbered = new int[hostOf.length];
        final Map<Integer, Integer> renumber = new HashMap<>();
        for (int r = 0; r < hostOf.length; r++) {
            renumbered[r] = renumber.computeIfAbsent(hostOf[r], k -> renumber.size());
        }
        return new HostMap(renumbered);
    }

    /** @return the number of hosts */
    public int hosts() {
        return members.length;
    }

    /**
     * @param rank a rank of the group
     * @return its host
     */
    public int hostOf(final int rank) {
        return hostOf[rank];
    }

    /**
     * @param host a host
     * @return its ranks, in increasing order (do not modify)
     */
    public int[] members(final int host) {
        return members[host];
    }

    /**
     * @param rank a rank of the group
     * @return its index among its host's ranks (0: the leader)
     */
    public int indexInHost(final int rank) {
        return indexInHost[rank];
    }

    /**
     * @param host a host
     * @return its leader, its lowest rank
     */
    public int leader(final int host) {
        return members[host][0];
    }

    /** @return whether every host's ranks are consecutive ranks (see the class's notes) */
    public boolean contiguous() {
        return contiguous;
    }

    /**
     * Parses a fake host layout (the setting {@code tutti.host.layout}): {@code blocks:N}, {@code cyclic:N} or one
     * host label per rank, comma-separated.
     *
     * @param spec the layout, or null or blank for none
     * @param size the job size
     * @return the host index of each world rank (hosts numbered in order of their lowest rank), or null for none
     * @throws IllegalArgumentException naming the layout and what was expected
     */
    public static int[] layout(final String spec, final int size) {
        if (null == spec || spec.isBlank()) {
            return null;
        }
        final String s = spec.trim().toLowerCase(Locale.ROOT);
        final int[] host = new int[size];
        if (s.startsWith("blocks:") || s.startsWith("cyclic:")) {
            final int n = hostCount(spec, s.substring(s.indexOf(':') + 1));
            for (int r = 0; r < size; r++) {
                host[r] = s.startsWith("blocks:") ? (int) ((long) r * n / size) : r % n;
            }
        } else {
            final String[] labels = spec.split(",", -1);
            if (labels.length != size) {
                throw Errors.refused("host layout '" + spec + "' has " + labels.length + " labels",
                    "one per rank (" + size + "), blocks:N or cyclic:N");
            }
            final List<String> seen = new ArrayList<>();
            for (int r = 0; r < size; r++) {
                final String label = labels[r].trim();
                if (label.isEmpty()) {
                    throw Errors.refused("host layout '" + spec + "' has an empty label for rank " + r,
                        "a host label per rank");
                }
                if (!seen.contains(label)) {
                    seen.add(label);
                }
                host[r] = seen.indexOf(label);
            }
        }
        return ofHosts(host).hostOf.clone();
    }

    private static int hostCount(final String spec, final String n) {
        try {
            final int v = Integer.parseInt(n.trim());
            if (v >= 1) {
                return v;
            }
        } catch (final NumberFormatException e) {
            // reported below
        }
        throw Errors.refused("host layout '" + spec + "' has no host count >= 1 after ':'",
            "blocks:N, cyclic:N or a host label per rank");
    }

    @Override
    public String toString() {
        final StringBuilder b = new StringBuilder();
        for (final int[] m : members) {
            b.append(b.isEmpty() ? "" : " ").append(java.util.Arrays.toString(m));
        }
        return b.toString();
    }
}
