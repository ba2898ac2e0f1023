package dev.tutti.trace;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * One point-to-point call of the program: a blocking call lasts until it returns, a nonblocking one its start. Two
 * event types share these fields: {@link Plain}, without the stack, and {@link Stacked}, with it; the setting
 * {@code tutti.jfr.stacks} says which calls take the second ({@link Trace#p2p()}), since the Flight Recorder takes a
 * stack per event type, not per event.
 */
@Category({"Tutti", "Point-to-point"})
public abstract class P2pEvent extends jdk.jfr.Event {
    /** The name in a recording of the calls without their stack. */
    public static final String NAME = "dev.tutti.P2p";
    /** The name in a recording of the calls with their stack. */
    public static final String STACKED = "dev.tutti.P2pWithStack";

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

    private P2pEvent() {
    }

    /** A point-to-point call without its stack. */
    @Name(NAME)
    @Label("Point-to-point")
    @Description("A point-to-point call: operation, communicator, peer, tag and bytes")
    @StackTrace(false)
    public static final class Plain extends P2pEvent {
        Plain() {
        }
    }

    /** A point-to-point call with its stack: its call site. */
    @Name(STACKED)
    @Label("Point-to-point, with stack")
    @Description("A point-to-point call whose stack was taken (setting tutti.jfr.stacks): the fields of "
        + NAME + " and the call's stack")
    @StackTrace(true)
    public static final class Stacked extends P2pEvent {
        Stacked() {
        }
    }
}
