package dev.tutti.trace;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * What this rank's recording holds of Tutti's calls: committed once, when the recording starts, so that a reader
 * knows whether the call sites it finds are every call's or a sample's.
 */
@Name(RecordingEvent.NAME)
@Label("Recording")
@Category({"Tutti", "Recording"})
@Description("The rank and which of its point-to-point and collective calls took their stack (tutti.jfr.stacks)")
@StackTrace(false)
public final class RecordingEvent extends jdk.jfr.Event {
    /** The event's name in a recording. */
    public static final String NAME = "dev.tutti.Recording";

    @Label("Rank")
    @Description("The world rank")
    int rank;

    @Label("Stacks")
    @Description("on (every call takes its stack), sampled or off (the setting tutti.jfr.stacks)")
    String stacks;

    @Label("Stack sample")
    @Description("Calls per call with a stack, on average, on each thread: 1 for every call, 0 for none")
    int stackSample;

    RecordingEvent() {
    }
}
