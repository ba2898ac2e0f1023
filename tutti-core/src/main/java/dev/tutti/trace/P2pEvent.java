package dev.tutti.trace;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** One point-to-point call of the program: a blocking call lasts until it returns, a nonblocking one its start. */
@Name(P2pEvent.NAME)
@Label("Point-to-point")
@Category({"Tutti", "Point-to-point"})
@Description("A point-to-point call: operation, communicator, peer, tag and bytes")
@StackTrace(true)
public final class P2pEvent extends jdk.jfr.Event {
    /** The event's name in a recording. */
    public static final String NAME = "dev.tutti.P2p";

    @Label("Operation")
    @Description("send, isend, ssend, issend, recv, irecv, sendrecv, probe")
    String op;

    @Label("Rank")
    @Description("The world rank that made the call")
    int rank;

    @Label("Communicator")
    String comm;

    @Label("Peer")
    @Description("The destination or source, a rank of the communicator; -1 for any source, -2 for none")
    int peer;

    @Label("Tag")
    @Description("The tag; -1 for any tag")
    int tag;

    @Label("Bytes")
    @DataAmount
    long bytes;

    @Label("Request")
    @Description("The identity hash of the request a nonblocking call returned (0 for a blocking call), which the "
        + "waits for it name")
    int request;
}
