package dev.tutti;

import java.util.concurrent.locks.LockSupport;

/** Helpers behind the static methods of {@link Request}. */
final class Requests {
    private Requests() {
    }

    /*
     * waitAny polls every request in turn: spin a little, then yield, then park with a bounded backoff so that a
     * completion by another thread is seen within ~1 ms even though nothing unparks us.
     */
    static int waitAny(final Request[] requests) {
        long parkNs = 1_000;
        for (int round = 0;; round++) {
            boolean any = false;
            for (int i = 0; i < requests.length; i++) {
                final Request r = requests[i];
                if (null == r) {
                    continue;
                }
                any = true;
                if (r.test()) {
                    return i;
                }
            }
            if (!any) {
                return -1;
            }
            if (round < 100) {
                Thread.onSpinWait();
            } else if (round < 110) {
                Thread.yield();
            } else {
                LockSupport.parkNanos(parkNs);
                parkNs = Math.min(parkNs * 2, 1_000_000);
            }
        }
    }
}
