package dev.tutti.launcher;

import static dev.tutti.launcher.TestJobs.alive;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tutti.launcher.testranks.RankProgram;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.DisabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ssh command line, and the remote script run for real by a local {@code sh} (no ssh here): a "remote shell"
 * {@code sh -c 'exec sh -c "$2"' agent HOST COMMAND} runs the command the way a remote login shell would.
 */
@Timeout(30)
@DisabledOnOs(OS.WINDOWS)
class RemoteCommandTest {
    private static final List<String> FAKE_SSH = List.of("sh", "-c", "exec sh -c \"$2\"", "fake-ssh");

    @Test
    void shouldQuoteWordsForPosixShells() {
        assertEquals("'plain'", RemoteCommand.quote("plain"));
        assertEquals("'it'\\''s $HOME'", RemoteCommand.quote("it's $HOME"));
    }

    @Test
    void shouldBuildTheSshCommandLineWithoutTheSecret() {
        final Launcher launcher = Launcher.builder().ranks(2).hosts(Hosts.parseList(List.of("node-a,node-b")))
            .localHost(LocalHost.of("head", Set.of())).javaCommand("/opt/jdk 25/bin/java")
            .jvmOptions(List.of("-Xmx1g")).classpath("/srv/app/lib/*").mainClass("app.Main")
            .args(List.of("it's", "$x")).export("OMP_NUM_THREADS=2").workingDirectory(Path.of("/srv/app"))
            .rendezvous(TestJobs.FAKE_RENDEZVOUS).build();
        final List<String> argv = launcher.processBuilder(1, "head:4000", "s3cr3t", "job-1").command();

        assertEquals(List.of("ssh", "-o", "BatchMode=yes", "node-b"), argv.subList(0, 4));
        assertEquals(5, argv.size());
        final String remote = argv.get(4);
        assertTrue(remote.startsWith("sh -c '"), remote);
        assertFalse(remote.contains("s3cr3t"), remote);
        final String script = RemoteCommand.script("/srv/app", new LinkedHashMap<>(Map.of("A", "1")),
            "TUTTI_JOB_SECRET", List.of("java"), 2);
        assertTrue(script.startsWith("cd '/srv/app' || exit 127\nIFS= read -r TUTTI_JOB_SECRET || exit 127\n"),
            script);
        assertTrue(script.contains("env 'A=1' 'java' 3<&- </dev/null &\n"), script);
        final String expectedRun = "env 'TUTTI_RANK=1' 'TUTTI_SIZE=2' 'TUTTI_RENDEZVOUS=head:4000' "
            + "'TUTTI_JOB_ID=job-1' 'OMP_NUM_THREADS=2' '/opt/jdk 25/bin/java' '--enable-native-access=ALL-UNNAMED' "
            + "'-Xmx1g' '-cp' '/srv/app/lib/*' "
            + "'app.Main' 'it'\\''s' '$x' 3<&- </dev/null &";
        assertEquals("sh -c " + RemoteCommand.quote(RemoteCommand.script("/srv/app", launcher.rankEnvironment(1,
            "head:4000", "s3cr3t", "job-1").entrySet().stream().filter(e -> !e.getKey().equals("TUTTI_JOB_SECRET"))
            .collect(LinkedHashMap::new, (m, e) -> m.put(e.getKey(), e.getValue()), Map::putAll),
            "TUTTI_JOB_SECRET", launcher.javaCommandLine(), 2)), remote);
        assertTrue(remote.contains(expectedRun.replace("'", "'\\''")), remote);
    }

    @Test
    void shouldRunRemoteRanksThroughTheRemoteShellAndStopThemOnFailure(@TempDir final Path dir) {
        final TestJobs.Output output = new TestJobs.Output();
        final List<String> bindHosts = new ArrayList<>();
        final JobResult ok = TestJobs.job(3, output, "*:info", "*:env=TUTTI_TEST_REMOTE")
            .hosts(Hosts.parseList(List.of("node-a:2,localhost:1"))).localHost(LocalHost.of("head", Set.of()))
            .remoteShell(FAKE_SSH).export("TUTTI_TEST_REMOTE=x y").workingDirectory(dir)
            .rendezvous((host, size, secret) -> {
                bindHosts.add(host);
                return TestJobs.FAKE_RENDEZVOUS.start(host, size, secret);
            }).build().run();

        assertTrue(ok.succeeded(), ok.description() + output.err());
        assertEquals(List.of("0.0.0.0"), bindHosts);
        final List<String> secrets = new ArrayList<>();
        for (final String line : output.outLines()) {
            if (line.startsWith("rank=")) {
                // This host's IPv4 literals, never its name (which may map to loopback), unless it has none.
                assertTrue(line.matches(".* size=3 rendezvous=((\\d+\\.){3}\\d+:1(,(\\d+\\.){3}\\d+:1)*|head:1) .*")
                    && !line.contains("127.0.0.1"), line);
                assertTrue(line.endsWith(" cwd=" + dir), line);
                secrets.add(line.replaceAll(".* secret=(\\S+) .*", "$1"));
            }
        }
        assertEquals(3, secrets.size(), output.out());
        assertEquals(1, Set.copyOf(secrets).size(), secrets.toString());
        assertTrue(secrets.getFirst().matches("[0-9a-f]{64}"), secrets.toString());
        assertEquals(3, output.outLines().stream().filter("TUTTI_TEST_REMOTE=x y"::equals).count(), output.out());

        final TestJobs.Output failing = new TestJobs.Output();
        final JobResult failed = TestJobs.job(3, failing, "0:hang", "2:hang", "1:throw")
            .hosts(Hosts.parseList(List.of("node-a:2,localhost:1"))).localHost(LocalHost.of("head", Set.of()))
            .remoteShell(FAKE_SSH).build().run();

        assertEquals(new JobResult(1, JobResult.Outcome.RANK_FAILED, 1,
            "rank 1 on node-a failed (exit 1): java.lang.IllegalStateException: boom from rank 1"), failed,
            failing.err());
        assertEquals(List.of(), TestJobs.liveRankProcesses());
    }

    @Test
    void shouldTagEveryRanksLinesWithItsHostInAMixedJob() {
        final TestJobs.Output output = new TestJobs.Output();
        final JobResult result = TestJobs.job(3, output, "*:lines=1").tagOutput(true)
            .hosts(Hosts.parseList(List.of("node-a:2,localhost:1"))).localHost(LocalHost.of("head", Set.of()))
            .remoteShell(FAKE_SSH).build().run();

        assertTrue(result.succeeded(), result.description() + output.err());
        assertEquals(Set.of("[1,0][node-a]<stdout>:out 0", "[1,1][node-a]<stdout>:out 0",
            "[1,2][localhost]<stdout>:out 0"), Set.copyOf(output.outLines()), output.out());
        assertEquals(Set.of("[1,0][node-a]<stderr>:err 0", "[1,1][node-a]<stderr>:err 0",
            "[1,2][localhost]<stderr>:err 0"), Set.copyOf(output.errLines()), output.err());
    }

    @Test
    void shouldKillTheRemoteJvmWhenItsInputCloses() throws IOException, InterruptedException {
        assertScriptStopsJvm("hang", 128 + 15);
    }

    @Test
    void shouldKillARemoteJvmThatIgnoresSigtermAfterTheGracePeriod() throws IOException, InterruptedException {
        assertScriptStopsJvm("stubborn", 128 + 9);
    }

    private static void assertScriptStopsJvm(final String action, final int expectedStatus)
        throws IOException, InterruptedException {
        final List<String> java = new ArrayList<>(List.of(Launcher.currentJavaCommand()));
        java.addAll(TestJobs.SMALL_JVM);
        java.addAll(List.of("-cp", TestJobs.testClasspath(), RankProgram.class.getName(), "*:env=SECRET",
            "*:" + action));
        final String script = RemoteCommand.script(System.getProperty("user.dir"), Map.of("TUTTI_RANK", "0"),
            "SECRET", java, 1);
        final Process shell = new ProcessBuilder("sh", "-c", script).redirectErrorStream(true).start();
        final OutputStream stdin = shell.getOutputStream();
        stdin.write("the secret\n".getBytes(StandardCharsets.UTF_8));
        stdin.flush();
        final BufferedReader lines = new BufferedReader(new InputStreamReader(shell.getInputStream(),
            StandardCharsets.UTF_8));
        assertEquals("SECRET=the secret", lines.readLine());
        final String hanging = lines.readLine();
        assertTrue(hanging.startsWith("hanging pid="), hanging);
        final long jvm = Long.parseLong(hanging.substring("hanging pid=".length()));

        stdin.close();

        assertTrue(shell.waitFor(5, TimeUnit.SECONDS), "the remote script did not end");
        assertEquals(expectedStatus, shell.exitValue());
        assertFalse(alive(jvm), "the JVM outlived its input");
    }
}
