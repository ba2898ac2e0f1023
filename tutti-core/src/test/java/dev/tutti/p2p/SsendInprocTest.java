package dev.tutti.p2p;

import dev.tutti.Tutti;

/**
 * The synchronous-send contract in-process ({@link Tutti#runLocal}), where a rank dies by returning from its body
 * (its peers see it leave).
 */
class SsendInprocTest extends SsendContractTest {
    @Override
    int eager() {
        return 4096;
    }

    @Override
    void job(final int n, final int eagerLimit, final boolean finalizeAtEnd, final P2pContractTest.Body body) {
        Tutti.runLocal(n, P2pBufferTest.OPTS, w -> body.run(w, () -> { }));
    }
}
