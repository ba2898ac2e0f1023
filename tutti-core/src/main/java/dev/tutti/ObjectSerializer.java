package dev.tutti;

import dev.tutti.internal.Failures;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;

/**
 * Turns object messages into bytes and back. The default, {@link #java(String)}, is Java serialization restricted
 * by an allow-list: a received stream may only create classes the list admits, so a hostile or confused peer
 * cannot instantiate arbitrary classes. Plug in another format (JSON, Kryo, protobuf) by implementing this
 * interface and passing it in {@link Tutti.Options#serializer(ObjectSerializer)}.
 */
public interface ObjectSerializer {

    /** System property (or env {@code TUTTI_SERIAL_ALLOW}) adding allow-list patterns to the default. */
    String ALLOW_PROP_NAME = dev.tutti.internal.Settings.SERIAL_ALLOW.name();

    /** The default allow-list: the classes of {@code java.base} (strings, boxes, collections, arrays, ...). */
    String DEFAULT_ALLOW = "java.base/*";

    /**
     * Serializes a value.
     *
     * @param value the value, may be null
     * @return its bytes
     * @throws TuttiException of class {@link ErrorClass#SERIALIZATION} if it cannot be serialized
     */
    byte[] serialize(Object value);

    /**
     * Deserializes a value.
     *
     * @param bytes the bytes from {@link #serialize}
     * @return the value
     * @throws TuttiException of class {@link ErrorClass#SERIALIZATION} if the bytes are malformed or name a class
     *                        the allow-list rejects
     */
    Object deserialize(byte[] bytes);

    /**
     * Returns the default serializer: the {@link #DEFAULT_ALLOW} classes, the patterns of the
     * {@link #ALLOW_PROP_NAME} setting, and the given patterns. Patterns use {@link ObjectInputFilter} syntax:
     * {@code com.example.*} (a package), {@code com.example.**} (and subpackages), {@code com.example.Point}.
     *
     * @param allowPatterns extra patterns separated by {@code ;}, or null
     * @return the serializer
     */
    static ObjectSerializer java(final String allowPatterns) {
        final StringBuilder allow = new StringBuilder(DEFAULT_ALLOW);
        final String extra = dev.tutti.internal.Settings.SERIAL_ALLOW.raw();
        if (null != extra && !extra.isBlank()) {
            allow.append(';').append(extra.trim());
        }
        if (null != allowPatterns && !allowPatterns.isBlank()) {
            allow.append(';').append(allowPatterns.trim());
        }
        final ObjectInputFilter filter = ObjectInputFilter.Config.createFilter(
            "maxdepth=1000;" + allow + ";!*");
        return new ObjectSerializer() {
            @Override
            public byte[] serialize(final Object value) {
                if (null != value && !(value instanceof Serializable)) {
                    throw Failures.serialization("serialize", "class=" + value.getClass().getName()
                        + " does not implement java.io.Serializable", null);
                }
                final ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
                try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
                    out.writeObject(value);
                } catch (final IOException e) {
                    throw Failures.serialization("serialize", "class=" + value.getClass().getName() + " failed", e);
                }
                return bytes.toByteArray();
            }

            @Override
            public Object deserialize(final byte[] bytes) {
                final String[] rejected = new String[1];
                try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes))) {
                    in.setObjectInputFilter(info -> {
                        final ObjectInputFilter.Status s = filter.checkInput(info);
                        if (ObjectInputFilter.Status.REJECTED == s && null == rejected[0]) {
                            rejected[0] = null == info.serialClass() ? "depth=" + info.depth()
                                : "class=" + info.serialClass().getName();
                        }
                        return s;
                    });
                    return in.readObject();
                } catch (final InvalidClassException e) {
                    throw Failures.serialization("deserialize", rejected[0] + " is not allowed; allowed=" + allow
                        + " (add patterns with -D" + ALLOW_PROP_NAME + "=com.example.** or Tutti.Options.serializer)",
                        e);
                } catch (final IOException | ClassNotFoundException e) {
                    throw Failures.serialization("deserialize", "bytes=" + bytes.length + " failed", e);
                }
            }

            @Override
            public String toString() {
                return "java-serialization(allow=" + allow + ")";
            }
        };
    }
}
