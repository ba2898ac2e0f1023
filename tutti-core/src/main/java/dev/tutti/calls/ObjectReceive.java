package dev.tutti.calls;

import dev.tutti.ObjectRequest;
import dev.tutti.ObjectSerializer;
import dev.tutti.Status;
import dev.tutti.p2p.RecvRequest;

import java.util.concurrent.TimeUnit;

/**
 * The request of an object receive ({@link Comm#irecvObject}): completes with the message; {@link #get()}
 * deserializes it. A receive from {@link Comm#PROC_NULL} has no message and gives null.
 *
 * @param <T> the value's type
 */
public final class ObjectReceive<T> implements ObjectRequest<T> {
    private final RecvRequest recv;
    private final ObjectSerializer serializer;

    public ObjectReceive(final RecvRequest recv, final ObjectSerializer serializer) {
        this.recv = recv;
        this.serializer = serializer;
    }

    @Override
    @SuppressWarnings("unchecked")
    public T get() {
        if (null == recv) {
            return null;
        }
        recv.waitFor();
        return (T) serializer.deserialize(recv.receivedBytes());
    }

    @Override
    public boolean test() {
        return null == recv || recv.test();
    }

    @Override
    public Status waitFor() {
        return null == recv ? CompletedRequest.NULL_PEER.waitFor() : recv.waitFor();
    }

    @Override
    public Status waitFor(final long timeout, final TimeUnit unit) {
        return null == recv ? CompletedRequest.NULL_PEER.waitFor() : recv.waitFor(timeout, unit);
    }

    @Override
    public void cancel() {
        if (null != recv) {
            recv.cancel();
        }
    }
}
