package dev.tutti.runtime;

/**
 * A unit of work the progress engine runs whenever a thread of the rank waits (Agrona's duty-cycle contract).
 */
@FunctionalInterface
public interface Agent {

    /**
     * Does a bounded amount of work.
     *
     * @return 0 to indicate no work was currently available, else the amount done
     */
    int doWork();
}
