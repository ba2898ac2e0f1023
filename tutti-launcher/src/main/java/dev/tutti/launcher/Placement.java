package dev.tutti.launcher;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Predicate;

/**
 * Which host each rank runs on, and whether that host is this machine.
 *
 * <p>Rule (mpirun's default {@code --map-by slot}): hosts are taken in order and each receives as many consecutive
 * ranks as it has slots; if ranks remain after a pass over all hosts, further passes follow (oversubscription).
 * Oversubscription is refused only when every host states its slots explicitly ({@code host:K} or
 * {@code slots=K}) and {@code oversubscribe} is false: stating slots is a promise about capacity, a bare host name
 * is not. With no hosts at all every rank runs on this machine.
 */
public final class Placement {
    private final String[] hostOfRank;
    private final boolean[] localRank;

    private Placement(final String[] hostOfRank, final boolean[] localRank) {
        this.hostOfRank = hostOfRank;
        this.localRank = localRank;
    }

    /**
     * Places {@code n} ranks.
     *
     * @param hosts         the hosts in placement order; empty means every rank on this machine
     * @param n             the number of ranks, at least 1
     * @param oversubscribe whether more ranks than explicit slots are allowed
     * @param isLocal       tells whether a host name denotes this machine
     * @return the placement
     * @throws InvalidLaunchException if {@code n < 1}, or oversubscription is refused (the message names the slot
     *                                count and the hosts)
     */
    public static Placement of(final List<Host> hosts, final int n, final boolean oversubscribe,
        final Predicate<String> isLocal) {
        if (n < 1) {
            throw new InvalidLaunchException("ranks=" + n + ", expected at least 1 (-n)");
        }
        final String[] hostOfRank = new String[n];
        final boolean[] local = new boolean[n];
        if (hosts.isEmpty()) {
            Arrays.fill(hostOfRank, "localhost");
            Arrays.fill(local, true);
            return new Placement(hostOfRank, local);
        }
        long totalSlots = 0;
        boolean allExplicit = true;
        for (final Host h : hosts) {
            totalSlots += h.slots();
            allExplicit &= h.explicitSlots();
        }
        if (n > totalSlots && allExplicit && !oversubscribe) {
            throw new InvalidLaunchException("ranks=" + n + " but the hosts give only " + totalSlots + " slots ("
                + String.join(", ", hosts.stream().map(Host::toString).toList())
                + "); add hosts or slots, or allow oversubscription (--oversubscribe)");
        }
        final boolean[] hostLocal = new boolean[hosts.size()];
        for (int h = 0; h < hosts.size(); h++) {
            hostLocal[h] = isLocal.test(hosts.get(h).name());
        }
        int rank = 0;
        while (rank < n) {
            for (int h = 0; h < hosts.size() && rank < n; h++) {
                for (int s = 0; s < hosts.get(h).slots() && rank < n; s++) {
                    hostOfRank[rank] = hosts.get(h).name();
                    local[rank] = hostLocal[h];
                    rank++;
                }
            }
        }
        return new Placement(hostOfRank, local);
    }

    /** @return the number of ranks placed */
    public int size() {
        return hostOfRank.length;
    }

    /**
     * The host of a rank.
     *
     * @param rank the rank
     * @return its host name as given
     */
    public String host(final int rank) {
        return hostOfRank[rank];
    }

    /**
     * Whether a rank runs on this machine (started as a local process rather than over ssh).
     *
     * @param rank the rank
     * @return true if local
     */
    public boolean isLocal(final int rank) {
        return localRank[rank];
    }

    /** @return whether any rank runs on another host */
    public boolean anyRemote() {
        for (final boolean l : localRank) {
            if (!l) {
                return true;
            }
        }
        return false;
    }

    /** @return the host of each rank, in rank order */
    public List<String> hosts() {
        return List.of(hostOfRank);
    }

    @Override
    public String toString() {
        final List<String> parts = new ArrayList<>();
        for (int r = 0; r < hostOfRank.length; r++) {
            parts.add(r + "@" + hostOfRank[r] + (localRank[r] ? "(local)" : ""));
        }
        return "Placement" + parts;
    }
}
