package dev.tutti.trace;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** One exchange of an alltoall channel on this rank, from its start to the moment the rank saw it complete. */
@Name(ChannelExchangeEvent.NAME)
@Label("Channel exchange")
@Category({"Tutti", "Channel"})
@Description("One exchange of an alltoall channel: its number, bytes sent by this rank and the road of its data")
@StackTrace(false)
public final class ChannelExchangeEvent extends jdk.jfr.Event {
    /** The event's name in a recording. */
    public static final String NAME = "dev.tutti.ChannelExchange";

    @Label("Channel")
    String channel;

    @Label("Rank")
    @Description("The world rank")
    int rank;

    @Label("Exchange")
    @Description("The exchange's number, 0 first, the same on every rank")
    long number;

    @Label("Bytes")
    @DataAmount
    long bytes;

    @Label("Road")
    @Description("alltoall (persistent alltoall messages) or window (blocks through a shared window)")
    String road;
}
