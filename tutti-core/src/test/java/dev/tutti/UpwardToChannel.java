package dev.tutti;

/**
 * A deliberate layering violation for {@code LayeringTest}: an api-package class that uses the channel layer
 * above it. It lives in the test sources only.
 */
final class UpwardToChannel {
    private UpwardToChannel() {
    }

    static String name(final dev.tutti.channel.AlltoallChannel c) {
        return c.name();
    }
}
