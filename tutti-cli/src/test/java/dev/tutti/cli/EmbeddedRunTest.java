package dev.tutti.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.tutti.cli.testranks.AssertingRank;
import dev.tutti.launcher.RendezvousService;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.UndeclaredThrowableException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code tutti run --embedded}: the ranks are threads of this JVM, and the failure line names what a rank threw. */
@Timeout(30)
class EmbeddedRunTest {
    @Test
    void shouldNameTheAssertionErrorARankThrewNotTheReflectionWrapper() throws URISyntaxException {
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8);
        final String cp = Path.of(AssertingRank.class.getProtectionDomain().getCodeSource().getLocation().toURI())
            .toString();

        final int status = TuttiCommand.newCommandLine(new RunCommand(RendezvousService.tutti(), System.out,
            errStream)).execute("run", "--embedded", "-n", "3", "-cp", cp, AssertingRank.class.getName());

        final String text = err.toString(StandardCharsets.UTF_8);
        assertEquals(1, status, text);
        assertEquals("tutti run: rank 1 failed: java.lang.AssertionError: rank one asserts", text.strip());
        assertFalse(text.contains("InvocationTargetException"), text);
    }

    @Test
    void shouldUnwrapReflectionAndFutureWrappers() {
        final AssertionError cause = new AssertionError("x");

        assertSame(cause, EmbeddedRun.unwrap(new InvocationTargetException(new UndeclaredThrowableException(
            new ExecutionException(cause)))));
        final IllegalStateException plain = new IllegalStateException("y", cause);
        assertSame(plain, EmbeddedRun.unwrap(plain));
        final InvocationTargetException empty = new InvocationTargetException(null);
        assertSame(empty, EmbeddedRun.unwrap(empty));
    }
}
