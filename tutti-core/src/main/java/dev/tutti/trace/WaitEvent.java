package dev.tutti.trace;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A wait of the program's for a request that was not complete when asked: how long the thread waited, and for what.
 * It takes no stack (it names its request, whose nonblocking call has the call site). The waits inside a blocking
 * call, point-to-point or collective, are none: the call's own event spans them.
 */
@Name(WaitEvent.NAME)
@Label("Wait")
@Category({"Tutti", "Wait"})
@Description("A wait for a request that had not completed: the request's operation, peer and tag")
@StackTrace(false)
public final class WaitEvent extends jdk.jfr.Event {
    /** The event's name in a recording. */
    public static final String NAME = "dev.tutti.Wait";

    @Label("Operation")
    @Description("What the request does: send, recv, or the collective's MPI name")
    String op;

    @Label("Request")
    @Description("The identity hash of the request, as the nonblocking call that returned it recorded it")
    int request;

    @Label("Rank")
    @Description("The world rank")
    int rank;

    @Label("Peer")
    @Description("The world rank waited for; -1 for any or several")
    int peer;

    @Label("Tag")
    int tag;
}
