package dev.tutti.trace;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * This rank's wall clock against rank 0's, estimated at job start by a few ping-pongs: a merger adds
 * {@code offset} to this rank's times to put them on rank 0's clock.
 */
@Name(ClockOffsetEvent.NAME)
@Label("Clock offset")
@Category({"Tutti", "Clock"})
@Description("This rank's clock offset to rank 0, from the ping-pong of least round trip at job start")
@StackTrace(false)
public final class ClockOffsetEvent extends jdk.jfr.Event {
    /** The event's name in a recording. */
    public static final String NAME = "dev.tutti.ClockOffset";

    @Label("Rank")
    int rank;

    @Label("Size")
    @Description("The job's size")
    int size;

    @Label("Offset")
    @Description("Rank 0's clock minus this rank's, in nanoseconds")
    long offset;

    @Label("Round trip")
    @Timespan(Timespan.NANOSECONDS)
    long roundTrip;

    @Label("Wall clock")
    @Description("This rank's wall clock (ns since the epoch) when the event was committed, to relate the "
        + "recording's timestamps to the clock the offset was measured on")
    long wallNanos;
}
