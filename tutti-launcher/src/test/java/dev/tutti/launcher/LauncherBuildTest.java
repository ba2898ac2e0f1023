package dev.tutti.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Checks of a job description, and what a rank is given; no process is started. */
@Timeout(10)
class LauncherBuildTest {
    private static String refusal(final Launcher.Builder b) {
        return assertThrows(InvalidLaunchException.class, b::build).getMessage();
    }

    private static Launcher.Builder program() {
        return Launcher.builder().rendezvous(TestJobs.FAKE_RENDEZVOUS).classpath("cp").mainClass("app.Main");
    }

    @Test
    void shouldRefuseAJobWithoutAProgram() {
        assertEquals("no program given, expected -cp CLASSPATH MAIN_CLASS [ARGS...] or -jar JAR [ARGS...]",
            refusal(Launcher.builder().ranks(2)));
        assertEquals("-cp lib was given without a main class, expected -cp CLASSPATH MAIN_CLASS",
            refusal(Launcher.builder().classpath("lib")));
    }

    @Test
    void shouldRefuseBothAJarAndAClass() {
        assertEquals("both -jar app.jar and -cp cp were given, expected one program",
            refusal(program().jar("app.jar")));
    }

    @Test
    void shouldRefuseFewerThanOneRankAndNonPositiveTimeouts() {
        assertEquals("ranks=0, expected at least 1 (-n)", refusal(program().ranks(0)));
        assertEquals("timeout=0 s, expected > 0", refusal(program().timeout(Duration.ZERO)));
    }

    @Test
    void shouldRefuseMalformedOrReservedVariables() {
        assertEquals("environment variable name 'A-B' is invalid, expected letters, digits and underscores, not "
            + "starting with a digit (-x VAR or -x VAR=value)", refusal(program().export("A-B=1")));
        assertEquals("environment variable TUTTI_RANK is set by the launcher for each rank and cannot be given with "
            + "-x", refusal(program().export("TUTTI_RANK=3")));
    }

    /** Added for CPU binding through the FFM linker. */
    private static final String NATIVE = "--enable-native-access=ALL-UNNAMED";

    @Test
    void shouldBuildTheJavaCommandLineOfEachRank() {
        assertEquals(List.of("/jdk/bin/java", NATIVE, "-Xmx1g", "-cp", "cp", "app.Main", "a", "-n"),
            program().javaCommand("/jdk/bin/java").jvmOptions(List.of("-Xmx1g")).args(List.of("a", "-n")).build()
                .javaCommandLine());
        assertEquals(List.of("/jdk/bin/java", NATIVE, "-jar", "app.jar", "x"), Launcher.builder()
            .javaCommand("/jdk/bin/java").jar("app.jar").args(List.of("x")).build().javaCommandLine());
        // A user's own native-access option wins.
        assertEquals(List.of("/jdk/bin/java", "--enable-native-access=dev.tutti", "-jar", "app.jar"),
            Launcher.builder().javaCommand("/jdk/bin/java").jvmOptions(List.of("--enable-native-access=dev.tutti"))
                .jar("app.jar").build().javaCommandLine());
    }

    @Test
    void shouldUseTheJavaCommandOfThisJvmByDefault() {
        assertEquals(ProcessHandle.current().info().command().orElseThrow(),
            program().build().javaCommandLine().getFirst());
    }

    @Test
    void shouldSetAndForwardVariablesAfterTheLaunchVariables() {
        final String path = System.getenv("PATH");
        final Map<String, String> env = program().ranks(4).export("PATH").export("TUTTI_TEST_SURELY_UNSET")
            .export("A=x=y").build().rankEnvironment(2, "127.0.0.1:9", "abc", "job-7");
        assertEquals(List.of("TUTTI_RANK", "TUTTI_SIZE", "TUTTI_RENDEZVOUS", "TUTTI_JOB_SECRET", "TUTTI_JOB_ID",
            "PATH", "A"), List.copyOf(env.keySet()));
        assertEquals(List.of("2", "4", "127.0.0.1:9", "abc", "job-7", path, "x=y"), List.copyOf(env.values()));
        assertFalse(env.containsKey("TUTTI_TEST_SURELY_UNSET"));
    }

    @Test
    void shouldDescribeExitCodesAndSignals() {
        assertEquals("exit 3", Job.describeExit(3, false));
        assertEquals("killed by signal 9 (SIGKILL), exit 137", Job.describeExit(137, false));
        assertEquals("killed by signal 15 (SIGTERM), exit 143", Job.describeExit(143, true));
        assertEquals("exit 255: ssh could not run the command", Job.describeExit(255, true));
        assertEquals("exit 255", Job.describeExit(255, false));
    }
}
