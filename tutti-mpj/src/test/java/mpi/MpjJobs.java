package mpi;

import dev.tutti.Tutti;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * Test harness: runs an MPJ program on n ranks as threads of this JVM (Tutti's embedded mode). Each rank thread
 * gets a fresh MPI state ({@link Env#bindTestRank()}), so {@code MPI.Init} there joins that rank and an abort fails
 * the job instead of exiting the JVM.
 */
final class MpjJobs {
    /** A program's main. */
    @FunctionalInterface
    interface Program {
        void main(String[] args) throws Exception;
    }

    private MpjJobs() {
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

    /** Runs an MPJ program in the default package as it is, by name: {@code main(args)}. */
    static void runMain(final int n, final String mainClass, final String... args) {
        run(n, ignored -> {
            try {
                Class.forName(mainClass).getMethod("main", String[].class).invoke(null, (Object) args.clone());
            } catch (final InvocationTargetException e) {
                throw e.getCause() instanceof Exception x ? x : new RuntimeException(e.getCause());
            }
        });
    }

    /** Runs a body between MPI.Init and MPI.Finalize on every rank. */
    static void mpi(final int n, final Program body) {
        run(n, args -> {
            MPI.Init(args);
            body.main(args);
            MPI.Finalize();
        });
    }

    /**
     * Runs a job with {@code System.out} captured (the ranks of an embedded job print there); the caller's test class
     * must be {@code @Isolated}.
     *
     * @return what the job printed
     */
    static String output(final Runnable job) {
        final PrintStream old = System.out;
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try {
            job.run();
        } finally {
            System.setOut(old);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
