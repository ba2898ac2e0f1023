package dev.tutti.runtime;

import dev.tutti.internal.Errors;

/**
 * A TCP endpoint written {@code host:port}, {@code [ipv6]:port} or {@code tcp://host:port}.
 *
 * @param host the host name or address literal (without brackets)
 * @param port the port, 1..65535
 */
public record HostPort(String host, int port) {

    /**
     * Parses an endpoint.
     *
     * @param what  what the endpoint is, for the error message (e.g. {@code TUTTI_RENDEZVOUS})
     * @param value the text
     * @return the endpoint
     * @throws IllegalArgumentException if the text is not {@code host:port} with a port in 1..65535
     */
    public static HostPort parse(final String what, final String value) {
        if (null == value) {
            throw Errors.refused(what + "=null", "host:port");
        }
        String s = value.trim();
        if (s.startsWith("tcp://")) {
            s = s.substring("tcp://".length());
        }
        final int colon = s.lastIndexOf(':');
        if (colon <= 0 || colon == s.length() - 1) {
            throw Errors.refused(what + "=" + value, "host:port");
        }
        String host = s.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        final int port;
        try {
            port = Integer.parseInt(s.substring(colon + 1));
        } catch (final NumberFormatException e) {
            throw Errors.refused(what + "=" + value, "host:port with a numeric port", e);
        }
        if (port < 1 || port > 65535 || host.isEmpty()) {
            throw Errors.refused(what + "=" + value, "host:port with port in 1..65535");
        }
        return new HostPort(host, port);
    }

    @Override
    public String toString() {
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }
}
