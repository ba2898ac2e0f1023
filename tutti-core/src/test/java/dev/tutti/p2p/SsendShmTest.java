package dev.tutti.p2p;

import dev.tutti.testkit.ShmJob;

/** The synchronous-send contract over the shm transport, ranks as threads each with its own mapping (ShmJob). */
class SsendShmTest extends SsendContractTest {
    @Override
    int eager() {
        return 16 * 1024;
    }

    @Override
    void job(final int n, final int eagerLimit, final boolean finalizeAtEnd, final P2pContractTest.Body body) {
        ShmJob.run(n, ShmJob.config().withRing(1 << 20, eagerLimit), finalizeAtEnd, (world, shm) -> body.run(world,
            shm::abort));
    }
}
