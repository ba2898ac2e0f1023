package dev.tutti;

import java.util.List;
import java.util.function.BinaryOperator;

/**
 * Collectives over Java objects in mpi4py's lowercase style ({@code bcastObject}, {@code allreduceObject}, ...),
 * on an intracommunicator: values are serialized with the job's {@link ObjectSerializer}, so any serializable
 * value travels; reductions take a {@link java.util.function.BinaryOperator} applied in rank order.
 */
public interface ObjectCollectives {
    /**
     * Broadcasts a value from the root; every rank returns it (the root returns its own argument).
     *
     * @param value the value at the root (ignored elsewhere)
     * @param root  the rank that sends
     *             (on an intercommunicator {@link Intercommunicator#ROOT}, {@link Comm#PROC_NULL} or the remote
     *             root: see {@link Intercommunicator})
     * @param <T>   the type
     * @return the root's value
     * @throws TuttiException for a bad root, a serialization failure or a failed peer
     */
    <T> T bcastObject(T value, int root);

    /**
     * Gathers one value from every rank at the root.
     *
     * @param value this rank's value
     * @param root  the rank that receives
     *             (on an intercommunicator {@link Intercommunicator#ROOT}, {@link Comm#PROC_NULL} or the remote
     *             root: see {@link Intercommunicator})
     * @param <T>   the type
     * @return at the root, the values in rank order; elsewhere null
     * @throws TuttiException for a bad root, a serialization failure or a failed peer
     */
    <T> List<T> gatherObject(T value, int root);

    /**
     * Scatters one value to every rank from a list at the root.
     *
     * @param values at the root, exactly size values (ignored elsewhere)
     * @param root   the rank that sends
     *             (on an intercommunicator {@link Intercommunicator#ROOT}, {@link Comm#PROC_NULL} or the remote
     *             root: see {@link Intercommunicator})
     * @param <T>    the type
     * @return this rank's value
     * @throws TuttiException if the root's list does not have size elements, or a peer fails
     */
    <T> T scatterObject(List<? extends T> values, int root);

    /**
     * Gathers one value from every rank at every rank.
     *
     * @param value this rank's value
     * @param <T>   the type
     * @return the values in rank order
     * @throws TuttiException for a serialization failure or a failed peer
     */
    <T> List<T> allgatherObject(T value);

    /**
     * Sends {@code values.get(i)} to rank {@code i} and returns what every rank sent to this one.
     *
     * @param values exactly size values
     * @param <T>    the type
     * @return the received values, by source rank
     * @throws TuttiException if the list does not have size elements, or a peer fails
     */
    <T> List<T> alltoallObject(List<? extends T> values);

    /**
     * Reduces one value per rank with {@code op} at the root, in rank order.
     *
     * @param value this rank's value
     * @param op    an associative operation
     * @param root  the rank that receives
     *             (on an intercommunicator {@link Intercommunicator#ROOT}, {@link Comm#PROC_NULL} or the remote
     *             root: see {@link Intercommunicator})
     * @param <T>   the type
     * @return at the root, {@code v0 op v1 op ...}; elsewhere null
     * @throws TuttiException for a bad root, a serialization failure or a failed peer
     */
    <T> T reduceObject(T value, BinaryOperator<T> op, int root);

    /**
     * Reduces one value per rank with {@code op}, in rank order, at every rank.
     *
     * @param value this rank's value
     * @param op    an associative operation
     * @param <T>   the type
     * @return {@code v0 op v1 op ...}
     * @throws TuttiException for a serialization failure or a failed peer
     */
    <T> T allreduceObject(T value, BinaryOperator<T> op);

    /**
     * Inclusive prefix reduction of one value per rank.
     *
     * @param value this rank's value
     * @param op    an associative operation
     * @param <T>   the type
     * @return {@code v0 op ... op v(rank)}
     * @throws TuttiException for a serialization failure or a failed peer
     */
    <T> T scanObject(T value, BinaryOperator<T> op);

    /**
     * Exclusive prefix reduction of one value per rank.
     *
     * @param value this rank's value
     * @param op    an associative operation
     * @param <T>   the type
     * @return {@code v0 op ... op v(rank-1)}, or null at rank 0
     * @throws TuttiException for a serialization failure or a failed peer
     */
    <T> T exscanObject(T value, BinaryOperator<T> op);
}
