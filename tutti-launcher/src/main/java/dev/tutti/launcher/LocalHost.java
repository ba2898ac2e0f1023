package dev.tutti.launcher;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Tells whether a host name denotes this machine, without DNS look-ups of the names being tested: {@code localhost},
 * loopback literals, this host's name (full, canonical and short), and the literal addresses of its interfaces.
 */
public final class LocalHost implements Predicate<String> {
    private final Set<String> names;
    private final String name;

    private LocalHost(final Set<String> names, final String name) {
        this.names = names;
        this.name = name;
    }

    /**
     * Looks up this machine's names and addresses (once per call; the launcher calls it once per job).
     *
     * @return the detector
     */
    public static LocalHost detect() {
        final Set<String> names = new HashSet<>();
        names.add("localhost");
        names.add("localhost.localdomain");
        String hostName = "localhost";
        try {
            final InetAddress self = InetAddress.getLocalHost();
            hostName = self.getHostName();
            addName(names, hostName);
            addName(names, self.getCanonicalHostName());
            names.add(self.getHostAddress());
        } catch (final UnknownHostException e) {
            // This host's name does not resolve: "localhost" and interface addresses still identify it, and
            // remote ranks need the name only to reach the rendezvous, which then fails with its own message.
            names.add("127.0.0.1");
        }
        try {
            final var interfaces = NetworkInterface.getNetworkInterfaces();
            while (null != interfaces && interfaces.hasMoreElements()) {
                interfaces.nextElement().inetAddresses().forEach(a -> names.add(stripScope(a.getHostAddress())));
            }
        } catch (final SocketException e) {
            // Without the interface list, addresses of this machine other than loopback count as remote;
            // the names above still match.
            names.add("::1");
        }
        return new LocalHost(Set.copyOf(names), hostName);
    }

    /**
     * A detector with a fixed set of names, for tests.
     *
     * @param name  this host's name
     * @param names the names and addresses that denote this machine besides {@code localhost} and loopback
     * @return the detector
     */
    public static LocalHost of(final String name, final Set<String> names) {
        final Set<String> all = new HashSet<>();
        all.add("localhost");
        all.add(name.toLowerCase(Locale.ROOT));
        names.forEach(n -> all.add(n.toLowerCase(Locale.ROOT)));
        return new LocalHost(Set.copyOf(all), name);
    }

    /** @return this host's name, which remote ranks use to reach the rendezvous */
    public String name() {
        return name;
    }

    @Override
    public boolean test(final String host) {
        final String h = host.toLowerCase(Locale.ROOT);
        if (names.contains(h)) {
            return true;
        }
        if (isAddressLiteral(h)) {
            try {
                return InetAddress.ofLiteral(h).isLoopbackAddress() || names.contains(stripScope(
                    InetAddress.ofLiteral(h).getHostAddress()));
            } catch (final IllegalArgumentException e) {
                return false;
            }
        }
        return false;
    }

    private static boolean isAddressLiteral(final String h) {
        return h.indexOf(':') >= 0 || h.chars().allMatch(c -> c == '.' || (c >= '0' && c <= '9'));
    }

    private static void addName(final Set<String> names, final String n) {
        final String lower = n.toLowerCase(Locale.ROOT);
        names.add(lower);
        final int dot = lower.indexOf('.');
        if (dot > 0 && !isAddressLiteral(lower)) {
            names.add(lower.substring(0, dot));
        }
    }

    private static String stripScope(final String address) {
        final int pct = address.indexOf('%');
        return pct >= 0 ? address.substring(0, pct) : address;
    }
}
