package dev.tutti.check;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The wait-for graph of a job whose live ranks are all blocked, and its report. A node per rank; a blocked wait of
 * rank r adds edges from r to the ranks it waits for: to each of them (AND: a receive from one source, a send, a
 * collective's missing peers) or to any one of them (OR: a wildcard receive, which any live rank could satisfy).
 * Ranks that have left the job are sinks that release nothing.
 *
 * <p>Algorithm. Progress is possible when some rank is releasable: a rank that is not blocked, or whose waits
 * (AND) all have releasable targets or (OR) have one (MUST's AND/OR model, computed as the least fixpoint from the
 * ranks that are not blocked). The detector builds the graph only from snapshots in which every live rank is
 * blocked, so the fixpoint is empty and the graph serves to explain: a cycle found by depth-first search along the
 * edges between live ranks, or else the departed rank that a wait depends on (the missing partner).
 */
final class WaitGraph {
    private final Map<Integer, RankState> states = new TreeMap<>();
    private final Set<Integer> departed;
    private final Map<Integer, Set<Integer>> edges = new TreeMap<>();

    /**
     * @param blocked  the snapshot of every live rank
     * @param departed the world ranks that have left the job
     */
    WaitGraph(final List<RankState> blocked, final Set<Integer> departed) {
        this.departed = new TreeSet<>(departed);
        for (final RankState s : blocked) {
            states.put(s.rank(), s);
        }
        for (final RankState s : blocked) {
            final Set<Integer> to = new TreeSet<>();
            for (final RankState.Blocked b : s.waits()) {
                if (null == b.on()) {
                    to.addAll(states.keySet());
                    to.remove(s.rank());
                } else {
                    for (final int r : b.on()) {
                        to.add(r);
                    }
                }
            }
            edges.put(s.rank(), to);
        }
    }

    /** @return whether some rank can still make progress (see the class notes) */
    boolean progressPossible() {
        final Set<Integer> releasable = new TreeSet<>();
        for (final RankState s : states.values()) {
            if (s.waits().isEmpty()) {
                releasable.add(s.rank());
            }
        }
        boolean changed = true;
        while (changed) {
            changed = false;
            for (final RankState s : states.values()) {
                if (!releasable.contains(s.rank()) && releasable(s, releasable)) {
                    releasable.add(s.rank());
                    changed = true;
                }
            }
        }
        return !releasable.isEmpty();
    }

    private boolean releasable(final RankState s, final Set<Integer> releasable) {
        for (final RankState.Blocked b : s.waits()) {
            if (null == b.on()) {
                if (releasable.stream().noneMatch(r -> r != s.rank())) {
                    return false;
                }
            } else {
                for (final int r : b.on()) {
                    if (!releasable.contains(r)) {
                        return false;
                    }
                }
            }
        }
        return true;
    }

    /** @return a cycle of ranks (first repeated at the end), or null if there is none */
    List<Integer> cycle() {
        final Map<Integer, Integer> color = new TreeMap<>();
        for (final int start : edges.keySet()) {
            final List<Integer> path = new ArrayList<>();
            final List<Integer> found = dfs(start, color, path);
            if (null != found) {
                return found;
            }
        }
        return null;
    }

    private List<Integer> dfs(final int node, final Map<Integer, Integer> color, final List<Integer> path) {
        final int c = color.getOrDefault(node, 0);
        if (1 == c) {
            final List<Integer> cyc = new ArrayList<>(path.subList(path.indexOf(node), path.size()));
            cyc.add(node);
            return cyc;
        }
        if (2 == c || !edges.containsKey(node)) {
            return null;
        }
        color.put(node, 1);
        path.add(node);
        for (final int next : edges.get(node)) {
            final List<Integer> found = dfs(next, color, path);
            if (null != found) {
                return found;
            }
        }
        path.removeLast();
        color.put(node, 2);
        return null;
    }

    /**
     * The report: each rank's blocked call with its arguments and call site, ranks that wait in the same call at
     * the same place together, then the cycle or the missing partner.
     *
     * @param thresholdMs the checker's threshold
     * @return the text
     */
    String report(final long thresholdMs) {
        final Map<String, List<Integer>> byCall = new LinkedHashMap<>();
        for (final RankState s : states.values()) {
            final StringBuilder calls = new StringBuilder();
            for (final RankState.Blocked b : s.waits()) {
                calls.append(calls.isEmpty() ? "" : ", and in ").append(normalize(b.text()));
            }
            byCall.computeIfAbsent(calls.toString(), k -> new ArrayList<>()).add(s.rank());
        }
        final StringBuilder sb = new StringBuilder("deadlock: every live rank has been blocked for over ")
            .append(thresholdMs).append(" ms and none can proceed: ");
        boolean first = true;
        for (final Map.Entry<String, List<Integer>> e : byCall.entrySet()) {
            sb.append(first ? "" : "; ").append(ranks(e.getValue())).append(1 == e.getValue().size() ? " waits in "
                : " wait in ").append(e.getKey());
            first = false;
        }
        final List<Integer> cyc = cycle();
        if (null != cyc) {
            sb.append("; cycle: ");
            for (int i = 0; i < cyc.size(); i++) {
                sb.append(0 == i ? "" : " -> ").append("rank ").append(cyc.get(i));
            }
        } else {
            for (final Map.Entry<Integer, Set<Integer>> e : edges.entrySet()) {
                for (final int to : e.getValue()) {
                    if (departed.contains(to) || !states.containsKey(to)) {
                        sb.append("; missing partner: rank ").append(e.getKey()).append(" waits for rank ")
                            .append(to).append(", which has left the job");
                        return sb.toString();
                    }
                }
            }
        }
        if (!departed.isEmpty()) {
            sb.append("; ").append(ranks(new ArrayList<>(departed))).append(1 == departed.size() ? " has" : " have")
                .append(" left the job");
        }
        return sb.toString();
    }

    /** Turns {@code (comm=WORLD, rank=2)} into {@code on 'WORLD'}, so that ranks in the same call group together. */
    private static String normalize(final String text) {
        return text.replaceAll("\\(comm=([^,)]+)(, rank=\\d+)?\\)", "on '$1'");
    }

    /** @return {@code rank 3}, {@code ranks 0-2}, {@code ranks 0, 2, 5-7} */
    static String ranks(final List<Integer> rs) {
        if (1 == rs.size()) {
            return "rank " + rs.getFirst();
        }
        final StringBuilder sb = new StringBuilder("ranks ");
        int i = 0;
        while (i < rs.size()) {
            int j = i;
            while (j + 1 < rs.size() && rs.get(j + 1) == rs.get(j) + 1) {
                j++;
            }
            sb.append(0 == i ? "" : ", ").append(rs.get(i));
            if (j > i) {
                sb.append(j > i + 1 ? "-" : ", ").append(rs.get(j));
            }
            i = j + 1;
        }
        return sb.toString();
    }
}
