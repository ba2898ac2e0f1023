package dev.tutti.internal;

import dev.tutti.ErrorClass;
import dev.tutti.TuttiException;

/**
 * Factories for what goes wrong below the caller: a peer that failed or left, a timeout, an I/O error, a protocol
 * violation, an internal invariant, a serialization failure, and a failure passed on with the context of the
 * operation it broke. The head of each message is {@link Errors#at}'s {@code op (where)}; the families read:
 *
 * <pre>
 *   op (where): what: cause                         a failure with its cause ({@link #failed}, {@link #io})
 *   op (where): what within N ms; detail            a timeout
 *   op (where): protocol violation: detail          a peer or file that does not speak Tutti's protocol
 *   rank N failed: how  /  rank N closed (...)  /  rank N aborted: cause      a peer
 * </pre>
 *
 * <p>Below the operations, where there is no {@code op (where)} to name, a state that should not arise (a job file
 * that other ranks made differently, a kind a switch does not handle, a frame that breaks the wire protocol) is an
 * {@link IllegalStateException} from {@link #badState}, which the operation above catches or lets through as a bug.
 *
 * <p>The peer wording ({@code rank N failed}, {@code rank N closed}, {@code rank N has left the job}) is read by the
 * launcher to tell a rank that failed on its own from one that failed because a peer did: keep it.
 */
public final class Failures {
    private Failures() {
    }

    /**
     * A failure with its cause: {@code op (where): what: cause}; a Tutti cause gives its message, any other its
     * {@code toString()}.
     *
     * @param errorClass the class
     * @param op         the operation
     * @param where      where it ran, or null
     * @param what       what failed, e.g. {@code "send to rank=1 failed"}
     * @param cause      the underlying failure, or null
     * @return the exception
     */
    public static TuttiException failed(final ErrorClass errorClass, final String op, final String where,
        final String what, final Throwable cause) {
        final String because = null == cause ? "" : ": " + (cause instanceof TuttiException te ? te.getMessage()
            : cause.toString());
        return new TuttiException(errorClass, Errors.at(op, where) + ": " + what + because, cause);
    }

    /**
     * A Tutti failure passed on with the operation it broke; the class stays the cause's.
     *
     * @param cause the failure
     * @param op    the operation it broke
     * @param where where that ran, or null
     * @param what  what could not be done, e.g. {@code "cannot complete"}
     * @return the exception
     */
    public static TuttiException wrap(final TuttiException cause, final String op, final String where,
        final String what) {
        return failed(cause.errorClass(), op, where, what, cause);
    }

    /**
     * A failure recorded on one thread (a peer's, the progress engine's) thrown again on the caller's, so that its
     * stack shows the caller; class and message stay.
     *
     * @param recorded the failure
     * @return the exception
     */
    public static TuttiException rethrown(final TuttiException recorded) {
        return new TuttiException(recorded.errorClass(), recorded.getMessage(), recorded);
    }

    /**
     * An I/O error below the library: {@code op (where): what: cause}.
     *
     * @param op    the operation
     * @param where where it ran, or null
     * @param what  what failed, e.g. {@code "handshake failed"}
     * @param cause the I/O error
     * @return the exception, of class {@link ErrorClass#INTERN}
     */
    public static TuttiException io(final String op, final String where, final String what,
        final Exception cause) {
        return failed(ErrorClass.INTERN, op, where, what, cause);
    }

    /**
     * An operation that did not complete in time: {@code op (where): what within N ms[; detail]}.
     *
     * @param op     the operation
     * @param where  where it ran, or null
     * @param what   what did not happen, e.g. {@code "cannot connect"}
     * @param millis the limit
     * @param detail what was known at the time (who was missing), or empty
     * @param cause  the last underlying failure, or null
     * @return the exception, of class {@link ErrorClass#TIMEOUT}
     */
    public static TuttiException timeout(final String op, final String where, final String what, final long millis,
        final String detail, final Throwable cause) {
        return new TuttiException(ErrorClass.TIMEOUT, Errors.at(op, where) + ": " + what + " within " + millis
            + " ms" + (detail.isEmpty() ? "" : "; " + detail), cause);
    }

    /**
     * A peer, a rendezvous or a job file that breaks Tutti's protocol: {@code op (where): protocol violation: detail}.
     *
     * @param op     the operation
     * @param where  where it ran, or null
     * @param detail what arrived and what was expected, e.g. {@code "record type=9, expected 1..4"}
     * @return the exception, of class {@link ErrorClass#INTERN}
     */
    public static TuttiException protocol(final String op, final String where, final String detail) {
        return new TuttiException(ErrorClass.INTERN, Errors.at(op, where) + ": protocol violation: " + detail);
    }

    /**
     * An internal invariant that does not hold (a bug of Tutti, not of the caller): {@code op (where): detail}.
     *
     * @param op     the operation
     * @param where  where it ran, or null
     * @param detail the invariant and the value that breaks it
     * @return the exception, of class {@link ErrorClass#INTERN}
     */
    public static TuttiException internal(final String op, final String where, final String detail) {
        return new TuttiException(ErrorClass.INTERN, Errors.at(op, where) + ": " + detail);
    }

    /**
     * A thread interrupted while it waited: {@code op (where): interrupted while what}. The caller restores the
     * interrupt flag where it should stay set.
     *
     * @param op    the operation
     * @param where where it ran, or null
     * @param what  what it waited for, e.g. {@code "connecting"}
     * @param cause the interruption, or null if it was seen through the flag
     * @return the exception, of class {@link ErrorClass#INTERN}
     */
    public static TuttiException interrupted(final String op, final String where, final String what,
        final InterruptedException cause) {
        return new TuttiException(ErrorClass.INTERN, Errors.at(op, where) + ": interrupted while " + what, cause);
    }

    /**
     * An object that cannot be serialized or deserialized: {@code op: what[: cause]}.
     *
     * @param op    {@code serialize} or {@code deserialize}
     * @param what  the class or the byte count, and what went wrong
     * @param cause the underlying failure, or null
     * @return the exception, of class {@link ErrorClass#SERIALIZATION}
     */
    public static TuttiException serialization(final String op, final String what, final Throwable cause) {
        return failed(ErrorClass.SERIALIZATION, op, null, what, cause);
    }

    /**
     * A peer that failed: {@code rank N failed: how}.
     *
     * @param worldRank the peer
     * @param how       how it was noticed, e.g. {@code "the tcp connection ... was reset"}
     * @param cause     the underlying failure, or null
     * @return the exception, of class {@link ErrorClass#PROC_FAILED}
     */
    public static TuttiException peerFailed(final int worldRank, final String how, final Throwable cause) {
        return new TuttiException(ErrorClass.PROC_FAILED, "rank " + worldRank + " failed: " + how, cause);
    }

    /**
     * A peer that closed (said goodbye): what every operation that still needed it fails with.
     *
     * @param worldRank the peer
     * @return the exception, of class {@link ErrorClass#PROC_FAILED}
     */
    public static TuttiException peerLeft(final int worldRank) {
        return new TuttiException(ErrorClass.PROC_FAILED, "rank " + worldRank + " closed (left the job), so nothing "
            + "more can be received from or sent to it");
    }

    /**
     * A rank that aborted the job: {@code rank N aborted: cause}.
     *
     * @param worldRank the rank
     * @param cause     why it aborted
     * @return the exception, of class {@link ErrorClass#PROC_FAILED}
     */
    public static TuttiException aborted(final int worldRank, final Throwable cause) {
        return new TuttiException(ErrorClass.PROC_FAILED, "rank " + worldRank + " aborted: " + cause, cause);
    }

    /**
     * A transfer that cannot reach its peer because the transport or the peer is gone: {@code op (where): why}.
     *
     * @param op    the operation, e.g. {@code "shm send"}
     * @param where where it ran, e.g. {@code "rank=0"}
     * @param why   why, e.g. {@code "rank 1 has left the job"}
     * @return the exception, of class {@link ErrorClass#PROC_FAILED}
     */
    public static TuttiException unreachable(final String op, final String where, final String why) {
        return new TuttiException(ErrorClass.PROC_FAILED, Errors.at(op, where) + ": " + why);
    }

    /**
     * A state that should not arise, found below any operation: {@code detail}.
     *
     * @param detail the state and the value that breaks it
     * @return the exception
     */
    public static IllegalStateException badState(final String detail) {
        return new IllegalStateException(detail);
    }

    /**
     * An algorithm that every Java SE platform must provide and this JVM does not: {@code algorithm is missing from
     * this JVM}.
     *
     * @param algorithm e.g. {@code SHA-256}
     * @param cause     the JDK's refusal
     * @return the exception
     */
    public static IllegalStateException missingFromJvm(final String algorithm, final Exception cause) {
        return new IllegalStateException(algorithm + " is missing from this JVM", cause);
    }
}
