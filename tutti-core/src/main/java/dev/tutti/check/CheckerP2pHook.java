package dev.tutti.check;

import dev.tutti.Datatype;
import dev.tutti.ErrorClass;
import dev.tutti.TuttiException;
import dev.tutti.internal.Errors;
import dev.tutti.p2p.AbstractRequest;
import dev.tutti.p2p.CommView;
import dev.tutti.p2p.P2pHook;
import dev.tutti.p2p.RecvRequest;
import dev.tutti.p2p.SiteCode;
import dev.tutti.p2p.SyncSend;
import dev.tutti.type.TypeCode;

/**
 * The checker's part in the point-to-point layer ({@link P2pHook}): each user send carries its call site's index in
 * its type code ({@link SiteTable}); each user receive keeps its own call site; a matched message whose type
 * signature does not fit the receive fails the receive with both sides' types, counts and call sites; and every
 * blocking wait is registered for deadlock detection ({@link WaitRegistry}); nonblocking requests are noted for the
 * leak report at close ({@link LeakTracker}), and a nonblocking send's buffer is watched until the user sees it
 * complete ({@link OwnedBuffers}); under {@code --check=strict} each blocking send is a synchronous send
 * ({@link SyncSend}), so that it returns only once its destination has received it, as a send of any size may
 * behave under another MPI: a program that needs the library to buffer its sends (each of two ranks sends to the
 * other before it receives) then blocks in the sends, and the deadlock detector reports it as any deadlock.
 *
 * <p>The signature rule, MPI's for a message of basic elements: the element types are equal, or one side is bytes
 * ({@link Datatype#BYTE}, which matches any storage), and then the message holds whole elements of the other side's
 * type; and the message fits the buffer (else it would be truncated). The engine's own rule (types equal or one
 * side bytes) stays in force with the checker off; the checker adds the partial element and the report naming both
 * calls. Stateless besides its tables; thread-safe.
 */
final class CheckerP2pHook implements P2pHook {
    private final SiteTable sites;
    private final WaitRegistry waits;
    private final LeakTracker leaks;
    private final java.util.function.BiConsumer<String, String> found;
    private final Runnable beforeLeaving;
    /** Whether every blocking send is unbuffered ({@code --check=strict}): sent as a synchronous send. */
    private final boolean strict;
    /** Takes a buffer written while a send owned it ({@link OwnedBuffers}). */
    private final java.util.function.BiConsumer<String, String> bufferInUse;
    /** The failure the rank's close ends with, or null ({@link Checker#verdict()}). */
    private final java.util.function.Supplier<TuttiException> verdict;

    CheckerP2pHook(final SiteTable sites, final WaitRegistry waits, final LeakTracker leaks,
        final java.util.function.BiConsumer<String, String> found, final Runnable beforeLeaving,
        final boolean strict, final java.util.function.BiConsumer<String, String> bufferInUse,
        final java.util.function.Supplier<TuttiException> verdict) {
        this.strict = strict;
        this.bufferInUse = bufferInUse;
        this.verdict = verdict;
        this.beforeLeaving = beforeLeaving;
        this.sites = sites;
        this.waits = waits;
        this.leaks = leaks;
        this.found = found;
    }

    @Override
    public void created(final AbstractRequest request) {
        leaks.created(request);
    }

    @Override
    public TuttiException closing() {
        beforeLeaving.run();
        leaks.report();
        return verdict.get();
    }

    @Override
    public dev.tutti.Request started(final AbstractRequest request, final java.lang.foreign.MemorySegment payload) {
        final String site = leaks.siteOf(request);
        final String what = "isend (" + request.describeWait() + ")";
        return new OwnedRequest(request, OwnedBuffers.watchSend(what, payload, null == site ? CallSite.capture()
            : site, bufferInUse));
    }

    @Override
    public int sendCode(final int destWorld, final Datatype type, final boolean blocking) {
        final int code = SiteCode.mark(type.ordinal(), sites.index(CallSite.capture(), destWorld));
        return strict && blocking ? SyncSend.sync(code) : code;
    }

    @Override
    public Object receiveSite() {
        return CallSite.capture();
    }

    @Override
    public TuttiException signature(final RecvRequest receive, final int source, final int tag, final int code,
        final long length, final Datatype expected, final long capacity, final Object site) {
        final Datatype sent = TypeCode.datatype(code);
        final boolean typesFit = sent == expected || Datatype.BYTE == expected
            || Datatype.BYTE == sent && 0 == length % Math.max(1, expected.sizeBytes());
        final boolean fits = capacity < 0 || length <= capacity;
        if (typesFit && fits) {
            return null;
        }
        final CommView view = receive.view();
        final String senderSite = SiteCode.isMarked(code) ? sites.peer(source, SiteCode.site(code)) : "unknown";
        final String has = count(length, sent) + " sent at " + senderSite;
        final String wants = "the receive at " + (null == site ? "unknown" : site) + " expects "
            + (capacity < 0 ? expected.toString() : "at most " + count(capacity, expected));
        final String what = !typesFit ? (Datatype.BYTE == sent ? ": the bytes are not whole elements"
            : ": the type signatures differ") : ": the message is longer than the buffer (truncated)";
        final TuttiException e = Errors.received(typesFit ? ErrorClass.TRUNCATE : ErrorClass.TYPE, "recv",
            null == view ? null : view.describe(), null == view ? source : view.toLocal(source), tag, has,
            wants + what);
        found.accept("type-signature", e.getMessage());
        return e;
    }

    /** @return {@code 4 x INT (16 bytes)} */
    private static String count(final long bytes, final Datatype type) {
        final int size = Math.max(1, type.sizeBytes());
        final String n = 0 == bytes % size ? String.valueOf(bytes / size) : bytes / size + "+";
        return n + " x " + type + " (" + bytes + " bytes)";
    }

    @Override
    public Object blocked(final AbstractRequest request) {
        return waits.add(request);
    }

    @Override
    public void polled(final AbstractRequest request, final long startNs) {
        waits.polled(request, startNs);
    }

    @Override
    public void unblocked(final Object token) {
        waits.remove(token);
    }
}
