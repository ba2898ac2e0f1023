package dev.tutti.bench.osu;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The registry of benchmark operations by name. Adding an operation is one line here and one class.
 */
public final class Benchmarks {
    /** Collectives of the next milestone: named here so the error message can say they are not available yet. */
    private static final List<String> PLANNED = List.of("barrier", "bcast", "reduce", "allreduce", "allgather",
        "alltoall", "gather", "scatter", "reduce_scatter", "scan");

    private static final Map<String, Supplier<OsuBenchmark>> REGISTRY = registry();

    private Benchmarks() {
    }

    private static Map<String, Supplier<OsuBenchmark>> registry() {
        final Map<String, Supplier<OsuBenchmark>> m = new LinkedHashMap<>();
        m.put(PingPong.OP, PingPong::new);
        m.put(Bandwidth.OP, Bandwidth::new);
        return Collections.unmodifiableMap(m);
    }

    /** @return the names of the available operations, in registration order */
    public static Set<String> names() {
        return REGISTRY.keySet();
    }

    /**
     * Creates the benchmark of an operation (one per rank: it owns the rank's buffers).
     *
     * @param op the operation name
     * @return a new benchmark
     * @throws IllegalArgumentException if no benchmark has that name
     */
    public static OsuBenchmark create(final String op) {
        final Supplier<OsuBenchmark> s = REGISTRY.get(op);
        if (null == s) {
            final String planned = PLANNED.contains(op) ? " (" + op + " comes with the collectives)" : "";
            throw new IllegalArgumentException("op=" + op + " is not a benchmark" + planned + ", expected one of "
                + String.join(", ", REGISTRY.keySet()));
        }
        return s.get();
    }
}
