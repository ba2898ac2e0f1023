package dev.tutti;

/**
 * A nonblocking object receive: a {@link Request} whose result is the received value.
 *
 * @param <T> the type the caller expects
 */
public interface ObjectRequest<T> extends Request {

    /**
     * Waits for the message and returns the value.
     *
     * @return the deserialized value
     * @throws TuttiException if the receive failed or the value could not be deserialized
     * @throws ClassCastException if the value is not a {@code T}
     */
    T get();
}
