package dev.tutti.check;

import dev.tutti.internal.Failures;

import dev.tutti.Datatype;
import dev.tutti.ErrorClass;
import dev.tutti.Op;
import dev.tutti.TuttiException;
import dev.tutti.coll.CollArgs;
import dev.tutti.coll.CollCall;
import dev.tutti.coll.CollKind;
import dev.tutti.coll.InterArgs;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Locale;

/**
 * What one rank says about one of its collective calls, compact enough to send to every peer: the operation and
 * how it starts, its roots, reduction, tag, type signature and counts, whether it is in place, and the call site.
 * The checker compares the digests of one call from every rank of the group ({@link DigestRules}).
 *
 * <p>Wire layout (big-endian, {@link DataOutputStream}): {@code seq:long kind:byte variant:byte tag:int
 * side:byte localRank:int root:int remoteRoot:int opCode:byte opName:utf sendType:byte sendCount:int
 * recvType:byte recvCount:int inPlace:boolean sendCounts:ints recvCounts:ints sendTypes:bytes recvTypes:bytes
 * site:utf}, where {@code ints}/{@code bytes} is a length (-1 for none) and the elements. About 60 bytes plus the
 * call site for a regular call; the v-forms add 4 bytes per rank and count array.
 *
 * @param seq        the call's number on its communicator (untagged calls, from 1), or the use of its tagged key
 * @param kind       the operation
 * @param variant    blocking, nonblocking, tagged or persistent
 * @param tag        the user tag of a tagged call, else -1
 * @param side       -1 on an intracommunicator; on an intercommunicator 0 for the group first in union order, else 1
 * @param localRank  the rank in its group (an intercommunicator's local group)
 * @param root       the root (intercommunicator: the local root as this rank names it), or -1
 * @param remoteRoot the remote root of an intercommunicator call, or -1
 * @param opCode     -1 without reduction, a predefined op's ordinal, or {@link #USER_OP}
 * @param opName     the reduction's name ("" without one): user ops match by name, their stable id across ranks
 * @param sendType   element type sent
 * @param sendCount  elements sent (per block, see {@code CollArgs})
 * @param recvType   element type received
 * @param recvCount  elements received (per block)
 * @param inPlace    whether this rank passed {@code IN_PLACE}
 * @param sendCounts per-peer send counts (v-forms, alltoallw), or null
 * @param recvCounts per-peer receive counts (v-forms, alltoallw), or null
 * @param sendTypes  per-peer send types (alltoallw), or null
 * @param recvTypes  per-peer receive types (alltoallw), or null
 * @param site       the call site, {@code File.java:line}, or null while not yet known ({@link DigestExchange#mine()})
 */
record CallDigest(long seq, CollKind kind, CollCall.Variant variant, int tag, int side, int localRank, int root,
    int remoteRoot, int opCode, String opName, Datatype sendType, int sendCount, Datatype recvType, int recvCount,
    boolean inPlace, int[] sendCounts, int[] recvCounts, Datatype[] sendTypes, Datatype[] recvTypes, String site) {

    /** {@link #opCode} of a user-defined reduction. */
    static final int USER_OP = 127;
    private static final CollKind[] KINDS = CollKind.values();
    private static final CollCall.Variant[] VARIANTS = CollCall.Variant.values();
    private static final Datatype[] TYPES = Datatype.values();

    /**
     * Describes a call as it passes the door.
     *
     * @param call the call
     * @param seq  its number (see {@link #seq})
     * @param site its call site
     * @return the digest
     */
    static CallDigest of(final CollCall call, final long seq, final String site) {
        final Op op = call.op();
        final int opCode = null == op ? -1 : op instanceof Op.Predefined p ? p.ordinal() : USER_OP;
        final String opName = null == op ? "" : op.name();
        if (call.isInter()) {
            final InterArgs a = call.interArguments();
            final boolean first = call.interCommunicator().isLocalFirst();
            return new CallDigest(seq, call.kind(), call.variant(), call.tag(), first ? 0 : 1,
                call.interCommunicator().rank(), call.root(), call.remoteRoot(), opCode, opName, call.sendType(),
                call.sendCount(), call.recvType(), call.recvCount(), false, null == a ? null : a.sendCounts(),
                null == a ? null : a.recvCounts(), null, null, site);
        }
        final CollArgs v = call.args();
        int[] sendCounts = null == v ? null : v.sendCounts();
        int[] recvCounts = null == v ? null : v.recvCounts();
        Datatype[] sendTypes = null;
        Datatype[] recvTypes = null;
        if (CollKind.ALLTOALLW == call.kind() && null != v) {
            sendTypes = v.sendTypes();
            recvTypes = v.recvTypes();
            sendCounts = counts(v.sendBlocks(), sendTypes);
            recvCounts = counts(v.recvBlocks(), recvTypes);
        }
        return new CallDigest(seq, call.kind(), call.variant(), call.tag(), -1, call.communicator().rank(),
            call.root(), -1, opCode, opName, call.sendType(), call.sendCount(), call.recvType(), call.recvCount(),
            call.inPlace(), sendCounts, recvCounts, sendTypes, recvTypes, site);
    }

    private static int[] counts(final MemorySegment[] blocks, final Datatype[] types) {
        final int[] c = new int[blocks.length];
        for (int i = 0; i < c.length; i++) {
            c[i] = (int) (blocks[i].byteSize() / types[i].sizeBytes());
        }
        return c;
    }

    /**
     * @param number a call's number
     * @return this digest under that number, without a call site
     */
    CallDigest withSeq(final long number) {
        return new CallDigest(number, kind, variant, tag, side, localRank, root, remoteRoot, opCode, opName, sendType,
            sendCount, recvType, recvCount, inPlace, sendCounts, recvCounts, sendTypes, recvTypes, null);
    }

    /**
     * @param where the call site
     * @return this digest with that call site
     */
    CallDigest withSite(final String where) {
        return new CallDigest(seq, kind, variant, tag, side, localRank, root, remoteRoot, opCode, opName, sendType,
            sendCount, recvType, recvCount, inPlace, sendCounts, recvCounts, sendTypes, recvTypes, where);
    }

    /**
     * A 64-bit hash of what the peers' calls must agree on, without the call's number (its messages' key already),
     * the rank and the call site: two ranks whose calls have the same hash made, but for a collision of 64-bit
     * hashes, the same call with the same arguments ({@link DigestExchange}'s first phase). Allocates nothing.
     *
     * @return the hash
     */
    long hash() {
        return hash(kind, variant, tag, side, root, remoteRoot, opCode, opName, sendType, sendCount, recvType,
            recvCount, inPlace, sendCounts, recvCounts, sendTypes, recvTypes);
    }

    /**
     * The {@link #hash()} of the digest of a regular blocking intracommunicator call (no v-form, no alltoallw),
     * without making the digest: what a checked repeated blocking call computes (allocates nothing).
     *
     * @param call the call: blocking, on an intracommunicator, not a vector form ({@link CollCall#isVector()})
     * @return the hash of {@code of(call, seq, site)} for any seq and site
     */
    static long hashOf(final CollCall call) {
        final Op op = call.op();
        final int opCode = null == op ? -1 : op instanceof Op.Predefined p ? p.ordinal() : USER_OP;
        return hash(call.kind(), call.variant(), call.tag(), -1, call.root(), -1, opCode, null == op ? "" : op.name(),
            call.sendType(), call.sendCount(), call.recvType(), call.recvCount(), call.inPlace(), null, null, null,
            null);
    }

    private static long hash(final CollKind kind, final CollCall.Variant variant, final int tag, final int side,
        final int root, final int remoteRoot, final int opCode, final String opName, final Datatype sendType,
        final int sendCount, final Datatype recvType, final int recvCount, final boolean inPlace,
        final int[] sendCounts, final int[] recvCounts, final Datatype[] sendTypes, final Datatype[] recvTypes) {
        long h = 0x243F_6A88_85A3_08D3L;
        h = mix(h, (long) kind.ordinal() << 32 | variant.ordinal() << 16 | (side & 0xFFFF));
        h = mix(h, (long) tag << 32 | (root & 0xFFFF_FFFFL));
        h = mix(h, (long) remoteRoot << 32 | (opCode & 0xFFFF_FFFFL));
        for (int i = 0; i < opName.length(); i++) {
            h = mix(h, opName.charAt(i));
        }
        h = mix(h, (long) sendType.ordinal() << 32 | (sendCount & 0xFFFF_FFFFL));
        h = mix(h, (long) recvType.ordinal() << 32 | (recvCount & 0xFFFF_FFFFL));
        h = mix(h, inPlace ? 1 : 0);
        h = mixInts(h, sendCounts);
        h = mixInts(h, recvCounts);
        h = mixTypes(h, sendTypes);
        h = mixTypes(h, recvTypes);
        h ^= h >>> 33;
        h *= 0xFF51_AFD7_ED55_8CCDL;
        return h ^ h >>> 33;
    }

    private static long mix(final long h, final long v) {
        return Long.rotateLeft(h ^ v * 0x9E37_79B9_7F4A_7C15L, 27) * 0xC2B2_AE3D_27D4_EB4FL + 0x1656_67B1_9E37_79F9L;
    }

    private static long mixInts(final long h, final int[] a) {
        if (null == a) {
            return mix(h, -1);
        }
        long x = mix(h, a.length);
        for (final int v : a) {
            x = mix(x, v);
        }
        return x;
    }

    private static long mixTypes(final long h, final Datatype[] a) {
        if (null == a) {
            return mix(h, -1);
        }
        long x = mix(h, a.length);
        for (final Datatype t : a) {
            x = mix(x, t.ordinal());
        }
        return x;
    }

    /** @return the digest as bytes, to send to the peers */
    byte[] encode() {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream(128);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeLong(seq);
            out.writeByte(kind.ordinal());
            out.writeByte(variant.ordinal());
            out.writeInt(tag);
            out.writeByte(side);
            out.writeInt(localRank);
            out.writeInt(root);
            out.writeInt(remoteRoot);
            out.writeByte(opCode);
            out.writeUTF(opName);
            out.writeByte(sendType.ordinal());
            out.writeInt(sendCount);
            out.writeByte(recvType.ordinal());
            out.writeInt(recvCount);
            out.writeBoolean(inPlace);
            writeInts(out, sendCounts);
            writeInts(out, recvCounts);
            writeTypes(out, sendTypes);
            writeTypes(out, recvTypes);
            out.writeUTF(null == site ? "unknown" : site);
        } catch (final IOException e) {
            throw new UncheckedIOException(e); // a byte array does not fail
        }
        return bytes.toByteArray();
    }

    /**
     * Reads a peer's digest.
     *
     * @param b     the bytes
     * @param where the call and communicator, for the message
     * @param peer  the peer's rank, for the message
     * @return the digest
     * @throws TuttiException of class {@link ErrorClass#INTERN} if the bytes are not a digest
     */
    static CallDigest decode(final byte[] b, final String where, final int peer) {
        try (DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(b))) {
            return new CallDigest(in.readLong(), KINDS[in.readByte()], VARIANTS[in.readByte()], in.readInt(),
                in.readByte(), in.readInt(), in.readInt(), in.readInt(), in.readByte(), in.readUTF(),
                TYPES[in.readByte()], in.readInt(), TYPES[in.readByte()], in.readInt(), in.readBoolean(),
                readInts(in), readInts(in), readTypes(in), readTypes(in), in.readUTF());
        } catch (final IOException | RuntimeException e) {
            throw Failures.protocol("checker", where, "the call digest of rank " + peer + " cannot be read ("
                + b.length + " bytes): " + e);
        }
    }

    private static void writeInts(final DataOutputStream out, final int[] a) throws IOException {
        out.writeInt(null == a ? -1 : a.length);
        if (null != a) {
            for (final int x : a) {
                out.writeInt(x);
            }
        }
    }

    private static int[] readInts(final DataInputStream in) throws IOException {
        final int n = in.readInt();
        if (n < 0) {
            return null;
        }
        final int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = in.readInt();
        }
        return a;
    }

    private static void writeTypes(final DataOutputStream out, final Datatype[] a) throws IOException {
        out.writeInt(null == a ? -1 : a.length);
        if (null != a) {
            for (final Datatype t : a) {
                out.writeByte(t.ordinal());
            }
        }
    }

    private static Datatype[] readTypes(final DataInputStream in) throws IOException {
        final int n = in.readInt();
        if (n < 0) {
            return null;
        }
        final Datatype[] a = new Datatype[n];
        for (int i = 0; i < n; i++) {
            a[i] = TYPES[in.readByte()];
        }
        return a;
    }

    /** @return whether the call is on an intercommunicator */
    boolean isInter() {
        return side >= 0;
    }

    /** @return whether the operation has a root */
    boolean rooted() {
        return switch (kind) {
            case BCAST, GATHER, GATHERV, SCATTER, SCATTERV, REDUCE -> true;
            default -> false;
        };
    }

    /** @return whether the operation reduces */
    boolean reduces() {
        return null != kind && switch (kind) {
            case REDUCE, ALLREDUCE, REDUCE_SCATTER, REDUCE_SCATTER_BLOCK, SCAN, EXSCAN -> true;
            default -> false;
        };
    }

    /** @return the call as the user wrote it, e.g. {@code ibcast(root=0, 4 x int)} or {@code reduceBegin(tag=5, ...)} */
    String describe() {
        final String name = kind.mpiName();
        final String called = switch (variant) {
            case BLOCKING -> name;
            case NONBLOCKING -> "i" + name;
            case TAGGED -> name + "Begin";
            case PERSISTENT -> name + "Init";
        };
        final StringBuilder a = new StringBuilder();
        if (CollCall.Variant.TAGGED == variant) {
            arg(a, "tag=" + tag);
        }
        if (isInter()) {
            arg(a, "group " + side);
            if (rooted()) {
                if (root >= 0) {
                    arg(a, "root=" + root);
                }
                if (remoteRoot >= 0) {
                    arg(a, "remoteRoot=" + remoteRoot);
                }
                if (root < 0 && remoteRoot < 0) {
                    arg(a, "PROC_NULL");
                }
            }
        } else if (rooted()) {
            arg(a, "root=" + root);
        }
        if (reduces()) {
            arg(a, "op=" + opName);
        }
        if (inPlace) {
            arg(a, "IN_PLACE");
        }
        signature(a);
        return called + "(" + a + ")";
    }

    private void signature(final StringBuilder a) {
        if (CollKind.BARRIER == kind) {
            return;
        }
        if (null != sendTypes) {
            arg(a, "send=" + blocks(sendCounts, sendTypes));
            arg(a, "recv=" + blocks(recvCounts, recvTypes));
            return;
        }
        if (isInter()) {
            if (sendCount > 0 || null != sendCounts) {
                arg(a, "send " + amount(sendCount, sendType));
            }
            if (recvCount > 0 || null != recvCounts) {
                arg(a, "recv " + amount(recvCount, recvType));
            }
            return;
        }
        if (null != sendCounts) {
            arg(a, "sendCounts=" + Arrays.toString(sendCounts));
        }
        if (null != recvCounts) {
            arg(a, "recvCounts=" + Arrays.toString(recvCounts));
        }
        arg(a, amount(sendCount, sendType));
    }

    /** @return {@code n x type}, e.g. {@code 4 x int} */
    static String amount(final int n, final Datatype type) {
        return n + " x " + typeName(type);
    }

    /** @return the type in lower case, as in messages */
    static String typeName(final Datatype type) {
        return type.name().toLowerCase(Locale.ROOT);
    }

    private static String blocks(final int[] counts, final Datatype[] types) {
        final StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < counts.length; i++) {
            b.append(0 == i ? "" : ", ").append(amount(counts[i], types[i]));
        }
        return b.append(']').toString();
    }

    private static void arg(final StringBuilder a, final String s) {
        a.append(a.isEmpty() ? "" : ", ").append(s);
    }

    @Override
    public boolean equals(final Object o) {
        return o instanceof CallDigest d && Arrays.equals(encode(), d.encode());
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(encode());
    }

    @Override
    public String toString() {
        return null == site ? describe() : describe() + " at " + site;
    }
}
