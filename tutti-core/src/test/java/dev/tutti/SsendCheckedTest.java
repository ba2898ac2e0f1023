package dev.tutti;

/**
 * The synchronous-send contract in-process with the correctness checker on: the message's code carries the sender's
 * call site besides the synchronous bit, and both must be read right.
 */
class SsendCheckedTest extends SsendContractTest {
    @Override
    int eager() {
        return 4096;
    }

    @Override
    void job(final int n, final int eagerLimit, final boolean finalizeAtEnd, final P2pContractTest.Body body) {
        Tutti.runLocal(n, CheckerTest.CHECKED, w -> body.run(w, () -> { }));
    }
}
