package dev.tutti.calls;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.ErrorClass;
import dev.tutti.ObjectSerializer;
import dev.tutti.internal.Errors;
import dev.tutti.type.LocalReduction;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.BinaryOperator;

/**
 * Object collectives on top of the buffer collectives: values are serialized, their sizes exchanged first, then
 * the bytes moved with the v-variant (mpi4py's approach). Reductions gather the values and fold them in rank
 * order, so any associative {@link BinaryOperator} works, commutative or not; this moves O(p) values per rank,
 * which is the right trade for objects (use the buffer collectives for numeric data).
 */
public final class ObjectBridge {
    private final CommunicatorImpl comm;
    private final ObjectSerializer serializer;

    public ObjectBridge(final CommunicatorImpl comm, final ObjectSerializer serializer) {
        this.comm = comm;
        this.serializer = serializer;
    }

    public <T> T bcast(final T value, final int root) {
        final boolean isRoot = comm.rank() == root;
        final byte[] mine = isRoot ? serializer.serialize(value) : null;
        final int[] len = {isRoot ? mine.length : 0};
        comm.bcast(Buf.of(len), root);
        final byte[] bytes = isRoot ? mine : new byte[len[0]];
        comm.bcast(Buf.of(bytes), root);
        return isRoot ? value : cast(serializer.deserialize(bytes));
    }

    public <T> List<T> gather(final T value, final int root) {
        final boolean isRoot = comm.rank() == root;
        final int p = comm.size();
        final byte[] mine = serializer.serialize(value);
        final int[] lens = isRoot ? new int[p] : null;
        comm.gather(Buf.of(new int[] {mine.length}), isRoot ? Buf.of(lens) : null, root);
        final int[] displs = isRoot ? displacements(lens) : null;
        final byte[] all = isRoot ? new byte[total(lens)] : null;
        comm.gatherv(Buf.of(mine), isRoot ? Buf.of(all) : null, lens, displs, root);
        return isRoot ? decode(all, lens, displs) : null;
    }

    public <T> T scatter(final List<? extends T> values, final int root) {
        final boolean isRoot = comm.rank() == root;
        final int p = comm.size();
        int[] lens = null;
        int[] displs = null;
        byte[] all = null;
        if (isRoot) {
            if (null == values || values.size() != p) {
                throw Errors.argument(ErrorClass.COUNT, "scatterObject", comm.describe(), "values.size()",
                    null == values ? "null" : values.size(), "size=" + p);
            }
            final byte[][] parts = new byte[p][];
            lens = new int[p];
            for (int i = 0; i < p; i++) {
                parts[i] = serializer.serialize(values.get(i));
                lens[i] = parts[i].length;
            }
            displs = displacements(lens);
            all = new byte[total(lens)];
            for (int i = 0; i < p; i++) {
                System.arraycopy(parts[i], 0, all, displs[i], lens[i]);
            }
        }
        final int[] myLen = new int[1];
        comm.scatter(isRoot ? Buf.of(lens) : null, Buf.of(myLen), root);
        final byte[] mine = new byte[myLen[0]];
        comm.scatterv(isRoot ? Buf.of(all) : null, lens, displs, Buf.of(mine), root);
        return cast(serializer.deserialize(mine));
    }

    public <T> List<T> allgather(final T value) {
        final int p = comm.size();
        final byte[] mine = serializer.serialize(value);
        final int[] lens = new int[p];
        comm.allgather(Buf.of(new int[] {mine.length}), Buf.of(lens));
        final int[] displs = displacements(lens);
        final byte[] all = new byte[total(lens)];
        comm.allgatherv(Buf.of(mine), Buf.of(all), lens, displs);
        return decode(all, lens, displs);
    }

    public <T> List<T> alltoall(final List<? extends T> values) {
        final int p = comm.size();
        if (null == values || values.size() != p) {
            throw Errors.argument(ErrorClass.COUNT, "alltoallObject", comm.describe(), "values.size()",
                null == values ? "null" : values.size(), "size=" + p);
        }
        final byte[][] parts = new byte[p][];
        final int[] sendLens = new int[p];
        for (int i = 0; i < p; i++) {
            parts[i] = serializer.serialize(values.get(i));
            sendLens[i] = parts[i].length;
        }
        final int[] sendDispls = displacements(sendLens);
        final byte[] out = new byte[total(sendLens)];
        for (int i = 0; i < p; i++) {
            System.arraycopy(parts[i], 0, out, sendDispls[i], sendLens[i]);
        }
        final int[] recvLens = new int[p];
        comm.alltoall(Buf.of(sendLens), Buf.of(recvLens));
        final int[] recvDispls = displacements(recvLens);
        final byte[] in = new byte[total(recvLens)];
        comm.alltoallv(Buf.of(out), sendLens, sendDispls, Buf.of(in), recvLens, recvDispls);
        return decode(in, recvLens, recvDispls);
    }

    public <T> T reduce(final T value, final BinaryOperator<T> op, final int root) {
        final List<T> all = gather(value, root);
        return null == all ? null : fold(all, op, all.size());
    }

    public <T> T allreduce(final T value, final BinaryOperator<T> op) {
        final List<T> all = allgather(value);
        return fold(all, op, all.size());
    }

    public <T> T scan(final T value, final BinaryOperator<T> op, final boolean inclusive) {
        final List<T> all = allgather(value);
        final int upTo = inclusive ? comm.rank() + 1 : comm.rank();
        return 0 == upTo ? null : fold(all, op, upTo);
    }

    private static <T> T fold(final List<T> values, final BinaryOperator<T> op, final int n) {
        T acc = values.get(0);
        for (int i = 1; i < n; i++) {
            acc = op.apply(acc, values.get(i));
        }
        return acc;
    }

    private <T> List<T> decode(final byte[] all, final int[] lens, final int[] displs) {
        final List<T> out = new ArrayList<>(lens.length);
        for (int i = 0; i < lens.length; i++) {
            final byte[] part = new byte[lens[i]];
            System.arraycopy(all, displs[i], part, 0, lens[i]);
            out.add(cast(serializer.deserialize(part)));
        }
        return Collections.unmodifiableList(out);
    }

    private int[] displacements(final int[] lens) {
        final int[] d = new int[lens.length];
        long at = 0;
        for (int i = 0; i < lens.length; i++) {
            if (at > Integer.MAX_VALUE) {
                throw Errors.invalid(ErrorClass.COUNT, "object collective", comm.describe(),
                    "serialized values total more than " + Integer.MAX_VALUE + " bytes");
            }
            d[i] = (int) at;
            at += lens[i];
        }
        return d;
    }

    private static int total(final int[] lens) {
        long t = 0;
        for (final int l : lens) {
            t += l;
        }
        return (int) t;
    }

    @SuppressWarnings("unchecked")
    private static <T> T cast(final Object o) {
        return (T) o;
    }
}
