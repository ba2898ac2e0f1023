package dev.tutti.trace;

import dev.tutti.internal.Failures;
import dev.tutti.internal.Settings;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.ParseException;

import jdk.jfr.Configuration;
import jdk.jfr.Recording;

/**
 * A rank's Flight Recorder recording, when {@link Trace#ON}: the JDK's {@code default} settings (GC, threads,
 * locks...) and Tutti's events (with the stacks of the calls that the setting {@code tutti.jfr.stacks} picks, and
 * one {@link RecordingEvent} that says which), written to {@code DIR/rank-N.jfr} of the setting {@code tutti.jfr}
 * when the rank closes its job, or when its JVM exits if it never does.
 *
 * <p>Implementation note. One per rank process, owned by the rank's handle, which starts it when it joins the job
 * and closes it once; the file is complete once {@link #close()} returns.
 */
public final class RankRecording implements AutoCloseable {
    private final Recording recording;
    private final Path file;

    private RankRecording(final Recording recording, final Path file) {
        this.recording = recording;
        this.file = file;
    }

    /**
     * Starts this rank's recording, if Tutti's events are on.
     *
     * @param rank the world rank, which names the file
     * @return the running recording, or null when {@link Trace#ON} is off
     * @throws dev.tutti.TuttiException if the directory cannot be made
     */
    public static RankRecording start(final int rank) {
        if (!Trace.ON) {
            return null;
        }
        final Path dir = Path.of(Settings.JFR.text()).toAbsolutePath();
        final Path file = dir.resolve(fileName(rank));
        try {
            Files.createDirectories(dir);
            final Recording r = new Recording(Configuration.getConfiguration("default"));
            r.setName("tutti-rank-" + rank);
            r.setToDisk(true);
            r.setDestination(file);
            r.setDumpOnExit(true);
            r.start();
            Trace.recording(rank);
            return new RankRecording(r, file);
        } catch (final IOException | ParseException e) {
            throw Failures.io("Tutti.init", null, "cannot start the Flight Recorder recording " + file
                + " (setting " + Settings.JFR.name() + ")", e);
        }
    }

    /**
     * @param rank a world rank
     * @return the name of its recording in the directory, {@code rank-N.jfr}
     */
    public static String fileName(final int rank) {
        return "rank-" + rank + ".jfr";
    }

    /** @return where the recording is written */
    public Path file() {
        return file;
    }

    /** Stops the recording and writes its file. */
    @Override
    public void close() {
        recording.stop();
        recording.close();
    }
}
