package dev.tutti.bench.osu;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The registry of benchmark operations by name: the point-to-point ones and every MPI collective, named as in
 * MPI in lower case. Adding an operation is one line here and one class (or one constant of a family's
 * {@code Kind}).
 */
public final class Benchmarks {
    private static final Map<String, Supplier<OsuBenchmark>> REGISTRY = registry();

    private Benchmarks() {
    }

    private static Map<String, Supplier<OsuBenchmark>> registry() {
        final Map<String, Supplier<OsuBenchmark>> m = new LinkedHashMap<>();
        m.put(PingPong.OP, PingPong::new);
        m.put(Bandwidth.OP, Bandwidth::new);
        m.put(Barrier.OP, Barrier::new);
        m.put(Bcast.OP, Bcast::new);
        for (final GatherScatter.Kind k : GatherScatter.Kind.values()) {
            m.put(k.op(), () -> new GatherScatter(k));
        }
        m.put(Allgather.OP, () -> new Allgather(false));
        m.put(Allgather.OP_V, () -> new Allgather(true));
        for (final Alltoall.Kind k : Alltoall.Kind.values()) {
            m.put(k.op(), () -> new Alltoall(k));
        }
        m.put(ChannelAlltoall.OP, ChannelAlltoall::new);
        for (final Reduction.Kind k : Reduction.Kind.values()) {
            m.put(k.op(), () -> new Reduction(k));
        }
        m.put(MpiPingPong.NAME, MpiPingPong::new);
        m.put(MpiAllreduce.NAME, MpiAllreduce::new);
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
            throw new IllegalArgumentException("op=" + op + " is not a benchmark, expected one of "
                + String.join(", ", REGISTRY.keySet()));
        }
        return s.get();
    }
}
