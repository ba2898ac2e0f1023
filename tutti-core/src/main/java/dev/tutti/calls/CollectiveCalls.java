package dev.tutti.calls;

import dev.tutti.Buf;
import dev.tutti.CollectiveHandle;
import dev.tutti.ObjectSerializer;
import dev.tutti.Op;
import dev.tutti.PersistentRequest;
import dev.tutti.Request;
import dev.tutti.coll.CollComm;
import dev.tutti.coll.CollStart;
import dev.tutti.coll.door.CollDoor;
import dev.tutti.comm.ContextIdAllocator;
import dev.tutti.p2p.P2pEngine;

/**
 * The collective families of {@link Comm} ({@link BlockingCollectives}, {@link NonblockingCollectives},
 * {@link TaggedCollectives}, {@link PersistentCollectives}), implemented once for both communicator kinds: each
 * method asks the kind's {@link CollBridge} to check its arguments and fill in the call's descriptor, and hands
 * that to the engine's one door ({@link CollDoor}): {@code run} runs a blocking call and waits for it, {@code enter}
 * starts a nonblocking one, {@code begin} starts a tagged one, {@code init} builds a persistent one.
 */
public abstract class CollectiveCalls extends CommImpl {
    CollectiveCalls(final P2pEngine engine, final String name, final int p2pContext, final int[] worldRanks,
        final int[] peerRanks, final ObjectSerializer serializer, final ContextIdAllocator contexts) {
        super(engine, name, p2pContext, worldRanks, peerRanks, serializer, contexts);
    }

    @Override
    public void barrier() {
        CollDoor.run(bridge("barrier").barrier(CollStart.BLOCKING));
    }

    @Override
    public void bcast(final Buf buf, final int root) {
        CollDoor.run(bridge("bcast").bcast(CollStart.BLOCKING, buf, root));
    }

    @Override
    public void gather(final Buf send, final Buf recv, final int root) {
        CollDoor.run(bridge("gather").gather(CollStart.BLOCKING, send, recv, root));
    }

    @Override
    public void gatherv(final Buf send, final Buf recv, final int[] recvCounts, final int[] displs, final int root) {
        CollDoor.run(bridge("gatherv").gatherv(CollStart.BLOCKING, send, recv, recvCounts, displs, root));
    }

    @Override
    public void scatter(final Buf send, final Buf recv, final int root) {
        CollDoor.run(bridge("scatter").scatter(CollStart.BLOCKING, send, recv, root));
    }

    @Override
    public void scatterv(final Buf send, final int[] sendCounts, final int[] displs, final Buf recv, final int root) {
        CollDoor.run(bridge("scatterv").scatterv(CollStart.BLOCKING, send, sendCounts, displs, recv, root));
    }

    @Override
    public void allgather(final Buf send, final Buf recv) {
        CollDoor.run(bridge("allgather").allgather(CollStart.BLOCKING, send, recv));
    }

    @Override
    public void allgatherv(final Buf send, final Buf recv, final int[] recvCounts, final int[] displs) {
        CollDoor.run(bridge("allgatherv").allgatherv(CollStart.BLOCKING, send, recv, recvCounts, displs));
    }

    @Override
    public void alltoall(final Buf send, final Buf recv) {
        CollDoor.run(bridge("alltoall").alltoall(CollStart.BLOCKING, send, recv));
    }

    @Override
    public void alltoallv(final Buf send, final int[] sendCounts, final int[] sendDispls, final Buf recv,
        final int[] recvCounts, final int[] recvDispls) {
        CollDoor.run(bridge("alltoallv").alltoallv(CollStart.BLOCKING, send, sendCounts, sendDispls, recv,
            recvCounts, recvDispls));
    }

    @Override
    public void alltoallw(final Buf[] send, final Buf[] recv) {
        CollDoor.run(bridge("alltoallw").alltoallw(CollStart.BLOCKING, send, recv));
    }

    @Override
    public void reduce(final Buf send, final Buf recv, final Op op, final int root) {
        CollDoor.run(bridge("reduce").reduce(CollStart.BLOCKING, send, recv, op, root));
    }

    @Override
    public void allreduce(final Buf send, final Buf recv, final Op op) {
        CollDoor.run(bridge("allreduce").allreduce(CollStart.BLOCKING, send, recv, op));
    }

    @Override
    public void reduceScatter(final Buf send, final Buf recv, final int[] recvCounts, final Op op) {
        CollDoor.run(bridge("reduceScatter").reduceScatter(CollStart.BLOCKING, send, recv, recvCounts, op));
    }

    @Override
    public void reduceScatterBlock(final Buf send, final Buf recv, final Op op) {
        CollDoor.run(bridge("reduceScatterBlock").reduceScatterBlock(CollStart.BLOCKING, send, recv, op));
    }

    @Override
    public void bcast(final Buf send, final Buf recv, final int root, final int remoteRoot) {
        CollDoor.run(bridge("bcast").bcast(CollStart.BLOCKING, send, recv, root, remoteRoot));
    }

    @Override
    public void scatter(final Buf send, final Buf recv, final int root, final int remoteRoot) {
        CollDoor.run(bridge("scatter").scatter(CollStart.BLOCKING, send, recv, root, remoteRoot));
    }

    @Override
    public void gather(final Buf send, final Buf recv, final int root, final int remoteRoot) {
        CollDoor.run(bridge("gather").gather(CollStart.BLOCKING, send, recv, root, remoteRoot));
    }

    @Override
    public void reduce(final Buf send, final Buf recv, final Op op, final int root, final int remoteRoot) {
        CollDoor.run(bridge("reduce").reduce(CollStart.BLOCKING, send, recv, op, root, remoteRoot));
    }

    @Override
    public Request ibarrier() {
        return CollDoor.enter(bridge("ibarrier").barrier(CollStart.NONBLOCKING));
    }

    @Override
    public Request ibcast(final Buf buf, final int root) {
        return CollDoor.enter(bridge("ibcast").bcast(CollStart.NONBLOCKING, buf, root));
    }

    @Override
    public Request igather(final Buf send, final Buf recv, final int root) {
        return CollDoor.enter(bridge("igather").gather(CollStart.NONBLOCKING, send, recv, root));
    }

    @Override
    public Request igatherv(final Buf send, final Buf recv, final int[] recvCounts, final int[] displs,
        final int root) {
        return CollDoor.enter(bridge("igatherv").gatherv(CollStart.NONBLOCKING, send, recv, recvCounts, displs, root));
    }

    @Override
    public Request iscatter(final Buf send, final Buf recv, final int root) {
        return CollDoor.enter(bridge("iscatter").scatter(CollStart.NONBLOCKING, send, recv, root));
    }

    @Override
    public Request iscatterv(final Buf send, final int[] sendCounts, final int[] displs, final Buf recv,
        final int root) {
        return CollDoor.enter(bridge("iscatterv").scatterv(CollStart.NONBLOCKING, send, sendCounts, displs, recv,
            root));
    }

    @Override
    public Request iallgather(final Buf send, final Buf recv) {
        return CollDoor.enter(bridge("iallgather").allgather(CollStart.NONBLOCKING, send, recv));
    }

    @Override
    public Request iallgatherv(final Buf send, final Buf recv, final int[] recvCounts, final int[] displs) {
        return CollDoor.enter(bridge("iallgatherv").allgatherv(CollStart.NONBLOCKING, send, recv, recvCounts, displs));
    }

    @Override
    public Request ialltoall(final Buf send, final Buf recv) {
        return CollDoor.enter(bridge("ialltoall").alltoall(CollStart.NONBLOCKING, send, recv));
    }

    @Override
    public Request ialltoallv(final Buf send, final int[] sendCounts, final int[] sendDispls, final Buf recv,
        final int[] recvCounts, final int[] recvDispls) {
        return CollDoor.enter(bridge("ialltoallv").alltoallv(CollStart.NONBLOCKING, send, sendCounts, sendDispls,
            recv, recvCounts, recvDispls));
    }

    @Override
    public Request ialltoallw(final Buf[] send, final Buf[] recv) {
        return CollDoor.enter(bridge("ialltoallw").alltoallw(CollStart.NONBLOCKING, send, recv));
    }

    @Override
    public Request ireduce(final Buf send, final Buf recv, final Op op, final int root) {
        return CollDoor.enter(bridge("ireduce").reduce(CollStart.NONBLOCKING, send, recv, op, root));
    }

    @Override
    public Request iallreduce(final Buf send, final Buf recv, final Op op) {
        return CollDoor.enter(bridge("iallreduce").allreduce(CollStart.NONBLOCKING, send, recv, op));
    }

    @Override
    public Request ireduceScatter(final Buf send, final Buf recv, final int[] recvCounts, final Op op) {
        return CollDoor.enter(bridge("ireduceScatter").reduceScatter(CollStart.NONBLOCKING, send, recv, recvCounts,
            op));
    }

    @Override
    public Request ireduceScatterBlock(final Buf send, final Buf recv, final Op op) {
        return CollDoor.enter(bridge("ireduceScatterBlock").reduceScatterBlock(CollStart.NONBLOCKING, send, recv, op));
    }

    @Override
    public Request ibcast(final Buf send, final Buf recv, final int root, final int remoteRoot) {
        return CollDoor.enter(bridge("ibcast").bcast(CollStart.NONBLOCKING, send, recv, root, remoteRoot));
    }

    @Override
    public Request iscatter(final Buf send, final Buf recv, final int root, final int remoteRoot) {
        return CollDoor.enter(bridge("iscatter").scatter(CollStart.NONBLOCKING, send, recv, root, remoteRoot));
    }

    @Override
    public Request igather(final Buf send, final Buf recv, final int root, final int remoteRoot) {
        return CollDoor.enter(bridge("igather").gather(CollStart.NONBLOCKING, send, recv, root, remoteRoot));
    }

    @Override
    public Request ireduce(final Buf send, final Buf recv, final Op op, final int root, final int remoteRoot) {
        return CollDoor.enter(bridge("ireduce").reduce(CollStart.NONBLOCKING, send, recv, op, root, remoteRoot));
    }

    @Override
    public int collectiveTagUpperBound() {
        return CollComm.TAGGED_TAG_UB;
    }

    @Override
    public CollectiveHandle barrierBegin(final int tag) {
        return CollDoor.begin(bridge("barrierBegin").barrier(tagged("barrierBegin", tag)));
    }

    @Override
    public CollectiveHandle bcastBegin(final Buf buf, final int root, final int tag) {
        return CollDoor.begin(bridge("bcastBegin").bcast(tagged("bcastBegin", tag), buf, root));
    }

    @Override
    public CollectiveHandle gatherBegin(final Buf send, final Buf recv, final int root, final int tag) {
        return CollDoor.begin(bridge("gatherBegin").gather(tagged("gatherBegin", tag), send, recv, root));
    }

    @Override
    public CollectiveHandle gathervBegin(final Buf send, final Buf recv, final int[] recvCounts, final int[] displs,
        final int root, final int tag) {
        return CollDoor.begin(bridge("gathervBegin").gatherv(tagged("gathervBegin", tag), send, recv, recvCounts,
            displs, root));
    }

    @Override
    public CollectiveHandle scatterBegin(final Buf send, final Buf recv, final int root, final int tag) {
        return CollDoor.begin(bridge("scatterBegin").scatter(tagged("scatterBegin", tag), send, recv, root));
    }

    @Override
    public CollectiveHandle scattervBegin(final Buf send, final int[] sendCounts, final int[] displs, final Buf recv,
        final int root, final int tag) {
        return CollDoor.begin(bridge("scattervBegin").scatterv(tagged("scattervBegin", tag), send, sendCounts,
            displs, recv, root));
    }

    @Override
    public CollectiveHandle allgatherBegin(final Buf send, final Buf recv, final int tag) {
        return CollDoor.begin(bridge("allgatherBegin").allgather(tagged("allgatherBegin", tag), send, recv));
    }

    @Override
    public CollectiveHandle allgathervBegin(final Buf send, final Buf recv, final int[] recvCounts, final int[] displs,
        final int tag) {
        return CollDoor.begin(bridge("allgathervBegin").allgatherv(tagged("allgathervBegin", tag), send, recv,
            recvCounts, displs));
    }

    @Override
    public CollectiveHandle alltoallBegin(final Buf send, final Buf recv, final int tag) {
        return CollDoor.begin(bridge("alltoallBegin").alltoall(tagged("alltoallBegin", tag), send, recv));
    }

    @Override
    public CollectiveHandle alltoallvBegin(final Buf send, final int[] sendCounts, final int[] sendDispls,
        final Buf recv, final int[] recvCounts, final int[] recvDispls, final int tag) {
        return CollDoor.begin(bridge("alltoallvBegin").alltoallv(tagged("alltoallvBegin", tag), send, sendCounts,
            sendDispls, recv, recvCounts, recvDispls));
    }

    @Override
    public CollectiveHandle alltoallwBegin(final Buf[] send, final Buf[] recv, final int tag) {
        return CollDoor.begin(bridge("alltoallwBegin").alltoallw(tagged("alltoallwBegin", tag), send, recv));
    }

    @Override
    public CollectiveHandle reduceBegin(final Buf send, final Buf recv, final Op op, final int root, final int tag) {
        return CollDoor.begin(bridge("reduceBegin").reduce(tagged("reduceBegin", tag), send, recv, op, root));
    }

    @Override
    public CollectiveHandle allreduceBegin(final Buf send, final Buf recv, final Op op, final int tag) {
        return CollDoor.begin(bridge("allreduceBegin").allreduce(tagged("allreduceBegin", tag), send, recv, op));
    }

    @Override
    public CollectiveHandle reduceScatterBegin(final Buf send, final Buf recv, final int[] recvCounts, final Op op,
        final int tag) {
        return CollDoor.begin(bridge("reduceScatterBegin").reduceScatter(tagged("reduceScatterBegin", tag), send,
            recv, recvCounts, op));
    }

    @Override
    public CollectiveHandle reduceScatterBlockBegin(final Buf send, final Buf recv, final Op op, final int tag) {
        return CollDoor.begin(bridge("reduceScatterBlockBegin").reduceScatterBlock(tagged("reduceScatterBlockBegin",
            tag), send, recv, op));
    }

    @Override
    public CollectiveHandle bcastBegin(final Buf send, final Buf recv, final int root, final int remoteRoot,
        final int tag) {
        return CollDoor.begin(bridge("bcastBegin").bcast(tagged("bcastBegin", tag), send, recv, root, remoteRoot));
    }

    @Override
    public CollectiveHandle scatterBegin(final Buf send, final Buf recv, final int root, final int remoteRoot,
        final int tag) {
        return CollDoor.begin(bridge("scatterBegin").scatter(tagged("scatterBegin", tag), send, recv, root,
            remoteRoot));
    }

    @Override
    public CollectiveHandle gatherBegin(final Buf send, final Buf recv, final int root, final int remoteRoot,
        final int tag) {
        return CollDoor.begin(bridge("gatherBegin").gather(tagged("gatherBegin", tag), send, recv, root, remoteRoot));
    }

    @Override
    public CollectiveHandle reduceBegin(final Buf send, final Buf recv, final Op op, final int root,
        final int remoteRoot, final int tag) {
        return CollDoor.begin(bridge("reduceBegin").reduce(tagged("reduceBegin", tag), send, recv, op, root,
            remoteRoot));
    }

    @Override
    public PersistentRequest barrierInit() {
        return CollDoor.init(bridge("barrierInit").barrier(CollStart.PERSISTENT));
    }

    @Override
    public PersistentRequest bcastInit(final Buf buf, final int root) {
        CollChecks.persistable("bcastInit", describe(), buf);
        return CollDoor.init(bridge("bcastInit").bcast(CollStart.PERSISTENT, buf, root));
    }

    @Override
    public PersistentRequest gatherInit(final Buf send, final Buf recv, final int root) {
        CollChecks.persistable("gatherInit", describe(), send, recv);
        return CollDoor.init(bridge("gatherInit").gather(CollStart.PERSISTENT, send, recv, root));
    }

    @Override
    public PersistentRequest gathervInit(final Buf send, final Buf recv, final int[] recvCounts, final int[] displs,
        final int root) {
        CollChecks.persistable("gathervInit", describe(), send, recv);
        return CollDoor.init(bridge("gathervInit").gatherv(CollStart.PERSISTENT, send, recv, recvCounts, displs, root));
    }

    @Override
    public PersistentRequest scatterInit(final Buf send, final Buf recv, final int root) {
        CollChecks.persistable("scatterInit", describe(), send, recv);
        return CollDoor.init(bridge("scatterInit").scatter(CollStart.PERSISTENT, send, recv, root));
    }

    @Override
    public PersistentRequest scattervInit(final Buf send, final int[] sendCounts, final int[] displs, final Buf recv,
        final int root) {
        CollChecks.persistable("scattervInit", describe(), send, recv);
        return CollDoor.init(bridge("scattervInit").scatterv(CollStart.PERSISTENT, send, sendCounts, displs, recv,
            root));
    }

    @Override
    public PersistentRequest allgatherInit(final Buf send, final Buf recv) {
        CollChecks.persistable("allgatherInit", describe(), send, recv);
        return CollDoor.init(bridge("allgatherInit").allgather(CollStart.PERSISTENT, send, recv));
    }

    @Override
    public PersistentRequest allgathervInit(final Buf send, final Buf recv, final int[] recvCounts,
        final int[] displs) {
        CollChecks.persistable("allgathervInit", describe(), send, recv);
        return CollDoor.init(bridge("allgathervInit").allgatherv(CollStart.PERSISTENT, send, recv, recvCounts, displs));
    }

    @Override
    public PersistentRequest alltoallInit(final Buf send, final Buf recv) {
        CollChecks.persistable("alltoallInit", describe(), send, recv);
        return CollDoor.init(bridge("alltoallInit").alltoall(CollStart.PERSISTENT, send, recv));
    }

    @Override
    public PersistentRequest alltoallvInit(final Buf send, final int[] sendCounts, final int[] sendDispls,
        final Buf recv, final int[] recvCounts, final int[] recvDispls) {
        CollChecks.persistable("alltoallvInit", describe(), send, recv);
        return CollDoor.init(bridge("alltoallvInit").alltoallv(CollStart.PERSISTENT, send, sendCounts, sendDispls, recv,
            recvCounts, recvDispls));
    }

    @Override
    public PersistentRequest alltoallwInit(final Buf[] send, final Buf[] recv) {
        CollChecks.persistable("alltoallwInit", describe(), send, recv);
        return CollDoor.init(bridge("alltoallwInit").alltoallw(CollStart.PERSISTENT, send, recv));
    }

    @Override
    public PersistentRequest reduceInit(final Buf send, final Buf recv, final Op op, final int root) {
        CollChecks.persistable("reduceInit", describe(), send, recv);
        return CollDoor.init(bridge("reduceInit").reduce(CollStart.PERSISTENT, send, recv, op, root));
    }

    @Override
    public PersistentRequest allreduceInit(final Buf send, final Buf recv, final Op op) {
        CollChecks.persistable("allreduceInit", describe(), send, recv);
        return CollDoor.init(bridge("allreduceInit").allreduce(CollStart.PERSISTENT, send, recv, op));
    }

    @Override
    public PersistentRequest reduceScatterInit(final Buf send, final Buf recv, final int[] recvCounts, final Op op) {
        CollChecks.persistable("reduceScatterInit", describe(), send, recv);
        return CollDoor.init(bridge("reduceScatterInit").reduceScatter(CollStart.PERSISTENT, send, recv, recvCounts,
            op));
    }

    @Override
    public PersistentRequest reduceScatterBlockInit(final Buf send, final Buf recv, final Op op) {
        CollChecks.persistable("reduceScatterBlockInit", describe(), send, recv);
        return CollDoor.init(bridge("reduceScatterBlockInit").reduceScatterBlock(CollStart.PERSISTENT, send, recv, op));
    }

    @Override
    public PersistentRequest bcastInit(final Buf send, final Buf recv, final int root, final int remoteRoot) {
        CollChecks.persistable("bcastInit", describe(), send, recv);
        return CollDoor.init(bridge("bcastInit").bcast(CollStart.PERSISTENT, send, recv, root, remoteRoot));
    }

    @Override
    public PersistentRequest scatterInit(final Buf send, final Buf recv, final int root, final int remoteRoot) {
        CollChecks.persistable("scatterInit", describe(), send, recv);
        return CollDoor.init(bridge("scatterInit").scatter(CollStart.PERSISTENT, send, recv, root, remoteRoot));
    }

    @Override
    public PersistentRequest gatherInit(final Buf send, final Buf recv, final int root, final int remoteRoot) {
        CollChecks.persistable("gatherInit", describe(), send, recv);
        return CollDoor.init(bridge("gatherInit").gather(CollStart.PERSISTENT, send, recv, root, remoteRoot));
    }

    @Override
    public PersistentRequest reduceInit(final Buf send, final Buf recv, final Op op, final int root,
        final int remoteRoot) {
        CollChecks.persistable("reduceInit", describe(), send, recv);
        return CollDoor.init(bridge("reduceInit").reduce(CollStart.PERSISTENT, send, recv, op, root, remoteRoot));
    }

    /**
     * Returns this communicator's bridge to the collective engine, after checking that it is live.
     *
     * @param op the operation, for the message if it is freed
     * @return the bridge
     */
    abstract CollBridge bridge(String op);

    /** @return the start of a tagged two-phase collective, after checking the tag */
    final CollStart tagged(final String op, final int tag) {
        CollChecks.tag(op, describe(), tag);
        return CollStart.tagged(tag);
    }
}
