package dev.tutti.p2p;

/**
 * A deliberate layering violation for {@code LayeringTest}: a p2p class that names a class of the
 * layer above, {@code calls.CommImpl}, by its fully-qualified name (no import). It lives in the test sources only.
 */
final class UpwardFromP2p {
    private UpwardFromP2p() {
    }

    static int size(final dev.tutti.calls.CommImpl c) {
        return c.size();
    }
}
