package dev.tutti.coll;

import dev.tutti.Request;

/**
 * A call's run through its communicator's on-host region that completes after its start: a nonblocking call's, or a
 * persistent request's start ({@link HostState#start}). Made and advanced by the on-host layer
 * ({@code dev.tutti.coll.host}); a test or wait that sees it complete has its output in the call's buffers. Asked by
 * one thread at a time, as every request.
 */
public interface RegionRun extends Request {
}
