package mpi;

import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Checks by reflection that every type, constructor, method and constant of Open MPI 4.1's Java API exists here
 * with its exact signature: parameter and return types, static-ness, visibility, whether it declares
 * {@link MPIException}, and each constant's value. The listing ({@code ompi-java-api.txt} beside this class) was
 * generated from the interface specification, one member a line; its header explains the format.
 */
class ApiSignatureTest {

    private static final Set<String> PRIMITIVES = Set.of("int", "long", "boolean", "void", "double", "float",
        "short", "char", "byte");

    @Test
    void shouldHaveEveryMemberOfTheSpecification() throws IOException {
        final List<String> lines = listing();
        final List<String> problems = new ArrayList<>();
        int checked = 0;
        for (final String line : lines) {
            try {
                final String problem = check(line);
                if (null != problem) {
                    problems.add(line + "  ->  " + problem);
                }
            } catch (final ReflectiveOperationException e) {
                problems.add(line + "  ->  missing: " + e);
            }
            checked++;
        }
        assertTrue(checked > 700, "the listing holds " + checked + " lines, expected the whole specification");
        assertTrue(problems.isEmpty(), problems.size() + " of " + checked + " members differ from the "
            + "specification:\n" + String.join("\n", problems));
    }

    @Test
    void shouldCountWhatTheSpecificationCounts() throws IOException {
        final List<String> lines = listing();
        assertEquals(41, lines.stream().filter(l -> l.startsWith("type ")).count());
        final long publicMethods = lines.stream().filter(l -> l.startsWith("method ") && !l.contains("protected"))
            .count();
        assertEquals(501, publicMethods, "public methods listed (each overload counted, Freeable's one included)");
        assertEquals(12 + 4, lines.stream().filter(l -> l.startsWith("ctor ")).count(),
            "12 declared public constructors and the implicit ones of MPI, UserFunction, Struct and Struct.Data");
    }

    @Test
    void shouldReportAMemberThatIsMissing() throws ReflectiveOperationException {
        assertTrue(throwsReflective("method mpi.Comm#sendd(java.lang.Object) void public throws"));
        assertTrue(throwsReflective("type mpi.Window class final extends=- implements=-"));
        assertNotNull(check("method mpi.Comm#getRank() long public,final throws"));
        assertNotNull(check("method mpi.Comm#getRank() int public,final nothrows"));
        assertNotNull(check("field mpi.MPI#ERR_WIN int static final = 54"));
        assertNotNull(check("type mpi.Intercomm class - extends=mpi.Comm implements=-"));
    }

    private static boolean throwsReflective(final String line) {
        try {
            check(line);
            return false;
        } catch (final ReflectiveOperationException e) {
            return true;
        }
    }

    private static List<String> listing() throws IOException {
        final InputStream in = ApiSignatureTest.class.getResourceAsStream("ompi-java-api.txt");
        assertNotNull(in, "ompi-java-api.txt beside ApiSignatureTest");
        final List<String> lines = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            for (String l = r.readLine(); null != l; l = r.readLine()) {
                if (!l.isBlank() && !l.startsWith("#")) {
                    lines.add(l.strip());
                }
            }
        }
        return lines;
    }

    /** @return null when the member matches its line, else what differs */
    private static String check(final String line) throws ReflectiveOperationException {
        final String[] w = line.split(" ");
        return switch (w[0]) {
            case "type" -> checkType(w);
            case "ctor" -> checkConstructor(w);
            case "method" -> checkMethod(w);
            case "field" -> checkField(line, w);
            default -> "unknown line kind " + w[0];
        };
    }

    private static String checkType(final String[] w) throws ReflectiveOperationException {
        final Class<?> c = type(w[1]);
        if (!Modifier.isPublic(c.getModifiers())) {
            return "not public";
        }
        if ("interface".equals(w[2]) != c.isInterface()) {
            return "kind is not " + w[2];
        }
        if ("final".equals(w[3]) != Modifier.isFinal(c.getModifiers())
            || "abstract".equals(w[3]) != (Modifier.isAbstract(c.getModifiers()) && !c.isInterface())) {
            return "modifier is not " + w[3] + ": " + Modifier.toString(c.getModifiers());
        }
        final String ext = w[4].substring("extends=".length());
        final Class<?> superclass = "-".equals(ext) ? (c.isInterface() ? null : Object.class) : type(ext);
        if (superclass != visibleSuperclass(c)) {
            return "superclass is " + c.getSuperclass();
        }
        final String imps = w[5].substring("implements=".length());
        if (!"-".equals(imps)) {
            for (final String i : imps.split(",")) {
                if (!type(i).isAssignableFrom(c)) {
                    return "does not implement " + i;
                }
            }
        }
        return null;
    }

    private static String checkConstructor(final String[] w) throws ReflectiveOperationException {
        final String sig = w[1];
        final Class<?> c = type(sig.substring(0, sig.indexOf('(')));
        final Class<?>[] params = params(sig);
        final boolean inner = null != c.getEnclosingClass() && !Modifier.isStatic(c.getModifiers());
        final Constructor<?> k = inner ? c.getDeclaredConstructor(prepend(c.getEnclosingClass(), params))
            : c.getDeclaredConstructor(params);
        if (!Modifier.isPublic(k.getModifiers())) {
            return "not public";
        }
        return checkThrows(k, w[2]);
    }

    private static String checkMethod(final String[] w) throws ReflectiveOperationException {
        final String sig = w[1];
        final int hash = sig.indexOf('#');
        final Class<?> c = type(sig.substring(0, hash));
        final String name = sig.substring(hash + 1, sig.indexOf('('));
        final Method m = find(c, name, params(sig));
        if (null == m) {
            throw new NoSuchMethodException(sig);
        }
        if (type(w[2]) != m.getReturnType()) {
            return "returns " + m.getReturnType().getName();
        }
        final String mods = 5 == w.length ? w[3] : "";
        final Set<String> want = Set.copyOf(Arrays.asList(mods.split(",")));
        final int have = m.getModifiers();
        final boolean publicWanted = want.contains("public") || c.isInterface();
        if (publicWanted != Modifier.isPublic(have) || want.contains("protected") != Modifier.isProtected(have)) {
            return "visibility is " + Modifier.toString(have);
        }
        if (want.contains("static") != Modifier.isStatic(have)) {
            return "static-ness differs: " + Modifier.toString(have);
        }
        if (want.contains("abstract") != (Modifier.isAbstract(have) && !c.isInterface())) {
            return "abstract-ness differs: " + Modifier.toString(have);
        }
        if (!want.contains("final") && Modifier.isFinal(have) && !Modifier.isFinal(c.getModifiers())) {
            return "final, so subclasses cannot override it as they can in Open MPI";
        }
        return checkThrows(m, w[w.length - 1]);
    }

    private static String checkField(final String line, final String[] w) throws ReflectiveOperationException {
        final String sig = w[1];
        final int hash = sig.indexOf('#');
        final Field f = type(sig.substring(0, hash)).getField(sig.substring(hash + 1));
        final int mods = f.getModifiers();
        if (!Modifier.isPublic(mods) || !Modifier.isStatic(mods) || !Modifier.isFinal(mods)) {
            return "not public static final: " + Modifier.toString(mods);
        }
        if (type(w[2]) != f.getType()) {
            return "type is " + f.getType().getName();
        }
        final int eq = line.indexOf(" = ");
        if (eq > 0 && f.getInt(null) != Integer.parseInt(line.substring(eq + 3))) {
            return "value is " + f.getInt(null);
        }
        return null;
    }

    /**
     * The first public superclass: a package-private class between (Comm's machinery) is invisible to programs,
     * which neither name nor reach it.
     */
    private static Class<?> visibleSuperclass(final Class<?> c) {
        Class<?> s = c.getSuperclass();
        while (null != s && !Modifier.isPublic(s.getModifiers())) {
            s = s.getSuperclass();
        }
        return s;
    }

    /** An inner class's constructors take the enclosing instance first. */
    private static Class<?>[] prepend(final Class<?> first, final Class<?>[] rest) {
        final Class<?>[] all = new Class<?>[rest.length + 1];
        all[0] = first;
        System.arraycopy(rest, 0, all, 1, rest.length);
        return all;
    }

    /** The declared or inherited method, skipping bridges (a covariant override's erased twin). */
    private static Method find(final Class<?> c, final String name, final Class<?>[] params) {
        for (Class<?> k = c; null != k; k = k.getSuperclass()) {
            for (final Method m : k.getDeclaredMethods()) {
                if (!m.isBridge() && m.getName().equals(name) && Arrays.equals(params, m.getParameterTypes())) {
                    return m;
                }
            }
        }
        for (final Class<?> i : c.getInterfaces()) {
            final Method m = find(i, name, params);
            if (null != m) {
                return m;
            }
        }
        return null;
    }

    private static String checkThrows(final Executable e, final String throwsWord) {
        final boolean declares = Arrays.asList(e.getExceptionTypes()).contains(MPIException.class);
        if ("throws".equals(throwsWord) != declares) {
            return declares ? "declares MPIException, the specification's does not"
                : "does not declare MPIException";
        }
        for (final Class<?> x : e.getExceptionTypes()) {
            if (MPIException.class != x && !RuntimeException.class.isAssignableFrom(x)) {
                return "declares " + x.getName();
            }
        }
        return null;
    }

    private static Class<?>[] params(final String sig) throws ClassNotFoundException {
        final String inner = sig.substring(sig.indexOf('(') + 1, sig.lastIndexOf(')'));
        if (inner.isEmpty()) {
            return new Class<?>[0];
        }
        final String[] names = inner.split(",");
        final Class<?>[] types = new Class<?>[names.length];
        for (int i = 0; i < names.length; i++) {
            types[i] = type(names[i]);
        }
        return types;
    }

    private static Class<?> type(final String name) throws ClassNotFoundException {
        if (name.endsWith("[]")) {
            return type(name.substring(0, name.length() - 2)).arrayType();
        }
        if (PRIMITIVES.contains(name)) {
            return switch (name) {
                case "int" -> int.class;
                case "long" -> long.class;
                case "boolean" -> boolean.class;
                case "void" -> void.class;
                case "double" -> double.class;
                case "float" -> float.class;
                case "short" -> short.class;
                case "char" -> char.class;
                default -> byte.class;
            };
        }
        return Class.forName(name, false, ApiSignatureTest.class.getClassLoader());
    }
}
