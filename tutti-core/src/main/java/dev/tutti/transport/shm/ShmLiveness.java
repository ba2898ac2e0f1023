package dev.tutti.transport.shm;

/**
 * Whether the peers that a {@link ShmTransport} serves are still there: each one's slot in the job file (left,
 * aborted) and its process, as found when the transport started.
 *
 * <p>Implementation notes. Built by {@link ShmTransport#start} and published by its volatile store of the served
 * peers; then only the poll-token holder reads it, every {@code livenessMs}. {@code isAlive()} on the
 * {@link ProcessHandle} found at start ({@link ShmFile#process}) is cheap and tells a reused pid from the peer, as
 * the handle compares the process's start time. A peer whose slot says it left is not failed here: its goodbye is
 * in the inbox, after its last message, and the poller reads it in order.
 */
final class ShmLiveness {
    private final ShmFile file;
    /* Per served peer, its pid and its process as seen at start (null if it was gone already). */
    private final long[] pids;
    private final ProcessHandle[] processes;

    /**
     * Looks up the served peers' processes.
     *
     * @param file   the job file
     * @param served per world rank, whether the transport serves it
     */
    ShmLiveness(final ShmFile file, final boolean[] served) {
        this.file = file;
        this.pids = new long[served.length];
        this.processes = new ProcessHandle[served.length];
        for (int r = 0; r < served.length; r++) {
            if (served[r]) {
                pids[r] = file.pid(r);
                processes[r] = ShmFile.process(pids[r], file.startMillis(r));
            }
        }
    }

    /**
     * Checks a served peer.
     *
     * @param r the peer's world rank
     * @return why it counts as failed, or null if it is alive or left with goodbye
     */
    String failure(final int r) {
        final long state = file.state(r);
        if (ShmLayoutDescriptor.STATE_ABORTED == state) {
            return "its shm transport was aborted (closed without goodbye)";
        }
        if (ShmLayoutDescriptor.STATE_LEFT != state && (null == processes[r] || !processes[r].isAlive())) {
            return "its process (pid " + pids[r] + ") is gone";
        }
        return null;
    }
}
