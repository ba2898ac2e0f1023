package dev.tutti.coll;

import dev.tutti.testkit.TcpProcesses;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Node-aware collectives in jobs of real processes: a job learns at {@link Tutti#init()} on which host each rank
 * runs (by shared memory, else by host id, exchanged once) or takes a fake layout from the environment, and its
 * collectives then run hierarchically and give the right results.
 */
@Tag("process")
@Timeout(120)
class HierarchicalLaunchTest {
    private static final int N = 4;

    /** Runs the job and expects each rank to print {@code hosts}, as its splitType(SHARED) group the world ranks of
     *  its host in {@code hosts} (all ranks when "none"), and whether the world and that group span a network. */
    private static void expect(final String transport, final BiConsumer<Integer, Map<String, String>> env,
        final String hosts, final String network) throws Exception {
        final List<TcpProcesses.Rank> ranks = TcpProcesses.run(N, "hier-test", List.of(), HierarchicalMain.class,
            List.of(), 100, transport, env);
        for (int r = 0; r < N; r++) {
            final String out = ranks.get(r).output();
            assertTrue(ranks.get(r).ended(), "rank " + r + " did not finish: " + out);
            assertEquals(0, ranks.get(r).exit(), "rank " + r + " failed: " + out);
            assertTrue(out.contains("rank " + r + " of " + N + " ok hosts=" + hosts + " shared=" + shared(hosts, r)
                + " network=" + network), out);
        }
    }

    @Test
    void shouldExchangeHostIdsOverTcpAndRunHierarchically() throws Exception {
        // Over tcp no rank shares memory, so the ranks exchange their host ids: two per host here. Every message,
        // within a host too, crosses the network, and the algorithms are chosen for it.
        expect("tcp", (r, env) -> env.put("TUTTI_HOST_ID", r < 2 ? "node-a" : "node-b"), "[0, 1] [2, 3]",
            "true/true");
    }

    @Test
    void shouldChooseForTheNetworkWhenRanksOfOneHostTalkOverTcp() throws Exception {
        // One host id: one host, flat algorithms, but those for a network's costs.
        expect("tcp", (r, env) -> env.put("TUTTI_HOST_ID", "node-a"), "none", "true/true");
    }

    @Test
    void shouldTakeTheRanksSharingMemoryAsOneHost() throws Exception {
        // Every rank shares memory with every other: one host whatever the host ids say; no exchange.
        expect("auto", (r, env) -> env.put("TUTTI_HOST_ID", "node-" + r), "none", "false/false");
    }

    @Test
    void shouldTakeAFakeLayoutFromTheEnvironment() throws Exception {
        // Fake hosts: the ranks still share memory, so nothing crosses a network.
        expect("auto", (r, env) -> env.put("TUTTI_HOST_LAYOUT", "cyclic:2"), "[0, 2] [1, 3]", "false/false");
    }

    /** The host of rank r in a host map's text ("[0, 2] [1, 3]"), or every rank for "none". */
    private static String shared(final String hosts, final int r) {
        if ("none".equals(hosts)) {
            return "[0, 1, 2, 3]";
        }
        for (final String host : hosts.split("(?<=]) ")) {
            if (host.matches(".*[\\[ ]" + r + "[,\\]].*")) {
                return host;
            }
        }
        throw new AssertionError("rank " + r + " is on no host of " + hosts);
    }
}
