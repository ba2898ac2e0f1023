package mpi;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Intercommunicator;
import dev.tutti.ObjectRequest;

import java.lang.foreign.MemorySegment;
import java.nio.Buffer;
import java.util.function.Supplier;

/**
 * The machinery under {@link Comm}, kept out of the public class so that it holds only Open MPI's methods: the
 * handle of the calling rank's Tutti communicator (resolved per call for the predefined world and self, or once
 * from a pending {@code iDup}), the error-handler routing every call goes through, and the direct-buffer checks of
 * the nonblocking forms.
 */
abstract class CommBase {

    static final int DERIVED = 0;
    static final int WORLD = 1;
    static final int SELF = 2;

    /** A call that throws only unchecked exceptions. */
    @FunctionalInterface
    interface Body {
        void run();
    }

    final int predefined;
    volatile dev.tutti.Comm handle;
    volatile ObjectRequest<? extends dev.tutti.Comm> pending;
    final CommState own;
    volatile Info info;
    final Request request;

    CommBase(final int predefined) {
        this.predefined = predefined;
        this.own = null;
        this.request = Request.nullRequest();
    }

    CommBase(final dev.tutti.Comm handle, final CommState state) {
        this.predefined = DERIVED;
        this.handle = handle;
        this.own = state;
        this.request = Request.nullRequest();
    }

    CommBase(final ObjectRequest<? extends dev.tutti.Comm> pending, final CommState state) {
        this.predefined = DERIVED;
        this.pending = pending;
        this.own = state;
        this.request = new Request((Comm) this, pending, null);
    }

    /**
     * Wraps a Tutti communicator in the mpi class of its kind.
     *
     * @param c     the communicator, or null for a null communicator
     * @param state its error handler, name and attributes
     * @return an {@link Intercomm} or an {@link Intracomm}
     */
    static Comm wrap(final dev.tutti.Comm c, final CommState state) {
        return c instanceof Intercommunicator ? new Intercomm(c, state) : new Intracomm(c, state);
    }

    // ------------------------------------------------------------------------------------ internals

    /**
     * Returns the Tutti communicator of the calling rank.
     *
     * @return the communicator
     * @throws MpiErrors.MpiError ERR_COMM if this communicator is null or freed
     */
    final dev.tutti.Comm tc() {
        if (WORLD == predefined || SELF == predefined) {
            final Env e = Env.current();
            return WORLD == predefined ? e.world() : e.self();
        }
        return derived();
    }

    /**
     * Returns the Tutti communicator of the calling rank whose state {@link Env#check()} returned (one thread-local
     * lookup per call on the hot paths instead of two).
     *
     * @param e the calling rank's state
     * @return the communicator
     * @throws MpiErrors.MpiError ERR_COMM if this communicator is null or freed
     */
    final dev.tutti.Comm tc(final Env e) {
        if (WORLD == predefined) {
            return e.world();
        }
        return SELF == predefined ? e.self() : derived();
    }

    private dev.tutti.Comm derived() {
        dev.tutti.Comm h = handle;
        if (null == h) {
            final ObjectRequest<? extends dev.tutti.Comm> p = pending;
            if (null == p) {
                throw MpiErrors.error(MPI.ERR_COMM, "the communicator is null or freed");
            }
            h = p.get();
            handle = h;
            pending = null;
        }
        return h;
    }

    /** @return the error handler, name and attributes of this communicator in the calling rank */
    final CommState state() {
        if (DERIVED == predefined) {
            return own;
        }
        final Env e = Env.current();
        if (null == e) {
            return new CommState(WORLD == predefined ? "MPI_COMM_WORLD" : "MPI_COMM_SELF");
        }
        return WORLD == predefined ? e.worldState : e.selfState;
    }

    /**
     * Applies this communicator's error handler to a failure.
     *
     * @param call the MPI function
     * @param e    the failure
     * @return the exception to throw (ERRORS_RETURN); under ERRORS_ARE_FATAL the job ends
     */
    final MPIException fail(final String call, final RuntimeException e) {
        final CommState s = null == own && DERIVED == predefined ? null : state();
        return MpiErrors.handle(null == s ? MPI.ERRORS_ARE_FATAL : s.handler(), call,
            null == s ? "a null communicator" : s.name(), e);
    }

    /**
     * A blocking standard (or ready) send: the hot path, without the lambda of {@link #run}.
     *
     * @param call the MPI function, for the error handler
     * @param what the method, for messages
     */
    final void sendNow(final String call, final String what, final Object buf, final int count, final Datatype type,
        final int dest, final int tag) throws MPIException {
        final Env e = Env.check();
        try {
            tc(e).send(Bufs.of(what, buf, count, type, e.bufCache()), dest, tag);
        } catch (final RuntimeException x) {
            throw fail(call, x);
        }
    }

    /** The body of {@link Comm#sSend}, as {@link #sendNow}: a synchronous send of Tutti's. */
    final void ssendNow(final Object buf, final int count, final Datatype type, final int dest, final int tag)
        throws MPIException {
        final Env e = Env.check();
        try {
            tc(e).ssend(Bufs.of("sSend", buf, count, type, e.bufCache()), dest, tag);
        } catch (final RuntimeException x) {
            throw fail("MPI_Ssend", x);
        }
    }

    /** The body of {@link Comm#recv}, as {@link #sendNow}. @return the status */
    final Status recvNow(final Object buf, final int count, final Datatype type, final int source, final int tag)
        throws MPIException {
        final Env e = Env.check();
        try {
            return Status.of(tc(e).recv(Bufs.of("recv", buf, count, type, e.bufCache()), source, tag));
        } catch (final RuntimeException x) {
            throw fail("MPI_Recv", x);
        }
    }

    /** Runs a call after the initialization check, routing failures to the error handler. */
    final void run(final String call, final Body body) throws MPIException {
        MPI.check();
        try {
            body.run();
        } catch (final RuntimeException e) {
            throw fail(call, e);
        }
    }

    /** Runs a call that returns a value, like {@link #run}. */
    final <T> T get(final String call, final Supplier<T> body) throws MPIException {
        MPI.check();
        try {
            return body.get();
        } catch (final RuntimeException e) {
            throw fail(call, e);
        }
    }

    /** Starts a nonblocking call and wraps its request, keeping the buffers reachable. */
    final Request start(final String call, final Supplier<dev.tutti.Request> body, final Object keep)
        throws MPIException {
        return new Request((Comm) this, get(call, body), keep);
    }

    static void direct(final Buffer b) {
        Bufs.requireDirect(b, "The buffer must be direct.");
    }

    static void direct(final Buffer send, final Buffer recv) {
        Bufs.requireDirect(send, "The send buffer must be direct.");
        Bufs.requireDirect(recv, "The recv. buffer must be direct.");
    }

    /** @return Tutti's duplicate of the calling rank's communicator */
    final dev.tutti.Comm dupHandle() {
        final dev.tutti.Comm c = tc();
        return c instanceof Intercommunicator ic ? ic.dup() : ((Communicator) c).dup();
    }

    /** The body of {@link Comm#sendRecvReplace}: the send goes from a copy, the receive into the buffer. */
    final Status sendRecvReplace(final Buf b, final int dest, final int sendtag, final int source,
        final int recvtag) {
        final Buf copy;
        if (null != b.booleans()) {
            copy = Buf.of(b.booleans().clone(), b.booleanOffset(), b.count());
        } else { // a packed copy: a derived datatype's items are sent as a plain run of elements
            final MemorySegment packed = MemorySegment.ofArray(new long[(int) ((b.byteSize() + 7) / 8)])
                .asSlice(0, b.byteSize());
            b.pack(packed);
            copy = Buf.of(packed, b.datatype());
        }
        return Status.of(tc().sendrecv(copy, dest, sendtag, b, source, recvtag));
    }

    /** The body of {@link Comm#iDup}. */
    final Comm iDupNow() {
        final ObjectRequest<? extends dev.tutti.Comm> r = tc() instanceof Intercommunicator ic ? ic.idup()
            : ((Communicator) tc()).idup();
        return tc() instanceof Intercommunicator ? new Intercomm(r, state().copy(state().name() + "/idup"))
            : new Intracomm(r, state().copy(state().name() + "/idup"));
    }

    /** The body of {@link Comm#createIntercomm}, called on the peer communicator. */
    final Intercomm intercomm(final Comm localComm, final int localLeader, final int remoteLeader, final int tag) {
        if (!(localComm.tc() instanceof Communicator local)) {
            throw MpiErrors.error(MPI.ERR_COMM, "createIntercomm: localComm must be an intracommunicator");
        }
        return new Intercomm(local.createIntercomm(localLeader, tc(), remoteLeader, tag),
            localComm.state().derive("intercomm"));
    }

    /** The body of {@link Comm#getAttr}: the predefined attributes, else the stored value. */
    final Object attr(final int keyval) {
        return switch (keyval) {
            case MPI.TAG_UB -> dev.tutti.Comm.TAG_UB;
            case MPI.HOST -> MPI.PROC_NULL;
            case MPI.IO -> MPI.ANY_SOURCE;
            case MPI.WTIME_IS_GLOBAL -> Boolean.FALSE;
            case MPI.APPNUM -> 0;
            case MPI.LASTUSEDCODE -> MPI.ERR_LASTCODE;
            case MPI.UNIVERSE_SIZE -> Env.current().world().size();
            default -> state().get(keyval);
        };
    }

    /** The body of {@link Comm#abort}: Open MPI's message, then the failure that ends the job with the code. */
    final RuntimeException abortNow(final int errorcode) {
        final String rank = String.valueOf(tc().rank());
        System.err.println("MPI_ABORT was invoked on rank " + rank + " in communicator " + state().name()
            + " with errorcode " + errorcode + ".\nNOTE: invoking MPI_ABORT causes Tutti to kill all ranks.");
        return MpiErrors.abort(errorcode, "MPI_ABORT on rank " + rank, null);
    }

    /** The body of {@link Comm#callErrhandler}: under ERRORS_ARE_FATAL the job ends with the code. */
    final void callHandler(final int errorCode) {
        MpiErrors.callHandler(state().handler(), "MPI_Comm_call_errhandler", state().name(), errorCode);
    }
}
