package mpjbuf;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.NotSerializableException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.List;

/**
 * The typed sections of a {@link Buffer}, MPJ Express's device-level message format: a program writes a section
 * header, then elements (contiguous, gathered by index, or from a strided patch); it commits the buffer and sends it;
 * the receiver commits, then reads each header, the section's size and its elements.
 *
 * <p>Implementation note: each section keeps its elements in a Java array of its element type (grown by doubling);
 * a message is the Java serialisation of the types, counts and arrays, so a section of objects travels with the
 * rest. A section of a static type takes {@link #HEADER} plus its elements' bytes of the buffer's capacity, a
 * dynamic or object section the header only, as in MPJ Express. Where a call's elements are in the program's array
 * is its {@link Placement}. Not thread-safe: one buffer, one thread at a time.
 */
final class Sections {
    /** Capacity bytes a section header takes (MPJ Express's {@code SECTION_OVERHEAD}). */
    static final int HEADER = 8;

    private static final class Section {
        final Type type;
        Object data;
        int count;

        Section(final Type type) {
            this.type = type;
            this.data = Array.newInstance(component(type), 16);
        }
    }

    private final List<Section> list = new ArrayList<>();
    /** The buffer's capacity in bytes, which headers and elements of static types use up. */
    private final int capacity;
    private int used;
    private boolean committed;
    private int current = -1;
    private int next;

    /** @param capacity the buffer's capacity in bytes */
    Sections(final int capacity) {
        this.capacity = capacity;
    }

    /** Starts a section of elements of {@code type}. */
    void header(final Type type) {
        writable("putSectionHeader");
        if (null == type) {
            throw new IllegalArgumentException("mpjbuf.Buffer.putSectionHeader: type=null (expected a Type)");
        }
        reserve("putSectionHeader", HEADER);
        list.add(new Section(type));
    }

    /** Appends {@code at.count()} elements, element {@code i} being {@code src[at.index(i)]}. */
    void put(final String op, final Object src, final Placement at) {
        writable(op);
        if (list.isEmpty()) {
            throw new IllegalStateException("mpjbuf.Buffer." + op + ": no section to write to (expected "
                + "putSectionHeader first)");
        }
        final Section s = list.get(list.size() - 1);
        matches(op, s.type, src);
        final int n = at.count();
        if (n < 0) {
            throw new IllegalArgumentException("mpjbuf.Buffer." + op + ": " + n + " elements (expected >= 0)");
        }
        at.check(op, Array.getLength(src), "is at");
        reserve(op, dynamic(s.type) ? 0 : Math.multiplyExact(n, bytes(s.type)));
        if (s.count + n > Array.getLength(s.data)) {
            s.data = grow(s.data, Math.max(s.count + n, 2 * Array.getLength(s.data)));
        }
        for (int i = 0; i < n; i++) {
            Array.set(s.data, s.count + i, Array.get(src, at.index(i)));
        }
        s.count += n;
    }

    /** Makes the sections readable from the first. */
    void commit() {
        committed = true;
        current = -1;
        next = 0;
    }

    /** Empties the buffer for writing. */
    void clear() {
        list.clear();
        used = 0;
        committed = false;
        current = -1;
        next = 0;
    }

    /** @return the type of the next section, which reads now take their elements from */
    Type nextHeader() {
        readable("getSectionHeader");
        if (current + 1 >= list.size()) {
            throw new IllegalStateException("mpjbuf.Buffer.getSectionHeader: all " + list.size() + " sections "
                + "have been read (expected no more getSectionHeader calls)");
        }
        current++;
        next = 0;
        return list.get(current).type;
    }

    /** @return the number of elements of the current section */
    int size() {
        return section("getSectionSize").count;
    }

    /**
     * Takes the current section's next {@code at.count()} elements into {@code dst}, element {@code i} at
     * {@code at.index(i)}.
     */
    void take(final String op, final Object dst, final Placement at) {
        final Section s = section(op);
        matches(op, s.type, dst);
        final int n = at.count();
        if (n < 0 || n > s.count - next) {
            throw new IllegalArgumentException("mpjbuf.Buffer." + op + ": " + n + " elements asked, the section "
                + "has " + (s.count - next) + " left (expected 0.." + (s.count - next) + ")");
        }
        at.check(op, Array.getLength(dst), "goes to");
        for (int i = 0; i < n; i++) {
            Array.set(dst, at.index(i), Array.get(s.data, next + i));
        }
        next += n;
    }

    /** @return the message: the sections' types, counts and elements */
    byte[] encode(final String call) {
        final Object[] parts = new Object[2 * list.size()];
        for (int i = 0; i < list.size(); i++) {
            final Section s = list.get(i);
            parts[2 * i] = s.type.name();
            parts[2 * i + 1] = grow(s.data, s.count);
        }
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(parts);
        } catch (final NotSerializableException e) {
            throw new IllegalArgumentException(call + ": an object of class " + e.getMessage() + " in the buffer is "
                + "not Serializable (expected java.io.Serializable elements)");
        } catch (final IOException e) {
            throw new IllegalStateException(call + ": cannot serialise the buffer's sections: " + e, e);
        }
        return bytes.toByteArray();
    }

    /** Replaces the sections with a message's; the buffer then needs {@link #commit()} before reading. */
    void decode(final String call, final byte[] message) {
        final Object[] parts;
        try (ObjectInputStream in = new LoaderObjectInputStream(new ByteArrayInputStream(message))) {
            parts = (Object[]) in.readObject();
        } catch (final IOException | ClassNotFoundException | ClassCastException e) {
            throw new IllegalStateException(call + ": cannot read the buffer's sections received: " + e, e);
        }
        clear();
        for (int i = 0; i < parts.length; i += 2) {
            final Type t = Type.valueOf((String) parts[i]);
            reserve(call, HEADER + (dynamic(t) ? 0 : Array.getLength(parts[i + 1]) * bytes(t)));
            final Section s = new Section(t);
            s.data = parts[i + 1];
            s.count = Array.getLength(s.data);
            list.add(s);
        }
    }

    /** @return the elements of the message (for the receiver's status) */
    int elements() {
        int n = 0;
        for (final Section s : list) {
            n += s.count;
        }
        return n;
    }

    private void reserve(final String op, final int bytes) {
        if (used + bytes > capacity) {
            throw new IllegalStateException((op.contains(".") ? op : "mpjbuf.Buffer." + op) + ": needs " + bytes
                + " more bytes, " + used + " of the capacity of " + capacity + " are used (expected a larger buffer, "
                + "or a _DYNAMIC section)");
        }
        used += bytes;
    }

    private void writable(final String op) {
        if (committed) {
            throw new IllegalStateException("mpjbuf.Buffer." + op + ": the buffer is committed for reading "
                + "(expected clear() before writing it again)");
        }
    }

    private void readable(final String op) {
        if (!committed) {
            throw new IllegalStateException("mpjbuf.Buffer." + op + ": the buffer is not committed (expected "
                + "commit() after writing or receiving it, before reading)");
        }
    }

    private Section section(final String op) {
        readable(op);
        if (current < 0) {
            throw new IllegalStateException("mpjbuf.Buffer." + op + ": no section is open (expected "
                + "getSectionHeader first)");
        }
        return list.get(current);
    }

    private static void matches(final String op, final Type type, final Object array) {
        final Class<?> want = component(type);
        final Class<?> got = null == array ? null : array.getClass().getComponentType();
        if (null == got || (want.isPrimitive() ? want != got : got.isPrimitive())) {
            throw new IllegalArgumentException("mpjbuf.Buffer." + op + ": a " + (null == array ? "null array"
                : array.getClass().getSimpleName()) + " for a section of type " + type + " (expected a "
                + want.getSimpleName() + "[])");
        }
    }

    private static Object grow(final Object data, final int length) {
        final Object bigger = Array.newInstance(data.getClass().getComponentType(), length);
        System.arraycopy(data, 0, bigger, 0, Math.min(length, Array.getLength(data)));
        return bigger;
    }

    static boolean dynamic(final Type t) {
        return Type.OBJECT == t || t.name().endsWith("_DYNAMIC");
    }

    private static int bytes(final Type t) {
        return switch (t) {
            case BYTE, BOOLEAN, BYTE_DYNAMIC, BOOLEAN_DYNAMIC -> 1;
            case CHAR, SHORT, CHAR_DYNAMIC, SHORT_DYNAMIC -> 2;
            case INT, FLOAT, INT_DYNAMIC, FLOAT_DYNAMIC -> 4;
            case LONG, DOUBLE, LONG_DYNAMIC, DOUBLE_DYNAMIC -> 8;
            case OBJECT -> 0;
        };
    }

    private static Class<?> component(final Type t) {
        return switch (t) {
            case BYTE, BYTE_DYNAMIC -> byte.class;
            case CHAR, CHAR_DYNAMIC -> char.class;
            case SHORT, SHORT_DYNAMIC -> short.class;
            case BOOLEAN, BOOLEAN_DYNAMIC -> boolean.class;
            case INT, INT_DYNAMIC -> int.class;
            case LONG, LONG_DYNAMIC -> long.class;
            case FLOAT, FLOAT_DYNAMIC -> float.class;
            case DOUBLE, DOUBLE_DYNAMIC -> double.class;
            case OBJECT -> Object.class;
        };
    }
}
