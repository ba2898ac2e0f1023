package dev.tutti.bench.osu;

import java.util.Locale;

/** Where the ranks of a benchmark run. */
public enum BenchTransport {
    /** Threads of this JVM over the inproc transport ({@code Tutti.runLocal}). */
    INPROC,
    /** One JVM per rank, connected over TCP. */
    TCP;

    /** @return the name used on the command line and in the CSV impl column, e.g. {@code inproc} */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Parses a command-line value.
     *
     * @param text {@code inproc} or {@code tcp}, any case
     * @return the transport
     * @throws IllegalArgumentException for anything else
     */
    public static BenchTransport parse(final String text) {
        for (final BenchTransport t : values()) {
            if (t.label().equalsIgnoreCase(null == text ? "" : text.trim())) {
                return t;
            }
        }
        throw new IllegalArgumentException("--transport " + text + ", expected inproc or tcp");
    }
}
