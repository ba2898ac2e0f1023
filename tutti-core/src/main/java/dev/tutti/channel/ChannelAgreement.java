package dev.tutti.channel;

import dev.tutti.Buf;
import dev.tutti.Comm;
import dev.tutti.Datatype;
import dev.tutti.ErrorClass;
import dev.tutti.internal.Errors;

/**
 * The check, at creation, that every rank passed matching channel arguments: one allgather of a short vector on
 * the channel's private communicator (on an intercommunicator each side gathers the other side's vectors). A rank
 * whose name, element type or QoS differs, or whose send block is not the size this rank receives (and the other
 * way round), is refused on every rank that sees it, naming that rank.
 */
final class ChannelAgreement {
    private static final int NAME = 0;
    private static final int TYPE = 1;
    private static final int SEND = 2;
    private static final int RECV = 3;
    private static final int QOS = 4;
    private static final int PERIOD = 5;
    private static final int DEADLINE = 6;
    private static final int WIDTH = 7;
    private static final String[] FIELDS = {"name", "type", "send block", "receive block", "qos", "period",
        "deadline"};

    private ChannelAgreement() {
    }

    static void check(final String op, final String where, final Comm priv, final String name, final Datatype type,
        final int sendBlock, final int recvBlock, final ChannelQos qos) {
        final long[] mine = {hash(name), type.ordinal(), sendBlock, recvBlock, qos.kind().ordinal(),
            qos.periodNanos(), qos.deadlineNanos()};
        final int peers = priv.isInter() ? priv.remoteSize() : priv.size();
        final long[] all = new long[peers * WIDTH];
        priv.allgather(Buf.of(mine), Buf.of(all));
        for (int r = 0; r < peers; r++) {
            final int base = r * WIDTH;
            for (int f = 0; f < WIDTH; f++) {
                final long expected = SEND == f ? mine[RECV] : RECV == f ? mine[SEND] : mine[f];
                if (all[base + f] != expected) {
                    throw Errors.mismatch(ErrorClass.ARG, op, where, r, FIELDS[f] + "=" + show(f, all[base + f]),
                        "expected " + FIELDS[f] + "=" + show(f, expected) + " (" + (priv.isInter() ? "remote " : "")
                            + "rank " + r + ")", "every rank must create the channel with matching arguments");
                }
            }
        }
    }

    private static String show(final int field, final long value) {
        return switch (field) {
            case TYPE -> value >= 0 && value < Datatype.values().length ? Datatype.values()[(int) value].name()
                : Long.toString(value);
            case QOS -> value >= 0 && value < ChannelQos.Kind.values().length
                ? ChannelQos.Kind.values()[(int) value].name() : Long.toString(value);
            case NAME -> "#" + Long.toHexString(value);
            default -> Long.toString(value);
        };
    }

    /** FNV-1a over the name's chars: equal names agree, different ones almost surely do not. */
    static long hash(final String name) {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < name.length(); i++) {
            h ^= name.charAt(i);
            h *= 0x100000001b3L;
        }
        return h;
    }
}
