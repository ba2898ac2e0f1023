package dev.tutti.transport.shm;

import dev.tutti.p2p.P2pContractTest;
import dev.tutti.testkit.ShmJob;

/**
 * The point-to-point contract over shm with every large message on the clear-to-send handshake (push limit 0),
 * the protocol that {@link ShmP2pTest} exercises only above the push limit.
 */
class ShmHandshakeP2pTest extends P2pContractTest {
    @Override
    public int eager() {
        return 16 * 1024;
    }

    @Override
    public void job(final int n, final int eagerLimit, final boolean finalizeAtEnd, final Body body) {
        ShmJob.run(n, ShmJob.config().withRing(1 << 20, eagerLimit).withPushLimit(0), finalizeAtEnd,
            (world, shm) -> body.run(world, shm::abort));
    }
}
