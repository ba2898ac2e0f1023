package dev.tutti.runtime;

import dev.tutti.internal.Errors;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.StringJoiner;

/**
 * The addresses a process advertises so that another host can reach it, and the lists of {@code host:port}
 * candidates they travel in ({@code TUTTI_RENDEZVOUS} and each rank's tcp endpoint).
 *
 * <p>A host name is not advertised: many images map it to a loopback address in {@code /etc/hosts}, so a peer
 * that resolves it dials itself. Instead a list of address literals is advertised, best first: the address of the
 * interface that routes to the peer (asked of the kernel by connecting a UDP socket, which sends nothing), then
 * every other address of an interface that is up, IPv4 before IPv6, without loopback and link-local addresses
 * (which need a scope the peer does not share). The receiver tries them in this order.
 *
 * <p>A candidate list is written {@code a:p,b:p,...}; each element as {@link HostPort} (IPv6 in brackets).
 */
public final class Addresses {
    private Addresses() {
    }

    /**
     * This host's addresses another host may reach it at, best first.
     *
     * @param peer the host that will connect (its address or name), or null if unknown (then the interface
     *             addresses only, in the order the system lists them, IPv4 first)
     * @return the addresses, never empty: if this host has no non-loopback address, the loopback address
     */
    public static List<InetAddress> advertisedToward(final String peer) {
        final Set<InetAddress> out = new LinkedHashSet<>();
        if (null != peer) {
            final InetAddress route = routeSource(peer);
            if (null != route) {
                out.add(route);
            }
        }
        final List<InetAddress> v6 = new ArrayList<>();
        for (final InetAddress a : interfaceAddresses()) {
            if (a instanceof Inet4Address) {
                out.add(a);
            } else {
                v6.add(a);
            }
        }
        out.addAll(v6);
        if (out.isEmpty()) {
            out.add(InetAddress.getLoopbackAddress());
        }
        return List.copyOf(out);
    }

    /**
     * The source address the kernel would use to reach a host (no packet is sent).
     *
     * @param peer the host's address or name
     * @return the address, or null if the host does not resolve, no route leads to it, or the route is loopback
     */
    public static InetAddress routeSource(final String peer) {
        try (DatagramSocket probe = new DatagramSocket()) {
            probe.connect(InetAddress.getByName(peer), 9);
            final InetAddress local = probe.getLocalAddress();
            return null == local || local.isAnyLocalAddress() || local.isLoopbackAddress() ? null : local;
        } catch (final IOException | IllegalArgumentException | SecurityException e) {
            return null; // unresolvable or unroutable: the interface addresses remain
        }
    }

    /**
     * Every address of an interface that is up, without loopback and link-local addresses.
     *
     * @return the addresses in the order the system lists them (empty if the list is unavailable)
     */
    public static List<InetAddress> interfaceAddresses() {
        final List<InetAddress> out = new ArrayList<>();
        try {
            final var interfaces = NetworkInterface.getNetworkInterfaces();
            while (null != interfaces && interfaces.hasMoreElements()) {
                final NetworkInterface nif = interfaces.nextElement();
                if (!nif.isUp() || nif.isLoopback()) {
                    continue;
                }
                nif.inetAddresses().filter(a -> !a.isLoopbackAddress() && !a.isLinkLocalAddress()
                    && !a.isAnyLocalAddress()).forEach(out::add);
            }
        } catch (final SocketException e) {
            return out; // without the interface list, the route address (if any) is all there is
        }
        return out;
    }

    /**
     * Writes a candidate list.
     *
     * @param addresses the addresses, best first
     * @param port      the port they share
     * @return {@code a:port,b:port,...}
     */
    public static String candidates(final List<InetAddress> addresses, final int port) {
        final StringJoiner j = new StringJoiner(",");
        for (final InetAddress a : addresses) {
            j.add(new HostPort(literal(a), port).toString());
        }
        return j.toString();
    }

    /**
     * Reads a candidate list: one or more {@link HostPort}s separated by commas.
     *
     * @param what  what the list is, for the error message (e.g. {@code TUTTI_RENDEZVOUS})
     * @param value the text
     * @return the candidates in order
     * @throws IllegalArgumentException if an element is not {@code host:port} or the list is empty
     */
    public static List<HostPort> parse(final String what, final String value) {
        if (null == value || value.isBlank()) {
            throw Errors.refused(what + "=" + value, "host:port[,host:port...]");
        }
        final List<HostPort> out = new ArrayList<>();
        for (final String part : value.split(",")) {
            if (!part.isBlank()) {
                out.add(HostPort.parse(what, part));
            }
        }
        if (out.isEmpty()) {
            throw Errors.refused(what + "=" + value, "host:port[,host:port...]");
        }
        return List.copyOf(out);
    }

    /** The address as a literal, without an IPv6 scope. */
    private static String literal(final InetAddress a) {
        final String s = a.getHostAddress();
        final int pct = s.indexOf('%');
        return pct >= 0 ? s.substring(0, pct) : s;
    }
}
