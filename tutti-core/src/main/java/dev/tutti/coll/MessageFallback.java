package dev.tutti.coll;

import dev.tutti.Request;

/**
 * How a call whose road its ranks agree after its start ({@link Road#agreedLater}) goes to the message layer once
 * its run through the on-host region learns that a rank offered no cells: its run starts there under the tag drawn
 * at the call's start, which every rank drew at the same place of its call order. The caller of
 * {@link HostState#start} gives it: the door for a nonblocking call, the persistent request for a start.
 */
@FunctionalInterface
public interface MessageFallback {
    /**
     * Starts the call's run on the message layer. Called at most once per start, by whichever thread of the rank
     * finds the road (a test or wait of the run, or a pass of the rank's progress), holding no lock of the region.
     *
     * @param call     the call
     * @param tag      the tag drawn at its start
     * @param hostCall its number in the communicator's on-host region ({@link CollCall#hostCall()})
     * @return the started run
     */
    Request start(CollCall call, int tag, long hostCall);
}
