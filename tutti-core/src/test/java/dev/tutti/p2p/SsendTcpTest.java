package dev.tutti.p2p;

import dev.tutti.testkit.TcpJob;

/** The synchronous-send contract over the tcp transport, ranks as threads each wired like a process (TcpJob). */
class SsendTcpTest extends SsendContractTest {
    @Override
    int eager() {
        return 64 * 1024;
    }

    @Override
    void job(final int n, final int eagerLimit, final boolean finalizeAtEnd, final P2pContractTest.Body body) {
        TcpJob.run(n, eagerLimit, finalizeAtEnd, (world, tcp) -> body.run(world, tcp::abort));
    }
}
