package mpi;

import dev.tutti.Tutti;

import java.time.Duration;

/**
 * Test harness: runs an mpi program on n ranks as threads of this JVM (Tutti's embedded mode). Each rank thread
 * gets a fresh mpi state ({@link Env#bindTestRank()}), so {@code MPI.Init} there joins that rank, and an abort
 * fails the job (its exception's cause chain holds {@link MpiErrors.AbortError}) instead of exiting the JVM.
 */
final class MpiJobs {
    /** An mpi program's main. */
    @FunctionalInterface
    interface Program {
        void main(String[] args) throws Exception;
    }

    private MpiJobs() {
    }

    static void run(final int n, final Program program) {
        Tutti.runLocal(n, Tutti.Options.defaults().timeout(Duration.ofSeconds(30)), world -> {
            Env.bindTestRank();
            try {
                program.main(new String[0]);
            } finally {
                Env.unbindTestRank();
            }
        });
    }

    /** @return the exit status of the abort that failed a job, or -1 if the failure was no abort */
    static int abortStatus(final Throwable jobFailure) {
        for (Throwable t = jobFailure; null != t; t = t.getCause()) {
            if (t instanceof MpiErrors.AbortError a) {
                return a.status();
            }
        }
        return -1;
    }
}
