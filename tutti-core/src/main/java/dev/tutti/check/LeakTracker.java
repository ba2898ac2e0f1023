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
 * nonblocking sends and receives that never completed, the messages that arrived and were never received (their
 * senders' call sites travel with them, {@link SiteCode}), and what the collective layer reports as opened
 * ({@link dev.tutti.coll.CollHook#opened}): communicators never freed, persistent requests left active or never
 * freed, tagged handles never ended; and, noted by the checker, nonblocking collectives never waited or tested to
 * completion. Reported at close ({@link #report}), on the rank's standard error, one line per leak.
 *
 * <p>Implementation notes. Concurrent maps from each started request, and each opened resource, to its call site;
 * completed or released ones are dropped every {@value #PURGE_EVERY} starts, so the maps hold about what is in
 * flight. The opened resources are keyed by identity.
 */
final class LeakTracker {
    private static final int PURGE_EVERY = 1024;

    private final P2pEngine engine;
    private final SiteTable sites;
    private final Map<AbstractRequest, String> started = new ConcurrentHashMap<>();
    private final AtomicInteger sincePurge = new AtomicInteger();
    private final Map<Object, Held> held = java.util.Collections.synchronizedMap(new java.util.IdentityHashMap<>());

    /**
     * An opened resource: what its leak is called, what it is, whether it was released, where it was made (or
     * started: {@code made} says which).
     */
    private record Held(java.util.function.Supplier<String> leak, java.util.function.Supplier<String> what,
        java.util.function.BooleanSupplier released, String made, String site) {
    }

    private final java.util.function.BiConsumer<String, String> found;

    LeakTracker(final P2pEngine engine, final SiteTable sites,
        final java.util.function.BiConsumer<String, String> found) {
        this.engine = engine;
        this.sites = sites;
        this.found = found;
    }

    void created(final AbstractRequest request) {
        started.put(request, CallSite.capture());
        purgeNow();
    }

    /**
     * Notes a resource the program must release ({@link dev.tutti.coll.CollHook#opened}).
     *
     * @param leak     what its leak is called
     * @param resource the resource
     * @param what     describes it
     * @param released whether it has been released
     */
    void opened(final String leak, final Object resource, final java.util.function.Supplier<String> what,
        final java.util.function.BooleanSupplier released) {
        opened(() -> leak, resource, what, released, "created", CallSite.capture());
    }

    /**
     * Notes a resource the program must release, whose leak's name may change until close (a persistent request
     * left active), made at a known call site.
     *
     * @param leak     what its leak is called, read at close
     * @param resource the resource
     * @param what     describes it
     * @param released whether it has been released
     * @param made     how it was made, for the report ({@code created}, {@code started})
     * @param site     where
     */
    void opened(final java.util.function.Supplier<String> leak, final Object resource,
        final java.util.function.Supplier<String> what, final java.util.function.BooleanSupplier released,
        final String made, final String site) {
        held.put(resource, new Held(leak, what, released, made, site));
        purgeNow();
    }

    /**
     * @param request a started request ({@link #created})
     * @return its call site, or null if it is not noted (or was purged, completed)
     */
    String siteOf(final AbstractRequest request) {
        return started.get(request);
    }

    private void purgeNow() {
        if (sincePurge.incrementAndGet() >= PURGE_EVERY) {
            sincePurge.set(0);
            started.keySet().removeIf(AbstractRequest::isDone);
            synchronized (held) {
                held.values().removeIf(h -> h.released().getAsBoolean());
            }
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
        synchronized (held) {
            for (final Held h : held.values()) {
                if (!h.released().getAsBoolean()) {
                    out.add(h.leak().get() + ": " + h.what().get() + ", " + h.made() + " at " + h.site());
                }
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

    /** Prints the leaks, if any, with the checker's report ({@link Reports#print}). */
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
        Reports.print(sb.toString());
    }
}
