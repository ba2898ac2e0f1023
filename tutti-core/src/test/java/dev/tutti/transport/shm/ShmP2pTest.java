package dev.tutti.transport.shm;

import dev.tutti.p2p.P2pContractTest;
import dev.tutti.testkit.ShmJob;

/**
 * The point-to-point contract over the shm transport, ranks as threads each with its own mapping of the job file
 * (see {@link ShmJob}).
 */
class ShmP2pTest extends P2pContractTest {
    @Override
    public int eager() {
        return 16 * 1024;
    }

    @Override
    public void job(final int n, final int eagerLimit, final boolean finalizeAtEnd, final Body body) {
        ShmJob.run(n, ShmJob.config().withRing(1 << 20, eagerLimit), finalizeAtEnd, (world, shm) -> body.run(world,
            shm::abort));
    }
}
