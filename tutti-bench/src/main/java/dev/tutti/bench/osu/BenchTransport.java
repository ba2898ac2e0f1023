package dev.tutti.bench.osu;

import java.util.Locale;

/** Where the ranks of a benchmark run. */
public enum BenchTransport {
    /** Threads of this JVM over the inproc transport ({@code Tutti.runLocal}). */
    INPROC,
    /** One JVM per rank, connected over TCP (even on one host: the workers force {@code tutti.transport=tcp}). */
    TCP,
    /** One JVM per rank on this host, over the shared-memory transport ({@code tutti.transport=shm}). */
    SHM,
    /**
     * One JVM per rank, shared memory between ranks of one host and TCP between hosts ({@code tutti.transport=auto}):
     * for a job across hosts, its workers started by {@code tutti run -H} (on one host it is {@link #SHM}).
     */
    AUTO;

    /** @return whether the ranks are separate processes (started by the job launcher) */
    public boolean processes() {
        return INPROC != this;
    }

    /** @return the name used on the command line and in the CSV impl column, e.g. {@code inproc} */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Parses a command-line value.
     *
     * @param text {@code inproc}, {@code shm}, {@code tcp} or {@code auto}, any case
     * @return the transport
     * @throws IllegalArgumentException for anything else
     */
    public static BenchTransport parse(final String text) {
        for (final BenchTransport t : values()) {
            if (t.label().equalsIgnoreCase(null == text ? "" : text.trim())) {
                return t;
            }
        }
        throw new IllegalArgumentException("--transport " + text + ", expected inproc, shm, tcp or auto");
    }
}
