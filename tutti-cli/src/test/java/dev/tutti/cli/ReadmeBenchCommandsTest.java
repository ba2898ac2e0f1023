package dev.tutti.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * The documented {@code bin/tutti run} commands that run a benchmark program ({@code dev.tutti.bench...}), run as
 * written, as {@link ReadmeCommandsTest} runs the others.
 */
// Runs alone (@Isolated): a benchmark's ranks poll for seconds; beside another class's rank JVMs on these 2 cores
// each of their waits lasts a scheduler slice, and the run takes several times as long.
@Isolated
@Tag("process")
@Timeout(180)
class ReadmeBenchCommandsTest {
    @TestFactory
    Stream<DynamicTest> everyLocalBenchmarkCommandRunsAsWritten() throws IOException {
        final List<DynamicTest> tests = ReadmeCommandsTest.localRuns(true).toList();
        assertTrue(tests.size() >= 2, "documented benchmark commands: " + tests.size());
        return tests.stream();
    }
}
