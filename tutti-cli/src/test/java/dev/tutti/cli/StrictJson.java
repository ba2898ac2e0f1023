package dev.tutti.cli;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict JSON reader for tests (RFC 8259, nothing more): objects become {@link Map}s, arrays {@link List}s, numbers
 * {@link BigDecimal}s (exact), strings, booleans and null. Anything else (a trailing comma, a single quote, a
 * control character in a string, a duplicate key, text after the value) throws {@link IllegalArgumentException}
 * naming the offset.
 */
final class StrictJson {
    private final String s;
    private int i;

    private StrictJson(final String s) {
        this.s = s;
    }

    /**
     * @param text the JSON text
     * @return its value
     */
    static Object parse(final String text) {
        final StrictJson p = new StrictJson(text);
        p.ws();
        final Object v = p.value();
        p.ws();
        if (p.i != text.length()) {
            throw p.bad("text after the value");
        }
        return v;
    }

    private IllegalArgumentException bad(final String what) {
        return new IllegalArgumentException("JSON at offset " + i + ": " + what + " near '"
            + s.substring(Math.max(0, i - 20), Math.min(s.length(), i + 20)) + "'");
    }

    private void ws() {
        while (i < s.length() && (' ' == s.charAt(i) || '\n' == s.charAt(i) || '\r' == s.charAt(i)
            || '\t' == s.charAt(i))) {
            i++;
        }
    }

    private Object value() {
        if (i >= s.length()) {
            throw bad("end of text, expected a value");
        }
        final char c = s.charAt(i);
        return switch (c) {
            case '{' -> object();
            case '[' -> array();
            case '"' -> string();
            case 't' -> word("true", Boolean.TRUE);
            case 'f' -> word("false", Boolean.FALSE);
            case 'n' -> word("null", null);
            default -> number();
        };
    }

    private Object word(final String w, final Object v) {
        if (!s.startsWith(w, i)) {
            throw bad("expected " + w);
        }
        i += w.length();
        return v;
    }

    private Map<String, Object> object() {
        final Map<String, Object> m = new LinkedHashMap<>();
        i++;
        ws();
        if (i < s.length() && '}' == s.charAt(i)) {
            i++;
            return m;
        }
        while (true) {
            ws();
            if (i >= s.length() || '"' != s.charAt(i)) {
                throw bad("expected a key");
            }
            final String k = string();
            ws();
            expect(':');
            ws();
            if (m.containsKey(k)) {
                throw bad("duplicate key " + k);
            }
            m.put(k, value());
            ws();
            if (i < s.length() && ',' == s.charAt(i)) {
                i++;
                continue;
            }
            expect('}');
            return m;
        }
    }

    private List<Object> array() {
        final List<Object> a = new ArrayList<>();
        i++;
        ws();
        if (i < s.length() && ']' == s.charAt(i)) {
            i++;
            return a;
        }
        while (true) {
            ws();
            a.add(value());
            ws();
            if (i < s.length() && ',' == s.charAt(i)) {
                i++;
                continue;
            }
            expect(']');
            return a;
        }
    }

    private void expect(final char c) {
        if (i >= s.length() || c != s.charAt(i)) {
            throw bad("expected '" + c + "'");
        }
        i++;
    }

    private String string() {
        expect('"');
        final StringBuilder b = new StringBuilder();
        while (true) {
            if (i >= s.length()) {
                throw bad("unterminated string");
            }
            final char c = s.charAt(i++);
            if ('"' == c) {
                return b.toString();
            }
            if (c < 0x20) {
                throw bad("control character in a string");
            }
            if ('\\' != c) {
                b.append(c);
                continue;
            }
            final char e = s.charAt(i++);
            switch (e) {
                case '"', '\\', '/' -> b.append(e);
                case 'b' -> b.append('\b');
                case 'f' -> b.append('\f');
                case 'n' -> b.append('\n');
                case 'r' -> b.append('\r');
                case 't' -> b.append('\t');
                case 'u' -> {
                    b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                    i += 4;
                }
                default -> throw bad("bad escape \\" + e);
            }
        }
    }

    private BigDecimal number() {
        final int start = i;
        if (i < s.length() && '-' == s.charAt(i)) {
            i++;
        }
        if (i >= s.length() || !Character.isDigit(s.charAt(i))) {
            throw bad("expected a value");
        }
        if ('0' == s.charAt(i) && i + 1 < s.length() && Character.isDigit(s.charAt(i + 1))) {
            throw bad("leading zero");
        }
        while (i < s.length() && Character.isDigit(s.charAt(i))) {
            i++;
        }
        if (i < s.length() && '.' == s.charAt(i)) {
            i++;
            if (i >= s.length() || !Character.isDigit(s.charAt(i))) {
                throw bad("digits expected after '.'");
            }
            while (i < s.length() && Character.isDigit(s.charAt(i))) {
                i++;
            }
        }
        if (i < s.length() && ('e' == s.charAt(i) || 'E' == s.charAt(i))) {
            i++;
            if (i < s.length() && ('+' == s.charAt(i) || '-' == s.charAt(i))) {
                i++;
            }
            if (i >= s.length() || !Character.isDigit(s.charAt(i))) {
                throw bad("digits expected in the exponent");
            }
            while (i < s.length() && Character.isDigit(s.charAt(i))) {
                i++;
            }
        }
        return new BigDecimal(s.substring(start, i));
    }
}
