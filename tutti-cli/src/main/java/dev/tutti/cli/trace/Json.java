package dev.tutti.cli.trace;

import java.util.Locale;
import java.util.Map;

/** Writes JSON values: strings escaped as RFC 8259 says, numbers as Java prints them, maps as objects. */
final class Json {
    private Json() {
    }

    /** Appends {@code v} (a string, a number, a boolean, a map of them, or null) as JSON. */
    static StringBuilder value(final StringBuilder b, final Object v) {
        if (null == v) {
            return b.append("null");
        }
        if (v instanceof Number || v instanceof Boolean) {
            return b.append(v);
        }
        if (v instanceof Map<?, ?> m) {
            b.append('{');
            boolean first = true;
            for (final Map.Entry<?, ?> e : m.entrySet()) {
                if (!first) {
                    b.append(',');
                }
                first = false;
                string(b, String.valueOf(e.getKey())).append(':');
                value(b, e.getValue());
            }
            return b.append('}');
        }
        return string(b, String.valueOf(v));
    }

    /** Appends {@code s} as a JSON string. */
    static StringBuilder string(final StringBuilder b, final String s) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            final char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"');
    }

    /** @return {@code ns} as microseconds with three decimals, the trace-event format's unit */
    static String micros(final long ns) {
        final long abs = Math.abs(ns);
        return (ns < 0 ? "-" : "") + abs / 1000 + "." + String.format(Locale.ROOT, "%03d", abs % 1000);
    }
}
