package mpi;

import dev.tutti.Buf;
import dev.tutti.Communicator;

import java.util.function.BinaryOperator;

/**
 * Reduce, Allreduce, Reduce_scatter and Scan of {@link Intracomm}.
 *
 * <p>Implementation note: a predefined operator runs in Tutti's kernels on the buffers {@link Slab} makes; MAXLOC
 * and MINLOC on dense (value, index) pair copies ({@code short} pairs widened to {@code int} pairs, which Tutti
 * reduces). A user operator runs through Tutti's object reductions, which apply it in rank order: each rank's
 * operand is a copy of the array span its items cover (so the {@link User_function} sees the items where the
 * datatype puts them, the datatype being the very object the program gave), or for {@code MPI.OBJECT} that span
 * serialised. The result's items are then stored into the receive buffer.
 */
final class Reductions {
    private Reductions() {
    }

    enum Kind { REDUCE, ALLREDUCE, SCAN }

    static void reduce(final Intracomm comm, final String call, final Kind kind, final Object sendbuf,
        final int sendoffset, final Object recvbuf, final int recvoffset, final int count, final Datatype type,
        final Op op, final int root) {
        final Communicator c = comm.intra(call);
        if (null == op) {
            throw Fail.error(call + ": op=null (expected an operator such as MPI.SUM)");
        }
        final boolean result = Kind.REDUCE != kind || c.rank() == root;
        try {
            Slab.check(call, "sendbuf", sendbuf, sendoffset, count, type);
            if (result) {
                Slab.check(call, "recvbuf", recvbuf, recvoffset, count, type);
            }
            if (null == op.predefined) {
                final Span mine = Span.of(sendbuf, sendoffset, count, type);
                final BinaryOperator<Object> f = combiner(call, op, count, type, mine.origin);
                final Object value = mine.encode(call);
                final Object got = switch (kind) {
                    case REDUCE -> c.reduceObject(value, f, root);
                    case ALLREDUCE -> c.allreduceObject(value, f);
                    case SCAN -> c.scanObject(value, f);
                };
                if (result) {
                    mine.store(call, got, recvbuf, recvoffset, 0, count);
                }
                return;
            }
            if (Base.OBJECT == type.base()) {
                throw Fail.error(call + ": predefined operator " + op + " is not defined for MPI.OBJECT (expected a "
                    + "user Op, new Op(User_function, commute))");
            }
            final int n = Slab.elements(call, count, type);
            if (op.isLocation()) {
                location(c, call, kind, sendbuf, sendoffset, recvbuf, recvoffset, count, type, op, root, result);
                return;
            }
            final Buf send = Slab.sendChecked(call, sendbuf, sendoffset, count, type);
            final Slab.Sink sink = result ? Slab.recvChecked(call, recvbuf, recvoffset, count, type) : null;
            switch (kind) {
                case REDUCE -> c.reduce(send, null == sink ? null : sink.buf, op.predefined, root);
                case ALLREDUCE -> c.allreduce(send, sink.buf, op.predefined);
                case SCAN -> c.scan(send, sink.buf, op.predefined);
            }
            if (null != sink) {
                sink.finish(n);
            }
        } catch (final RuntimeException e) {
            throw Fail.wrap(call, e);
        }
    }

    static void reduceScatter(final Intracomm comm, final String call, final Object sendbuf, final int sendoffset,
        final Object recvbuf, final int recvoffset, final int[] recvcounts, final Datatype type, final Op op) {
        final Communicator c = comm.intra(call);
        if (null == recvcounts || recvcounts.length < c.size()) {
            throw Fail.error(call + ": recvcounts has " + (null == recvcounts ? "null" : recvcounts.length)
                + " entries (expected " + c.size() + ", one per process)");
        }
        if (null == op) {
            throw Fail.error(call + ": op=null (expected an operator such as MPI.SUM)");
        }
        int total = 0;
        int before = 0;
        for (int i = 0; i < c.size(); i++) {
            if (recvcounts[i] < 0) {
                throw Fail.error(call + ": recvcounts[" + i + "]=" + recvcounts[i] + " (expected >= 0)");
            }
            if (i < c.rank()) {
                before += recvcounts[i];
            }
            total = Math.addExact(total, recvcounts[i]);
        }
        final int mine = recvcounts[c.rank()];
        try {
            Slab.check(call, "sendbuf", sendbuf, sendoffset, total, type);
            Slab.check(call, "recvbuf", recvbuf, recvoffset, mine, type);
            if (null == op.predefined || op.isLocation()) {
                // the whole reduction everywhere, then each rank keeps its block
                final Shape s = type.shape();
                final int allOffset = Math.max(0, -s.minDisp);
                final Object all = type.base().newArray(0 == total ? 0
                    : allOffset + (total - 1) * s.extent() + s.maxDisp + 1);
                reduce(comm, call, Kind.ALLREDUCE, sendbuf, sendoffset, all, allOffset, total, type, op, 0);
                final Object block = Slab.pack(all, allOffset + before * s.extent(), mine, s);
                Slab.unpack(block, 0, Slab.elements(call, mine, type), recvbuf, recvoffset, type.shape());
                return;
            }
            if (Base.OBJECT == type.base()) {
                throw Fail.error(call + ": predefined operator " + op + " is not defined for MPI.OBJECT");
            }
            final int[] counts = new int[c.size()];
            for (int i = 0; i < counts.length; i++) {
                counts[i] = Slab.elements(call, recvcounts[i], type);
            }
            final Buf send = Slab.send(call, "sendbuf", sendbuf, sendoffset, total, type);
            final Slab.Sink sink = Slab.recv(call, "recvbuf", recvbuf, recvoffset, mine, type);
            c.reduceScatter(send, sink.buf, counts, op.predefined);
            sink.finish(counts[c.rank()]);
        } catch (final RuntimeException e) {
            throw Fail.wrap(call, e);
        }
    }

    /** MAXLOC/MINLOC: dense pair copies, reduced with Tutti's location operators. */
    private static void location(final Communicator c, final String call, final Kind kind, final Object sendbuf,
        final int sendoffset, final Object recvbuf, final int recvoffset, final int count, final Datatype type,
        final Op op, final int root, final boolean result) {
        final int n = Slab.elements(call, count, type);
        if (0 != n % 2 || !(Base.SHORT == type.base() || Base.INT == type.base() || Base.LONG == type.base()
            || Base.FLOAT == type.base() || Base.DOUBLE == type.base())) {
            throw Fail.error(call + ": " + op + " needs (value, index) pairs: SHORT2, INT2, LONG2, FLOAT2 or DOUBLE2 "
                + "(got " + count + " items of " + type + ")");
        }
        final Object in = n == 0 ? type.base().newArray(0) : Slab.pack(sendbuf, sendoffset, count, type.shape());
        final Object out = type.base().newArray(n);
        final Object wideIn = widen(in);
        final Object wideOut = result ? widen(out) : null;
        final Buf s = pairs(wideIn);
        final Buf r = result ? pairs(wideOut) : null;
        switch (kind) {
            case REDUCE -> c.reduce(s, r, op.predefined, root);
            case ALLREDUCE -> c.allreduce(s, r, op.predefined);
            case SCAN -> c.scan(s, r, op.predefined);
        }
        if (result) {
            final Object back = out instanceof short[] sh ? narrow((int[]) wideOut, sh) : wideOut;
            Slab.unpack(back, 0, n, recvbuf, recvoffset, type.shape());
        }
    }

    private static Object widen(final Object a) {
        if (a instanceof short[] s) {
            final int[] w = new int[s.length];
            for (int i = 0; i < s.length; i++) {
                w[i] = s[i];
            }
            return w;
        }
        return a;
    }

    private static short[] narrow(final int[] w, final short[] into) {
        for (int i = 0; i < w.length; i++) {
            into[i] = (short) w[i];
        }
        return into;
    }

    private static Buf pairs(final Object a) {
        return switch (a) {
            case int[] x -> Buf.pairs(x);
            case long[] x -> Buf.pairs(x);
            case float[] x -> Buf.pairs(x);
            case double[] x -> Buf.pairs(x);
            default -> throw new IllegalStateException("no pairs of " + a.getClass());
        };
    }

    /** A user operator over two encoded spans, applied as {@code Call(in, inout)}, {@code in} the lower rank's. */
    private static BinaryOperator<Object> combiner(final String call, final Op op, final int count,
        final Datatype type, final int origin) {
        final boolean objects = Base.OBJECT == type.base();
        return (a, b) -> {
            final Object in = objects ? Wire.read(call, (byte[]) a) : a;
            final Object inout = objects ? Wire.read(call, (byte[]) b) : copy(b);
            op.function.Call(in, origin, inout, origin, count, type);
            return objects ? Wire.write(call, (Object[]) inout) : inout;
        };
    }

    private static Object copy(final Object a) {
        final int n = java.lang.reflect.Array.getLength(a);
        final Object c = java.lang.reflect.Array.newInstance(a.getClass().getComponentType(), n);
        System.arraycopy(a, 0, c, 0, n);
        return c;
    }

    /** The array span the items of a buffer argument cover, copied, with where item 0 starts in it. */
    private record Span(Object copy, int origin, Datatype type) {
        static Span of(final Object buf, final int offset, final int count, final Datatype type) {
            final Shape s = type.shape();
            if (0 == count || 0 == s.size()) {
                return new Span(type.base().newArray(0), 0, type);
            }
            final int ext = s.extent();
            final int low = s.minDisp + Math.min(0, (count - 1) * ext);
            final int high = s.maxDisp + Math.max(0, (count - 1) * ext);
            final Object c = type.base().newArray(high - low + 1);
            System.arraycopy(buf, offset + low, c, 0, high - low + 1);
            return new Span(c, -low, type);
        }

        Object encode(final String call) {
            return Base.OBJECT == type.base() ? Wire.write(call, (Object[]) copy) : copy;
        }

        /** Stores items {@code from .. from + count} of a result span into the receive buffer. */
        void store(final String call, final Object result, final Object recvbuf, final int recvoffset,
            final int from, final int count) {
            final Object r = Base.OBJECT == type.base() ? Wire.read(call, (byte[]) result) : result;
            if (0 == count || 0 == type.shape().size()) {
                return;
            }
            final Shape s = type.shape();
            final Object dense = Slab.pack(r, origin + from * s.extent(), count, s);
            Slab.unpack(dense, 0, count * s.size(), recvbuf, recvoffset, s);
        }
    }
}
