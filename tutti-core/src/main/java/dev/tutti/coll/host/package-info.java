/**
 * The on-host collective layer: the collectives of a communicator whose ranks all share memory, blocking,
 * nonblocking and persistent starts alike, moved through a region of that memory set up once per communicator
 * (sequence flags and data slots per rank), with no message and no matching.
 * {@link dev.tutti.coll.host.HostCollectives} is its entry (the door calls it; a persistent request asks the
 * communicator's {@code HostState}), {@link dev.tutti.coll.host.HostRegion} a communicator's region and its
 * protocol (publication, waits, the order of runs), {@link dev.tutti.coll.host.HostCells} its cells as one rank
 * reads and writes them, {@link dev.tutti.coll.host.HostSteps} its algorithms as one
 * table, {@link dev.tutti.coll.host.HostWords} the words a call publishes and the text of a mismatch,
 * {@link dev.tutti.coll.host.HostWait} how a rank waits for a peer's word,
 * {@link dev.tutti.coll.host.HostRun} the run of a call that completes after its start,
 * {@link dev.tutti.coll.host.HostChunks} its blocking calls past the cells' limit, pipelined through a chunk area,
 * {@link dev.tutti.coll.host.HostChunkRoad} which of those calls take the chunks,
 * {@link dev.tutti.coll.host.HostLayout} the region's layout. Which calls take it is decided by
 * {@code dev.tutti.coll.Road}. Below the door, above the engine's algorithms (it agrees its region with one of
 * them).
 */
package dev.tutti.coll.host;
