package mpi;

/** What a program may free: groups, datatypes, statuses (MPJ Express's package-private interface). */
interface Freeable {
    /** Frees the object; here nothing is held that needs it. */
    void free();
}
