package dev.tutti.transport.tcp;

import dev.tutti.p2p.P2pContractTest;
import dev.tutti.testkit.TcpJob;

/** The point-to-point contract over the tcp transport, ranks as threads each wired like a process. */
class TcpP2pTest extends P2pContractTest {
    @Override
    public int eager() {
        return 64 * 1024;
    }

    @Override
    public void job(final int n, final int eagerLimit, final boolean finalizeAtEnd, final Body body) {
        TcpJob.run(n, eagerLimit, finalizeAtEnd, (world, tcp) -> body.run(world, tcp::abort));
    }
}
