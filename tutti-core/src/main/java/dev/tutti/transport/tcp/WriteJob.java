package dev.tutti.transport.tcp;

/**
 * Outgoing bytes that did not fit into a connection's {@link OutBuffer} when they were sent, queued in the
 * connection's backlog in send order. Only the I/O thread fills jobs into the buffer, under the write lock.
 */
abstract class WriteJob {

    /**
     * Appends as much of this job as fits (a job that cannot make useful progress appends nothing).
     *
     * @param out the staging buffer
     * @return true if the job has now been appended entirely
     */
    abstract boolean fill(OutBuffer out);

    /**
     * Whether the job goes to the back of the backlog after a partial fill, so that other frames interleave
     * (streams), or stays at the front (frames, whose bytes must not be interleaved).
     *
     * @return true for streams
     */
    abstract boolean rotates();
}
