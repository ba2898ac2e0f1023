package dev.tutti.coll;

import dev.tutti.trace.Trace;

import java.util.Locale;

/**
 * What a collective's trace event records, read from its call's descriptor: made only when a recording takes the
 * event ({@link Trace}), after the call, whose descriptor still holds it then (a thread's reused descriptor is
 * refilled only by its next call).
 *
 * @param call the call
 * @param road how its data moved: {@code messages}, {@code slots} for a persistent run through shared memory, or
 *             what {@link CollDone#road} names
 */
public record CollTrace(CollCall call, String road) implements Trace.Collective {
    /** Road of a run whose data goes by messages. */
    public static final String MESSAGES = "messages";
    /** Road of a persistent run whose messages go through slots of memory shared with its peers. */
    public static final String SLOTS = "slots";
    /** Road of a persistent run through its communicator's on-host region ({@code coll.host}). */
    public static final String REGION = "region";
    /** Each variant's name in events, by ordinal: made once, not per event. */
    private static final String[] VARIANTS = variantNames();

    private static String[] variantNames() {
        final CollCall.Variant[] v = CollCall.Variant.values();
        final String[] names = new String[v.length];
        for (int i = 0; i < v.length; i++) {
            names[i] = v[i].name().toLowerCase(Locale.ROOT);
        }
        return names;
    }

    @Override
    public String op() {
        return call.kind().mpiName();
    }

    @Override
    public String variant() {
        return VARIANTS[call.variant().ordinal()];
    }

    @Override
    public int worldRank() {
        return call.comm().engine().worldRank();
    }

    @Override
    public String comm() {
        return call.comm().name();
    }

    @Override
    public int context() {
        return call.comm().context();
    }

    @Override
    public int size() {
        return call.comm().size();
    }

    @Override
    public int root() {
        return call.root();
    }

    @Override
    public long bytes() {
        return call.selectBytes();
    }

    @Override
    public String algorithm() {
        final AlgorithmId id = call.algorithm();
        return null != id ? id.shortName() : call.isInter() ? "inter" : "";
    }
}
