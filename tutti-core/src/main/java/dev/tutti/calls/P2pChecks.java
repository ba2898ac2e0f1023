package dev.tutti.calls;

import dev.tutti.Buf;
import dev.tutti.Comm;
import dev.tutti.PointToPoint;
import dev.tutti.TuttiException;
import dev.tutti.internal.Errors;

/**
 * The argument checks of point-to-point calls ({@link Comm}'s {@link PointToPoint} methods): each throws a
 * {@link TuttiException} naming the operation, the communicator, the argument, its value and the allowed range,
 * before anything is sent. One per communicator.
 */
public final class P2pChecks {
    private final CommImpl comm;

    public P2pChecks(final CommImpl comm) {
        this.comm = comm;
    }

    /** The argument checks of a send, after the caller has checked that its communicator is live: buffer, dest, tag. */
    public void send(final String op, final Buf buf, final int dest, final int tag) {
        buf(op, buf);
        dest(op, dest);
        sendTag(op, tag);
    }

    /** The argument checks of a receive, after the caller has checked that its communicator is live: buffer, source, tag. */
    public void recv(final String op, final Buf buf, final int source, final int tag) {
        buf(op, buf);
        source(op, source);
        recvTag(op, tag);
    }

    public void buf(final String op, final Buf buf) {
        buf(op, "buf", buf);
    }

    /** A point-to-point buffer: neither null nor {@link Buf#IN_PLACE}, which only collectives understand. */
    public void buf(final String op, final String arg, final Buf buf) {
        if (null == buf) {
            throw Errors.nullArg(op, comm.describe(), arg);
        }
        if (Buf.IN_PLACE == buf) {
            throw Errors.inPlace(op, comm.describe(), arg, "only for collectives, where it names data already in place");
        }
    }

    public void dest(final String op, final int dest) {
        if ((dest < 0 || dest >= comm.remoteSize()) && Comm.PROC_NULL != dest) {
            throw Errors.rank(op, comm.describe(), "dest", dest, comm.remoteSize(), " or Comm.PROC_NULL");
        }
    }

    public void source(final String op, final int source) {
        if ((source < 0 || source >= comm.remoteSize()) && Comm.PROC_NULL != source && Comm.ANY_SOURCE != source) {
            throw Errors.rank(op, comm.describe(), "source", source, comm.remoteSize(), " or Comm.ANY_SOURCE or Comm.PROC_NULL");
        }
    }

    public void sendTag(final String op, final int tag) {
        if (tag < 0) {
            throw Errors.tag(op, comm.describe(), tag, Comm.TAG_UB, "");
        }
    }

    public void recvTag(final String op, final int tag) {
        if (tag < 0 && Comm.ANY_TAG != tag) {
            throw Errors.tag(op, comm.describe(), tag, Comm.TAG_UB, " or Comm.ANY_TAG");
        }
    }
}
