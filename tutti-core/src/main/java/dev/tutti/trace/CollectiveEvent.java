package dev.tutti.trace;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * One collective call of the program on this rank: a blocking call lasts until it returns; a nonblocking, tagged or
 * persistent call's event is its start (the wait for it is a {@link WaitEvent} if it blocks). Two event types share
 * these fields: {@link Plain}, without the stack, and {@link Stacked}, with it; the setting {@code tutti.jfr.stacks}
 * says which calls take the second ({@link Trace#collective()}), since the Flight Recorder takes a stack per event
 * type, not per event.
 */
@Category({"Tutti", "Collective"})
public abstract class CollectiveEvent extends jdk.jfr.Event {
    /** The name in a recording of the calls without their stack. */
    public static final String NAME = "dev.tutti.Collective";
    /** The name in a recording of the calls with their stack. */
    public static final String STACKED = "dev.tutti.CollectiveWithStack";

    @Label("Operation")
    @Description("The collective, by its MPI name: allreduce, bcast, ...")
    String op;

    @Label("Variant")
    @Description("blocking, nonblocking, tagged or persistent")
    String variant;

    @Label("Rank")
    @Description("The world rank that made the call")
    int rank;

    @Label("Communicator")
    String comm;

    @Label("Context")
    @Description("The communicator's collective context id, the same on every member")
    int context;

    @Label("Size")
    @Description("The communicator's size (an intercommunicator's local group)")
    int size;

    @Label("Root")
    @Description("The root, a rank of the communicator; -1 for a rootless collective")
    int root;

    @Label("Bytes")
    @Description("This rank's bytes as the algorithm selection counts them")
    @DataAmount
    long bytes;

    @Label("Algorithm")
    String algorithm;

    @Label("Road")
    @Description("How the data moves: messages, or slots of memory shared with the peers (persistent calls)")
    String road;

    @Label("Request")
    @Description("The identity hash of the request a nonblocking call returned (0 for a blocking call), which the "
        + "waits for it name")
    int request;

    private CollectiveEvent() {
    }

    /** A collective call without its stack. */
    @Name(NAME)
    @Label("Collective")
    @Description("A collective call: operation, variant, communicator, root, bytes, algorithm and the road of its "
        + "data")
    @StackTrace(false)
    public static final class Plain extends CollectiveEvent {
        Plain() {
        }
    }

    /** A collective call with its stack: its call site. */
    @Name(STACKED)
    @Label("Collective, with stack")
    @Description("A collective call whose stack was taken (setting tutti.jfr.stacks): the fields of " + NAME
        + " and the call's stack")
    @StackTrace(true)
    public static final class Stacked extends CollectiveEvent {
        Stacked() {
        }
    }
}
