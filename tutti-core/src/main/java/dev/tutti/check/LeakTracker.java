package dev.tutti.check;

import dev.tutti.Datatype;
import dev.tutti.p2p.AbstractRequest;
import dev.tutti.p2p.P2pEngine;
import dev.tutti.p2p.SiteCode;
import dev.tutti.transport.Inbound;
import dev.tutti.type.TypeCode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What a rank leaves behind when it is done with the job, with the call sites that created it: the user's
 * nonblocking sends and receives that never completed, and the messages that arrived and were never received
 * (their senders' call sites travel with them, {@link SiteCode}). Reported at close ({@link #report}), on the
 * rank's standard error, one line per leak.
 *
 * <p>Implementation notes. A concurrent map from each started request to its call site; completed requests are
 * dropped every {@value #PURGE_EVERY} starts, so the map holds about the requests in flight. Communicators and
 * tagged handles are not tracked yet (their creation is in the api layer).
 */
final class LeakTracker {
    private static final int PURGE_EVERY = 1024;

    private final P2pEngine engine;
    private final SiteTable sites;
    private final Map<AbstractRequest, String> started = new ConcurrentHashMap<>();
    private final AtomicInteger sincePurge = new AtomicInteger();

    private final java.util.function.BiConsumer<String, String> found;

    LeakTracker(final P2pEngine engine, final SiteTable sites,
        final java.util.function.BiConsumer<String, String> found) {
        this.engine = engine;
        this.sites = sites;
        this.found = found;
    }

    void created(final AbstractRequest request) {
        started.put(request, CallSite.capture());
        if (sincePurge.incrementAndGet() >= PURGE_EVERY) {
            sincePurge.set(0);
            started.keySet().removeIf(AbstractRequest::isDone);
        }
    }

    /** @return one line per leak, empty if the rank leaves nothing behind */
    List<String> leaks() {
        final List<String> out = new ArrayList<>();
        for (final Map.Entry<AbstractRequest, String> e : started.entrySet()) {
            if (!e.getKey().isDone()) {
                out.add("request never completed: " + e.getKey().describeWait() + ", started at " + e.getValue());
            }
        }
        for (final Inbound m : engine.unreceived()) {
            if (SiteCode.isMarked(m.typeCode)) {
                final Datatype type = TypeCode.datatype(m.typeCode);
                out.add("message never received: from world rank " + m.source + ", tag " + m.tag + ", "
                    + m.lengthBytes / Math.max(1, type.sizeBytes()) + " x " + type + " (" + m.lengthBytes
                    + " bytes), sent at " + sites.peer(m.source, SiteCode.site(m.typeCode)));
            }
        }
        out.sort(null);
        return out;
    }

    /** Prints the leaks, if any, on the standard error. */
    void report() {
        final List<String> leaks = leaks();
        if (leaks.isEmpty()) {
            return;
        }
        final StringBuilder sb = new StringBuilder("tutti check: rank ").append(engine.worldRank())
            .append(" leaves behind at close:");
        for (final String l : leaks) {
            sb.append("\n  ").append(l);
            found.accept("leak", l);
        }
        System.err.println(sb);
    }
}
