package dev.tutti.launcher;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parses host lists in mpirun's two forms and merges repeated hosts.
 *
 * <ul>
 *   <li>{@code -H h1,h2:4,...}: a comma-separated list; {@code h:K} gives {@code h} K explicit slots, a bare name
 *       one implicit slot.</li>
 *   <li>A hostfile: one host per line, {@code host [slots=K]}; {@code #} starts a comment; blank lines are
 *       ignored. Other keys (Open MPI's {@code max_slots}, ...) are refused rather than silently ignored.</li>
 * </ul>
 *
 * <p>A host named more than once is one host whose slots are the sum; its slots are explicit only if every mention
 * was explicit. Order is the order of first mention, which is the order ranks are placed in.
 */
public final class Hosts {
    private Hosts() {
    }

    /**
     * Parses {@code -H} arguments.
     *
     * @param specs the arguments, each a comma-separated list of {@code host} or {@code host:K}
     * @return the merged hosts, in order of first mention
     * @throws InvalidLaunchException if a name is empty or a slot count is not a positive integer
     */
    public static List<Host> parseList(final List<String> specs) {
        final List<Host> hosts = new ArrayList<>();
        for (final String spec : specs) {
            for (final String item : spec.split(",", -1)) {
                final String entry = item.trim();
                final int colon = entry.lastIndexOf(':');
                // An IPv6 literal has several colons; only "name:K" with one colon carries a slot count.
                if (colon > 0 && entry.indexOf(':') == colon) {
                    hosts.add(new Host(entry.substring(0, colon),
                        parseSlots(entry.substring(colon + 1), "-H " + spec), true));
                } else {
                    hosts.add(Host.of(entry));
                }
            }
        }
        return merge(hosts);
    }

    /**
     * Reads a hostfile.
     *
     * @param file the file
     * @return the merged hosts, in order of first mention
     * @throws InvalidLaunchException if the file cannot be read, has no hosts, or a line is malformed (the message
     *                                names the file and line number)
     */
    public static List<Host> parseHostfile(final Path file) {
        final List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (final NoSuchFileException e) {
            throw new InvalidLaunchException("hostfile " + file + " does not exist", e);
        } catch (final IOException e) {
            throw new InvalidLaunchException("hostfile " + file + " cannot be read: " + e, e);
        }
        return parseHostfileLines(file.toString(), lines);
    }

    /**
     * Parses the lines of a hostfile.
     *
     * @param source the file name, for messages
     * @param lines  the lines
     * @return the merged hosts, in order of first mention
     * @throws InvalidLaunchException if there are no hosts or a line is malformed
     */
    public static List<Host> parseHostfileLines(final String source, final List<String> lines) {
        final List<Host> hosts = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            final String where = "hostfile " + source + " line " + (i + 1);
            String line = lines.get(i);
            final int hash = line.indexOf('#');
            if (hash >= 0) {
                line = line.substring(0, hash);
            }
            final String[] words = line.trim().split("\\s+");
            if (words[0].isEmpty()) {
                continue;
            }
            int slots = 1;
            boolean explicit = false;
            for (int w = 1; w < words.length; w++) {
                final String word = words[w];
                if (word.startsWith("slots=")) {
                    if (explicit) {
                        throw new InvalidLaunchException(where + ": slots given twice, expected 'host [slots=K]'");
                    }
                    slots = parseSlots(word.substring("slots=".length()), where);
                    explicit = true;
                } else {
                    throw new InvalidLaunchException(where + ": '" + word + "' is not understood, expected "
                        + "'host [slots=K]'");
                }
            }
            hosts.add(new Host(words[0], slots, explicit));
        }
        if (hosts.isEmpty()) {
            throw new InvalidLaunchException("hostfile " + source + " names no host, expected lines "
                + "'host [slots=K]'");
        }
        return merge(hosts);
    }

    /**
     * Merges repeated hosts: slots add up, and are explicit only if every mention was.
     *
     * @param hosts the hosts, possibly repeated
     * @return one entry per name, in order of first mention
     */
    public static List<Host> merge(final List<Host> hosts) {
        final Map<String, Host> byName = new LinkedHashMap<>();
        for (final Host h : hosts) {
            byName.merge(h.name(), h, (a, b) -> new Host(a.name(), Math.addExact(a.slots(), b.slots()),
                a.explicitSlots() && b.explicitSlots()));
        }
        return List.copyOf(byName.values());
    }

    private static int parseSlots(final String text, final String where) {
        final int slots;
        try {
            slots = Integer.parseInt(text.trim());
        } catch (final NumberFormatException e) {
            throw new InvalidLaunchException(where + ": slots='" + text + "' is not an integer, expected slots >= 1",
                e);
        }
        if (slots < 1) {
            throw new InvalidLaunchException(where + ": slots=" + slots + ", expected slots >= 1");
        }
        return slots;
    }
}
