package dev.tutti.transport.shm;

import dev.tutti.ErrorClass;
import dev.tutti.TuttiException;
import dev.tutti.internal.Failures;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The housekeeping of shm job files outside any job: which files belong to dead jobs, and their removal (every rank
 * removes them when it joins a job, see {@link ShmTransport#join}).
 */
public final class ShmJobFiles {
    private ShmJobFiles() {
    }

    /**
     * Returns whether a job file belongs to a dead job: ranks registered in it, none of whose processes is alive and
     * still attached (or, if no rank ever registered, the file is over a minute old).
     *
     * @param file a Tutti shm job file
     * @return true if stale
     * @throws TuttiException of class {@link ErrorClass#INTERN} if it cannot be read
     */
    public static boolean isStale(final Path file) {
        try {
            return ShmFile.isStale(file);
        } catch (final IOException e) {
            throw Failures.io("shm", null, "cannot read " + file, e);
        }
    }

    /**
     * Deletes the stale job files of a directory ({@link #isStale}); every rank does this when it joins a job.
     *
     * @param dir the shm directory
     * @return the files deleted
     */
    public static java.util.List<Path> removeStale(final Path dir) {
        return ShmFile.removeStale(dir);
    }
}
