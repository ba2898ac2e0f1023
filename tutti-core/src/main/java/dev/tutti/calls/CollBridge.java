package dev.tutti.calls;

import dev.tutti.BlockingCollectives;
import dev.tutti.Buf;
import dev.tutti.Comm;
import dev.tutti.Op;
import dev.tutti.coll.CollCall;
import dev.tutti.coll.CollStart;

/**
 * A communicator kind's bridge to the collective engine: each method checks a collective's arguments as this kind
 * defines them, before anything is sent, and returns the call's descriptor, which {@link Comm} hands to the
 * engine's one door ({@code dev.tutti.coll.door.CollDoor}) as the call's variant says (run and wait, start, or begin a
 * tagged run). The roots and buffers mean what {@link BlockingCollectives} says for each kind: on an
 * intracommunicator ({@link IntraBridge}) the ordinary collectives, the symmetric forms with one root; on an
 * intercommunicator ({@link InterBridge}) MPI's one-way forms and the symmetric ones.
 */
public interface CollBridge {
    CollCall barrier(CollStart start);

    CollCall bcast(CollStart start, Buf buf, int root);

    CollCall bcast(CollStart start, Buf send, Buf recv, int root, int remoteRoot);

    CollCall gather(CollStart start, Buf send, Buf recv, int root);

    CollCall gather(CollStart start, Buf send, Buf recv, int root, int remoteRoot);

    CollCall gatherv(CollStart start, Buf send, Buf recv, int[] recvCounts, int[] displs, int root);

    CollCall scatter(CollStart start, Buf send, Buf recv, int root);

    CollCall scatter(CollStart start, Buf send, Buf recv, int root, int remoteRoot);

    CollCall scatterv(CollStart start, Buf send, int[] sendCounts, int[] displs, Buf recv, int root);

    CollCall allgather(CollStart start, Buf send, Buf recv);

    CollCall allgatherv(CollStart start, Buf send, Buf recv, int[] recvCounts, int[] displs);

    CollCall alltoall(CollStart start, Buf send, Buf recv);

    CollCall alltoallv(CollStart start, Buf send, int[] sendCounts, int[] sendDispls, Buf recv, int[] recvCounts,
        int[] recvDispls);

    CollCall alltoallw(CollStart start, Buf[] send, Buf[] recv);

    CollCall reduce(CollStart start, Buf send, Buf recv, Op op, int root);

    CollCall reduce(CollStart start, Buf send, Buf recv, Op op, int root, int remoteRoot);

    CollCall allreduce(CollStart start, Buf send, Buf recv, Op op);

    CollCall reduceScatter(CollStart start, Buf send, Buf recv, int[] recvCounts, Op op);

    CollCall reduceScatterBlock(CollStart start, Buf send, Buf recv, Op op);
}
