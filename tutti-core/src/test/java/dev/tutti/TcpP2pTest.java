package dev.tutti;

/** The point-to-point contract over the tcp transport, ranks as threads each wired like a process. */
class TcpP2pTest extends P2pContractTest {
    @Override
    int eager() {
        return 64 * 1024;
    }

    @Override
    void job(final int n, final int eagerLimit, final boolean finalizeAtEnd, final Body body) {
        TcpJob.run(n, eagerLimit, finalizeAtEnd, (world, tcp) -> body.run(world, tcp::abort));
    }
}
