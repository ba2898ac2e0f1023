package dev.tutti.launcher;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Builds the command line that starts a rank on another host through a remote shell (ssh by default).
 *
 * <p>The remote command is one string, run by the remote login shell (which must be POSIX: sh, bash, dash, zsh):
 * {@code sh -c '<script>'}. The script
 * <ol>
 *   <li>changes to the launcher's working directory (the same paths are assumed on every host),</li>
 *   <li>reads the job secret from the first line of its standard input, so that the secret never appears on a
 *       command line (where {@code ps} would show it to every user of the host),</li>
 *   <li>starts the JVM in the background with the rank's environment ({@code env VAR=value ... java ...}),</li>
 *   <li>keeps a watcher that stops the JVM when its standard input reaches end of file (SIGTERM, then SIGKILL
 *       after the grace period): ssh closes it when the launcher closes the pipe or the ssh client dies, because
 *       ssh without a terminal does not forward signals, and a remote JVM would otherwise outlive a stopped
 *       job,</li>
 *   <li>kills the JVM on SIGHUP/SIGINT/SIGTERM, and exits with the JVM's status ({@code 128+signal} if killed).</li>
 * </ol>
 * The JVM itself gets {@code /dev/null} as standard input, as every rank does.
 */
final class RemoteCommand {
    private RemoteCommand() {
    }

    /**
     * The argv that starts a rank remotely.
     *
     * @param remoteShell the remote shell and its options, e.g. {@code ssh -o BatchMode=yes}
     * @param host        the host
     * @param cwd         the working directory on that host
     * @param env         the rank's environment variables, except the secret (sent on standard input)
     * @param secretVar   the name of the variable the secret is read into
     * @param command     the JVM's argv
     * @param graceSecs   seconds between SIGTERM and SIGKILL when the watcher stops the JVM
     * @return the full argv: {@code remoteShell host 'sh -c ...'}
     */
    static List<String> argv(final List<String> remoteShell, final String host, final String cwd,
        final Map<String, String> env, final String secretVar, final List<String> command, final long graceSecs) {
        final List<String> argv = new ArrayList<>(remoteShell);
        argv.add(host);
        argv.add("sh -c " + quote(script(cwd, env, secretVar, command, graceSecs)));
        return argv;
    }

    /**
     * The POSIX sh script run on the remote host.
     *
     * @param cwd       the working directory
     * @param env       the environment variables to set (not the secret)
     * @param secretVar the variable the first line of standard input is read into
     * @param command   the JVM's argv
     * @param graceSecs seconds between SIGTERM and SIGKILL when the watcher stops the JVM
     * @return the script
     */
    static String script(final String cwd, final Map<String, String> env, final String secretVar,
        final List<String> command, final long graceSecs) {
        final StringBuilder run = new StringBuilder("env");
        env.forEach((k, v) -> run.append(' ').append(quote(k + "=" + v)));
        command.forEach(a -> run.append(' ').append(quote(a)));
        // fd 3 keeps the real standard input for the watcher: a background job's stdin is /dev/null in sh.
        return "cd " + quote(cwd) + " || exit 127\n"
            + "IFS= read -r " + secretVar + " || exit 127\n"
            + "export " + secretVar + "\n"
            + "exec 3<&0\n"
            + run + " 3<&- </dev/null &\n"
            + "p=$!\n"
            + "trap 'kill $p 2>/dev/null' HUP INT TERM\n"
            + "(cat <&3 >/dev/null 2>&1; kill $p 2>/dev/null; sleep " + graceSecs + "; kill -9 $p 2>/dev/null)"
            + " >/dev/null 2>&1 &\n"
            + "w=$!\n"
            + "exec 3<&-\n"
            + "wait $p; s=$?\n"
            + "while kill -0 $p 2>/dev/null; do wait $p; s=$?; done\n"
            + "kill $w 2>/dev/null\n"
            + "exit $s\n";
    }

    /**
     * Quotes a word for a POSIX shell: single quotes, with each embedded single quote written as {@code '\''}.
     *
     * @param word the word
     * @return the quoted word
     */
    static String quote(final String word) {
        return "'" + word.replace("'", "'\\''") + "'";
    }
}
