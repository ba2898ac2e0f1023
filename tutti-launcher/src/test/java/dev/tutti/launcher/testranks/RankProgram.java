package dev.tutti.launcher.testranks;

import dev.tutti.ErrorClass;
import dev.tutti.Tutti;
import dev.tutti.TuttiException;

import java.util.ArrayList;
import java.util.List;

/**
 * A rank program for launcher tests; it calls {@code Tutti.init()} only when told to. Arguments are
 * {@code R:action} (for rank R) or {@code *:action} (every rank), run in order:
 * <ul>
 *   <li>{@code info}: prints {@code rank=R size=S rendezvous=... job=... secret=... pid=... cwd=...} on stdout</li>
 *   <li>{@code env=NAME}: prints {@code NAME=value} (or {@code NAME unset})</li>
 *   <li>{@code lines=N}: prints {@code out i} on stdout and {@code err i} on stderr, i &lt; N</li>
 *   <li>{@code partial}: prints {@code no newline} without a newline</li>
 *   <li>{@code throw}: throws {@code IllegalStateException("boom from rank R")}</li>
 *   <li>{@code exit=N}: {@code System.exit(N)}</li>
 *   <li>{@code hang}: prints {@code hanging pid=P} and sleeps forever</li>
 *   <li>{@code stubborn}: adds a shutdown hook that never ends (so SIGTERM cannot stop the JVM), then hangs</li>
 *   <li>{@code log=TEXT}: logs TEXT at INFO through {@code System.Logger} (a two-line java.util.logging record on
 *       stderr)</li>
 *   <li>{@code trace}: prints the stack trace of {@code IllegalStateException("step 5 failed")} caused by
 *       {@code AssertionError("expected 4 but was 5")} on stderr, and goes on</li>
 *   <li>{@code peerFailed=N}: throws the {@code TuttiException} a rank gets when its peer N fails</li>
 *   <li>{@code wrappedPeerFailed=N}: throws {@code IllegalStateException("solver step failed")} caused by that
 *       {@code TuttiException}</li>
 *   <li>{@code slowExit=MS}: adds a shutdown hook that takes MS ms (the JVM exits that much later)</li>
 *   <li>{@code init}: {@code Tutti.init()} (needs the real rendezvous), then prints {@code joined job=ID}</li>
 *   <li>{@code close}: closes what {@code init} opened</li>
 * </ul>
 */
public final class RankProgram {
    private static Tutti tutti;

    private RankProgram() {
    }

    /**
     * Runs the actions for this rank.
     *
     * @param args the actions
     * @throws InterruptedException never (sleeps forever when hanging)
     */
    public static void main(final String[] args) throws InterruptedException {
        final String rank = System.getenv("TUTTI_RANK");
        final List<String> actions = new ArrayList<>();
        for (final String a : args) {
            final int colon = a.indexOf(':');
            final String who = a.substring(0, colon);
            if ("*".equals(who) || who.equals(rank)) {
                actions.add(a.substring(colon + 1));
            }
        }
        for (final String action : actions) {
            final int eq = action.indexOf('=');
            final String name = eq < 0 ? action : action.substring(0, eq);
            final String value = eq < 0 ? "" : action.substring(eq + 1);
            switch (name) {
                case "info" -> System.out.println("rank=" + rank + " size=" + System.getenv("TUTTI_SIZE")
                    + " rendezvous=" + System.getenv("TUTTI_RENDEZVOUS") + " job=" + System.getenv("TUTTI_JOB_ID")
                    + " secret=" + System.getenv("TUTTI_JOB_SECRET") + " pid=" + ProcessHandle.current().pid()
                    + " cwd=" + System.getProperty("user.dir"));
                case "env" -> System.out.println(null == System.getenv(value) ? value + " unset"
                    : value + "=" + System.getenv(value));
                case "lines" -> {
                    for (int i = 0; i < Integer.parseInt(value); i++) {
                        System.out.println("out " + i);
                        System.err.println("err " + i);
                    }
                }
                case "partial" -> System.out.print("no newline");
                case "throw" -> throw new IllegalStateException("boom from rank " + rank);
                case "exit" -> System.exit(Integer.parseInt(value));
                case "hang" -> hang();
                case "stubborn" -> {
                    Runtime.getRuntime().addShutdownHook(new Thread(RankProgram::sleepForever));
                    hang();
                }
                case "log" -> System.getLogger(RankProgram.class.getName()).log(System.Logger.Level.INFO, value);
                case "trace" -> new IllegalStateException("step 5 failed", new AssertionError("expected 4 but was 5"))
                    .printStackTrace();
                case "peerFailed" -> throw peerFailure(rank, value);
                case "wrappedPeerFailed" -> throw new IllegalStateException("solver step failed",
                    peerFailure(rank, value));
                case "slowExit" -> Runtime.getRuntime().addShutdownHook(new Thread(() -> pause(Long.parseLong(value))));
                case "init" -> {
                    tutti = Tutti.init();
                    System.out.println("joined job=" + System.getenv("TUTTI_JOB_ID"));
                }
                case "close" -> tutti.close();
                default -> throw new IllegalArgumentException("unknown action " + action);
            }
        }
    }

    private static TuttiException peerFailure(final String rank, final String peer) {
        return new TuttiException(ErrorClass.PROC_FAILED, "recv (comm=WORLD, rank=" + rank + ") from rank=" + peer
            + " tag=0 failed: rank " + peer + " failed: the tcp connection from rank=" + rank + " to rank=" + peer
            + " was reset");
    }

    /** Stands for a slow shutdown (flushing, closing); it does not wait for another rank. */
    private static void pause(final long millis) {
        try {
            Thread.sleep(millis);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void hang() {
        System.out.println("hanging pid=" + ProcessHandle.current().pid());
        System.out.flush();
        sleepForever();
    }

    private static void sleepForever() {
        while (true) {
            try {
                Thread.sleep(60_000);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
