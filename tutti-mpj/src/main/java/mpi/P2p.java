package mpi;

import dev.tutti.Buf;
import dev.tutti.ObjectRequest;

/**
 * Point-to-point calls of {@link Comm}: rank and tag numbering, the four send modes, receives, probes, persistent
 * requests. Buffers go through {@link Slab}; {@code MPI.OBJECT} elements travel as one serialised {@code Object[]}
 * ({@link Wire}) in a Tutti object message; {@code MPI.PACKED} messages are the bytes of an {@code mpjbuf.Buffer}.
 *
 * <p>Implementation note: MPJ Express numbers wildcards and the null process differently from Tutti
 * ({@code ANY_SOURCE} = {@code ANY_TAG} = -2, {@code PROC_NULL} = -3); {@link #dest}, {@link #source},
 * {@link #recvTag} translate on the way in, {@link #status} on the way out.
 */
final class P2p {
    /** The send modes. Ready mode is standard mode (a correct ready send is a correct standard send). */
    enum Mode { STANDARD, SYNCHRONOUS, BUFFERED }

    private P2p() {
    }

    static int dest(final String call, final int dest) {
        if (MPI.PROC_NULL == dest) {
            return dev.tutti.Comm.PROC_NULL;
        }
        if (dest < 0) {
            throw Fail.error(call + ": dest=" + dest + " (expected a rank >= 0 or MPI.PROC_NULL)");
        }
        return dest;
    }

    static int source(final String call, final int source) {
        if (MPI.ANY_SOURCE == source) {
            return dev.tutti.Comm.ANY_SOURCE;
        }
        if (MPI.PROC_NULL == source) {
            return dev.tutti.Comm.PROC_NULL;
        }
        if (source < 0) {
            throw Fail.error(call + ": source=" + source + " (expected a rank >= 0, MPI.ANY_SOURCE or MPI.PROC_NULL)");
        }
        return source;
    }

    static int sendTag(final String call, final int tag) {
        if (tag < 0) {
            throw Fail.error(call + ": tag=" + tag + " (expected 0.." + Integer.MAX_VALUE + ")");
        }
        return tag;
    }

    static int recvTag(final String call, final int tag) {
        if (MPI.ANY_TAG == tag) {
            return dev.tutti.Comm.ANY_TAG;
        }
        return sendTag(call, tag);
    }

    /** @return the MPJ status of a Tutti receive of {@code elements} elements into {@code type} */
    static Status status(final dev.tutti.Status s, final int elements, final Datatype type) {
        final int source = dev.tutti.Comm.PROC_NULL == s.source() ? MPI.PROC_NULL : s.source();
        final int tag = dev.tutti.Comm.ANY_TAG == s.tag() ? MPI.ANY_TAG : s.tag();
        return Status.of(source, tag, elements, type.shape().size(), type.base(), s.cancelled());
    }

    /**
     * The status of a primitive receive of {@code count} items. Items of a datatype with no elements (a
     * {@code Struct} of no blocks) make an empty message whatever their number, so such a receive reports the count
     * it asked for and no elements ({@link MPI#UNDEFINED}), as mpiJava's test programs expect.
     */
    private static Status received(final dev.tutti.Status s, final int elements, final Datatype type,
        final int count) {
        if (0 == type.shape().size() && !s.cancelled() && dev.tutti.Comm.PROC_NULL != s.source()) {
            final Status st = status(s, 0, type);
            st.count = count;
            st.numEls = MPI.UNDEFINED;
            return st;
        }
        return status(s, elements, type);
    }

    /** @return the elements of {@code type}'s base type in {@code bytes} (none for a datatype of no elements) */
    private static int elements(final long bytes, final Datatype type) {
        final int b = type.base().bytes;
        return 0 == b ? 0 : (int) (bytes / b);
    }

    private static boolean isObject(final Datatype type) {
        return null != type && Base.OBJECT == type.base();
    }

    private static boolean isPacked(final Datatype type) {
        return null != type && Base.PACKED == type.base();
    }

    private static mpjbuf.Buffer packed(final String call, final Object buf, final int count) {
        if (!(buf instanceof mpjbuf.Buffer b)) {
            throw Fail.error(call + ": buf is " + (null == buf ? "null" : "a " + buf.getClass().getSimpleName())
                + " (expected an mpjbuf.Buffer for MPI.PACKED)");
        }
        if (count < 0 || count > b.getCapacity()) {
            throw Fail.error(call + ": count=" + count + " bytes (expected 0.." + b.getCapacity()
                + ", the capacity of the mpjbuf.Buffer)");
        }
        return b;
    }

    /** Sends in the given mode and returns when the buffer may be reused. */
    static void send(final Comm comm, final String call, final Mode mode, final Object buf, final int offset,
        final int count, final Datatype type, final int dest, final int tag) {
        if (Mode.BUFFERED == mode) {
            isend(comm, call, mode, buf, offset, count, type, dest, tag);
            return;
        }
        final dev.tutti.Comm c = comm.tc(call);
        final int d = dest(call, dest);
        final int t = sendTag(call, tag);
        try {
            if (isObject(type)) {
                c.sendObject(Wire.write(call, Slab.objects(call, "buf", buf, offset, count, type)), d, t);
                return;
            }
            final Buf b = isPacked(type) ? Buf.of(packed(call, buf, count).array(), 0, count)
                : Slab.send(call, "buf", buf, offset, count, type);
            if (Mode.SYNCHRONOUS == mode) {
                c.ssend(b, d, t);
            } else {
                c.send(b, d, t);
            }
        } catch (final RuntimeException e) {
            throw Fail.wrap(call, e);
        }
    }

    /** Starts a send in the given mode. */
    static Request isend(final Comm comm, final String call, final Mode mode, final Object buf, final int offset,
        final int count, final Datatype type, final int dest, final int tag) {
        final dev.tutti.Comm c = comm.tc(call);
        final int d = dest(call, dest);
        final int t = sendTag(call, tag);
        final Request.Completion sent = s -> new Status(MPI.EMPTY_STATUS);
        try {
            final dev.tutti.Request r;
            final long bytes;
            if (isObject(type)) {
                final byte[] data = Wire.write(call, Slab.objects(call, "buf", buf, offset, count, type));
                bytes = data.length;
                if (Mode.BUFFERED == mode) {
                    Env.check(call).buffered().reserve(call, bytes);
                }
                r = c.isendObject(data, d, t);
            } else {
                final Buf b;
                if (isPacked(type)) {
                    b = Buf.of(packed(call, buf, count).array().clone(), 0, count);
                } else if (Mode.BUFFERED == mode) {
                    Slab.check(call, "buf", buf, offset, count, type);
                    final int n = Slab.elements(call, count, type);
                    b = 0 == n ? Slab.empty(type.shape()) : Slab.make(Slab.pack(buf, offset, count, type.shape()), 0, n);
                } else {
                    b = Slab.send(call, "buf", buf, offset, count, type);
                }
                bytes = b.byteSize();
                if (Mode.BUFFERED == mode) {
                    Env.check(call).buffered().reserve(call, bytes);
                }
                r = Mode.SYNCHRONOUS == mode ? c.issend(b, d, t) : c.isend(b, d, t);
            }
            if (Mode.BUFFERED == mode) {
                Env.check(call).buffered().started(r, bytes);
                return Request.completed(new Status(MPI.EMPTY_STATUS));
            }
            return new Request(r, sent);
        } catch (final RuntimeException e) {
            throw Fail.wrap(call, e);
        }
    }

    /**
     * Receives into the buffer. Primitive data takes Tutti's blocking receive, with no request to make, complete and
     * clear (objects and packed data complete through {@link #irecv}'s steps).
     */
    static Status recv(final Comm comm, final String call, final Object buf, final int offset, final int count,
        final Datatype type, final int source, final int tag) {
        if (isObject(type) || isPacked(type)) {
            return irecv(comm, call, buf, offset, count, type, source, tag).Wait();
        }
        final dev.tutti.Comm c = comm.tc(call);
        final int s = source(call, source);
        final int t = recvTag(call, tag);
        try {
            final Slab.Sink sink = Slab.recv(call, "buf", buf, offset, count, type);
            final dev.tutti.Status st = c.recv(sink.buf, s, t);
            final int elements = elements(st.bytes(), type);
            sink.finish(elements);
            return received(st, elements, type, count);
        } catch (final RuntimeException e) {
            throw Fail.wrap(call, e);
        }
    }

    /** Starts a receive; its completion moves the data into the caller's array and makes the status. */
    static Request irecv(final Comm comm, final String call, final Object buf, final int offset, final int count,
        final Datatype type, final int source, final int tag) {
        final dev.tutti.Comm c = comm.tc(call);
        final int s = source(call, source);
        final int t = recvTag(call, tag);
        try {
            if (isObject(type)) {
                Slab.check(call, "buf", buf, offset, count, type);
                final ObjectRequest<byte[]> r = c.irecvObject(s, t);
                return new Request(r, st -> {
                    if (st.cancelled() || dev.tutti.Comm.PROC_NULL == st.source()) {
                        return status(st, 0, type);
                    }
                    final Object[] values = Wire.read(call, r.get());
                    Slab.storeObjects(call, values, buf, offset, count, type);
                    return status(st, values.length, type);
                });
            }
            if (isPacked(type)) {
                final mpjbuf.Buffer b = packed(call, buf, count);
                final dev.tutti.Request r = c.irecv(Buf.of(b.array(), 0, count), s, t);
                return new Request(r, st -> {
                    b.setSize((int) st.bytes());
                    return status(st, (int) st.bytes(), type);
                });
            }
            final Slab.Sink sink = Slab.recv(call, "buf", buf, offset, count, type);
            final dev.tutti.Request r = c.irecv(sink.buf, s, t);
            return new Request(r, st -> {
                final int elements = elements(st.bytes(), type);
                sink.finish(elements);
                return received(st, elements, type, count);
            });
        } catch (final RuntimeException e) {
            throw Fail.wrap(call, e);
        }
    }

    /** Sends and receives at once, without deadlock however the peers pair up. */
    static Status sendrecv(final Comm comm, final String call, final Object sendbuf, final int sendoffset,
        final int sendcount, final Datatype sendtype, final int dest, final int sendtag, final Object recvbuf,
        final int recvoffset, final int recvcount, final Datatype recvtype, final int source, final int recvtag) {
        final Request in = irecv(comm, call, recvbuf, recvoffset, recvcount, recvtype, source, recvtag);
        final Request out = isend(comm, call, Mode.STANDARD, sendbuf, sendoffset, sendcount, sendtype, dest, sendtag);
        out.Wait();
        return in.Wait();
    }

    /** Sends the buffer's data and receives into the same buffer. */
    static Status sendrecvReplace(final Comm comm, final String call, final Object buf, final int offset,
        final int count, final Datatype type, final int dest, final int sendtag, final int source,
        final int recvtag) {
        final Request out;
        if (isObject(type) || isPacked(type)) {
            out = isend(comm, call, Mode.STANDARD, buf, offset, count, type, dest, sendtag);
        } else {
            Slab.check(call, "buf", buf, offset, count, type);
            final int n = Slab.elements(call, count, type);
            final Object copy = 0 == n ? type.base().newArray(0) : Slab.pack(buf, offset, count, type.shape());
            final Datatype dense = 0 == n ? type : Datatype.Contiguous(type.shape().size(), basic(type.base()));
            out = isend(comm, call, Mode.STANDARD, copy, 0, count, dense, dest, sendtag);
        }
        final Status st = recv(comm, call, buf, offset, count, type, source, recvtag);
        out.Wait();
        return st;
    }

    /** @return the predefined datatype of one element of a base type */
    static Datatype basic(final Base b) {
        return switch (b) {
            case BYTE -> MPI.BYTE;
            case CHAR -> MPI.CHAR;
            case SHORT -> MPI.SHORT;
            case BOOLEAN -> MPI.BOOLEAN;
            case INT -> MPI.INT;
            case LONG -> MPI.LONG;
            case FLOAT -> MPI.FLOAT;
            case DOUBLE -> MPI.DOUBLE;
            case OBJECT -> MPI.OBJECT;
            case PACKED -> MPI.PACKED;
            default -> MPI.NULL;
        };
    }

    /** @return the status of a matching message, or null if {@code block} is false and none has arrived */
    static Status probe(final Comm comm, final String call, final int source, final int tag, final boolean block) {
        final dev.tutti.Comm c = comm.tc(call);
        final int s = source(call, source);
        final int t = recvTag(call, tag);
        try {
            final dev.tutti.Status st = block ? c.probe(s, t) : c.iprobe(s, t);
            if (null == st) {
                return null;
            }
            final Base b = baseOf(st.datatype());
            final int elements = Base.OBJECT == b ? -1 : (int) (st.bytes() / Math.max(1, b.bytes));
            return status(st, elements, basic(b));
        } catch (final RuntimeException e) {
            throw Fail.wrap(call, e);
        }
    }

    private static Base baseOf(final dev.tutti.Datatype d) {
        return switch (d) {
            case BYTE -> Base.BYTE;
            case CHAR -> Base.CHAR;
            case SHORT -> Base.SHORT;
            case BOOLEAN -> Base.BOOLEAN;
            case INT -> Base.INT;
            case LONG -> Base.LONG;
            case FLOAT -> Base.FLOAT;
            case DOUBLE -> Base.DOUBLE;
            case OBJECT -> Base.OBJECT;
            default -> Base.BYTE;
        };
    }
}
