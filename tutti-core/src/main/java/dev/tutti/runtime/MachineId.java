package dev.tutti.runtime;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Which machine (which running kernel) this process is on: Linux's boot id, the same in every network namespace and
 * container of one machine and different on every other machine and after every boot. Ranks of different "hosts"
 * (addresses, namespaces, containers) with the same id share the machine's CPUs, which no count of the ranks on a
 * host shows: the idle strategies ({@link Configuration#oversubscribed}) count them.
 *
 * <p>Implementation notes: read once, on first use; the text of {@code /proc/sys/kernel/random/boot_id}, or the
 * empty string where it cannot be read (not Linux), which matches no other rank's id.
 */
public final class MachineId {
    private static final Path BOOT_ID = Path.of("/proc/sys/kernel/random/boot_id");
    private static volatile String id;

    private MachineId() {
    }

    /** @return this machine's id, or the empty string when it is not known */
    public static String current() {
        String s = id;
        if (null == s) {
            s = read();
            id = s;
        }
        return s;
    }

    private static String read() {
        try {
            final String s = new String(Files.readAllBytes(BOOT_ID), StandardCharsets.US_ASCII).trim();
            return s.matches("[0-9A-Fa-f-]{1,64}") ? s : "";
        } catch (final IOException | SecurityException | UnsupportedOperationException e) {
            return "";
        }
    }

    /**
     * Counts the ranks on the same machine as {@code rank}, itself included.
     *
     * @param machines each rank's machine id (empty: unknown)
     * @param rank     the rank
     * @return how many ranks share its machine, at least 1
     */
    public static int ranksSharing(final String[] machines, final int rank) {
        final String mine = machines[rank];
        if (null == mine || mine.isEmpty()) {
            return 1;
        }
        int n = 0;
        for (final String m : machines) {
            n += mine.equals(m) ? 1 : 0;
        }
        return n;
    }
}
