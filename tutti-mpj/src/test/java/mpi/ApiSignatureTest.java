package mpi;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Checks by reflection that every type, field, constructor and method of MPJ Express 0.44's API (the listing
 * {@code mpj-api.txt} beside this class, taken line by line from the interface specification) exists here with its
 * exact declaration: modifiers, types, parameter types, the {@code throws MPIException} clause, superclass, and
 * the values of the constants.
 */
class ApiSignatureTest {

    private static final Pattern TYPE = Pattern.compile(
        "public (abstract )?class ([\\w.]+)( extends ([\\w.]+))?( implements ([\\w.]+))?");
    private static final Pattern FIELD = Pattern.compile("public ((?:static |final )*)([\\w.\\[\\]]+) (\\w+)( = (.*))?");
    private static final Pattern EXEC = Pattern.compile(
        "public ((?:static |abstract |final )*)(?:([\\w.\\[\\]]+) )?([\\w.]+)\\(([^)]*)\\)( throws ([\\w.]+))?");

    @Test
    void shouldHaveEveryMemberOfTheSpecification() throws IOException {
        final List<String> problems = new ArrayList<>();
        int checked = 0;
        for (final String line : listing()) {
            checked++;
            try {
                final String p = check(line);
                if (null != p) {
                    problems.add(line + "  ->  " + p);
                }
            } catch (final ReflectiveOperationException e) {
                problems.add(line + "  ->  missing: " + e);
            }
        }
        assertEquals(277, checked, "members listed: 28 types, 85 fields, 29 constructors, 135 methods");
        assertTrue(problems.isEmpty(), problems.size() + " of " + checked + " members differ from the "
            + "specification:\n" + String.join("\n", problems));
    }

    @Test
    void shouldGiveTheNonFinalConstantsMpjExpressValues() {
        final Map<String, Integer> values = Map.ofEntries(Map.entry("UNDEFINED", -1), Map.entry("ANY_SOURCE", -2),
            Map.entry("ANY_TAG", -2), Map.entry("PROC_NULL", -3), Map.entry("THREAD_SINGLE", 1),
            Map.entry("THREAD_FUNNELED", 2), Map.entry("THREAD_SERIALIZED", 3), Map.entry("THREAD_MULTIPLE", 4),
            Map.entry("GRAPH", 1), Map.entry("CART", 2), Map.entry("TAG_UB", 0), Map.entry("HOST", 0),
            Map.entry("IO", 0), Map.entry("BSEND_OVERHEAD", 0), Map.entry("SEND_OVERHEAD", 0),
            Map.entry("RECV_OVERHEAD", 0));
        values.forEach((name, v) -> {
            try {
                assertEquals(v, MPI.class.getField(name).get(null), name);
            } catch (final ReflectiveOperationException e) {
                throw new AssertionError(name, e);
            }
        });
        assertEquals(Runtime.getRuntime().availableProcessors(), MPI.NUM_OF_PROCESSORS);
        final Datatype[] types = {MPI.NULL, MPI.BYTE, MPI.CHAR, MPI.SHORT, MPI.BOOLEAN, MPI.INT, MPI.LONG, MPI.FLOAT,
            MPI.DOUBLE, MPI.PACKED, MPI.LB, MPI.UB, MPI.OBJECT};
        assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, -1, -1, 12),
            Arrays.stream(types).map(Datatype::getType).toList());
        assertEquals(List.of(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12), Arrays.stream(new Op[] {MPI.MAX, MPI.MIN,
            MPI.SUM, MPI.PROD, MPI.LAND, MPI.BAND, MPI.LOR, MPI.BOR, MPI.LXOR, MPI.BXOR, MPI.MAXLOC, MPI.MINLOC})
            .map(o -> o.opCode).toList());
        assertEquals(-2, MPI.EMPTY_STATUS.source);
        assertEquals(-2, MPI.EMPTY_STATUS.tag);
        assertTrue(MPI.REQUEST_NULL.Is_null());
        assertEquals(4, MPI.INT.getByteSize());
        assertEquals(3, Group.EMPTY);
    }

    @Test
    void shouldKeepTheExceptionUncheckedAndTheBuffersMakeable() {
        assertTrue(RuntimeException.class.isAssignableFrom(MPIException.class), "MPIException is unchecked");
        assertNotNull(new mpjbuf.Buffer(mpjbuf.BufferFactory.create(8), MPI.SEND_OVERHEAD, 8).getStaticBuffer());
    }

    @Test
    void shouldReportAMemberThatDiffers() throws ReflectiveOperationException {
        assertNotNull(check("method mpi.Comm | public long Size() throws MPIException"));
        assertNotNull(check("field mpi.MPI | public static final int IDENT = 7"));
        assertNotNull(check("method mpi.Comm | public static int Size() throws MPIException"));
        assertNotNull(check("type mpi.Intercomm | public class Intercomm extends Intracomm"));
        assertNull(check("method mpi.Comm | public int Size() throws MPIException"));
    }

    private static List<String> listing() throws IOException {
        try (InputStream in = ApiSignatureTest.class.getResourceAsStream("mpj-api.txt")) {
            assertNotNull(in, "mpj-api.txt beside the test");
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                .filter(l -> !l.isBlank() && !l.startsWith("#")).toList();
        }
    }

    /** @return what differs, or null if the member is as declared */
    private static String check(final String line) throws ReflectiveOperationException {
        final String[] kindAndRest = line.split(" ", 2);
        final String[] classAndDecl = kindAndRest[1].split(" \\| ", 2);
        final Class<?> c = Class.forName(classAndDecl[0]);
        final String decl = classAndDecl[1];
        return switch (kindAndRest[0]) {
            case "type" -> checkType(c, decl);
            case "field" -> checkField(c, decl);
            case "ctor", "method" -> checkExecutable(c, decl, "ctor".equals(kindAndRest[0]));
            default -> "unknown kind";
        };
    }

    private static String checkType(final Class<?> c, final String decl) {
        final Matcher m = TYPE.matcher(decl);
        if (!m.matches()) {
            return "unparsed";
        }
        if (!Modifier.isPublic(c.getModifiers()) || (null != m.group(1)) != Modifier.isAbstract(c.getModifiers())) {
            return "modifiers " + Modifier.toString(c.getModifiers());
        }
        if (null != m.group(4) && !c.getSuperclass().getName().equals(qualify(m.group(4)))) {
            return "extends " + c.getSuperclass().getName();
        }
        if (null != m.group(6) && Arrays.stream(c.getInterfaces()).noneMatch(i -> i.getSimpleName().equals(m.group(6)))) {
            return "does not implement " + m.group(6);
        }
        return null;
    }

    private static String checkField(final Class<?> c, final String decl) throws ReflectiveOperationException {
        final Matcher m = FIELD.matcher(decl);
        if (!m.matches()) {
            return "unparsed";
        }
        final Field f = c.getField(m.group(3));
        final int mods = f.getModifiers();
        if (m.group(1).contains("static") != Modifier.isStatic(mods) || m.group(1).contains("final")
            != Modifier.isFinal(mods)) {
            return "modifiers " + Modifier.toString(mods);
        }
        if (!f.getType().getName().equals(type(m.group(2)).getName())) {
            return "type " + f.getType().getName();
        }
        if (null != m.group(5) && !String.valueOf(f.get(null)).equals(m.group(5))) {
            return "value " + f.get(null);
        }
        return null;
    }

    private static String checkExecutable(final Class<?> c, final String decl, final boolean ctor)
        throws ReflectiveOperationException {
        final Matcher m = EXEC.matcher(decl);
        if (!m.matches()) {
            return "unparsed";
        }
        final List<Class<?>> params = new ArrayList<>();
        for (final String p : m.group(4).split(",")) {
            if (!p.isBlank()) {
                params.add(type(p.trim().split(" ")[0]));
            }
        }
        final Class<?>[] ps = params.toArray(new Class<?>[0]);
        final Executable e;
        if (ctor) {
            e = c.getConstructor(ps);
        } else {
            final Method method = c.getMethod(m.group(3), ps);
            if (!method.getReturnType().getName().equals(type(m.group(2)).getName())) {
                return "returns " + method.getReturnType().getName();
            }
            e = method;
        }
        final int mods = e.getModifiers();
        if (!Modifier.isPublic(mods) || m.group(1).contains("static") != Modifier.isStatic(mods)
            || m.group(1).contains("abstract") != Modifier.isAbstract(mods)) {
            return "modifiers " + Modifier.toString(mods);
        }
        final boolean declares = Arrays.stream(e.getExceptionTypes()).anyMatch(x -> x == MPIException.class);
        if ((null != m.group(6)) != declares) {
            return declares ? "declares throws MPIException" : "lacks throws MPIException";
        }
        return null;
    }

    private static String qualify(final String name) {
        if (name.contains(".")) {
            return name;
        }
        try {
            return Class.forName("mpi." + name).getName();
        } catch (final ClassNotFoundException e) {
            return "java.lang." + name;
        }
    }

    private static Class<?> type(final String name) throws ClassNotFoundException {
        if (name.endsWith("[]")) {
            return type(name.substring(0, name.length() - 2)).arrayType();
        }
        return switch (name) {
            case "int" -> int.class;
            case "long" -> long.class;
            case "boolean" -> boolean.class;
            case "double" -> double.class;
            case "float" -> float.class;
            case "short" -> short.class;
            case "char" -> char.class;
            case "byte" -> byte.class;
            case "void" -> void.class;
            default -> Class.forName(qualify(name));
        };
    }
}
