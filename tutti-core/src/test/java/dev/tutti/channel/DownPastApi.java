package dev.tutti.channel;

/**
 * A deliberate layering violation for {@code LayeringTest}: a channel class that reaches past the public api into
 * the p2p engine. It lives in the test sources only.
 */
final class DownPastApi {
    private DownPastApi() {
    }

    static int progress(final dev.tutti.p2p.P2pEngine engine) {
        return engine.progress();
    }
}
