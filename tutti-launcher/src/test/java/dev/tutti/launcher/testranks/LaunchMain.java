package dev.tutti.launcher.testranks;

import dev.tutti.launcher.Launcher;
import dev.tutti.launcher.RendezvousService;

import java.util.Arrays;
import java.util.List;

/**
 * A launcher process for tests that signal the launcher itself: {@code LaunchMain [--rendezvous] N ACTIONS...} runs
 * N ranks of {@link RankProgram} with a stand-in rendezvous (or, with {@code --rendezvous}, the real one, so that
 * the ranks can call {@code Tutti.init()}) and exits with the job's status.
 */
public final class LaunchMain {
    private LaunchMain() {
    }

    /**
     * Runs the job.
     *
     * @param args {@code --rendezvous} optionally, the number of ranks, then the program's actions
     */
    public static void main(final String[] args) {
        final boolean real = "--rendezvous".equals(args[0]);
        final int first = real ? 1 : 0;
        final RendezvousService.Factory none = (host, size, secret) -> new RendezvousService() {
            @Override
            public int port() {
                return 1;
            }

            @Override
            public void close() {
            }
        };
        final int status = Launcher.builder().ranks(Integer.parseInt(args[first]))
            .rendezvous(real ? RendezvousService.tutti() : none)
            .jvmOptions(List.of("-Xmx64m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"))
            .classpath(System.getProperty("java.class.path")).mainClass(RankProgram.class.getName())
            .args(Arrays.asList(args).subList(first + 1, args.length)).build().run().exitStatus();
        System.exit(status);
    }
}
