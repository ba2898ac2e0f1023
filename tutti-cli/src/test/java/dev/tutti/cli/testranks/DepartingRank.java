package dev.tutti.cli.testranks;

import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Op;
import dev.tutti.Tutti;
import dev.tutti.TuttiException;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Rank 1 departs ({@code args[0]}: {@code close}, {@code throw}, {@code exit} or {@code kill}) right after a first
 * barrier, while every other rank waits for it in {@code args[1]} ({@code recv}, {@code barrier}, {@code bcast}
 * from rank 1, {@code allreduce} or {@code tagged}, a tagged allreduce's end). Rank 1 prints
 * {@code departing at=<epoch ms>}; a waiting rank prints {@code rank R failed after=<ms> ms: <message>} and throws,
 * or {@code rank R returned} if its operation completed.
 */
public final class DepartingRank {
    private DepartingRank() {
    }

    public static void main(final String[] args) throws Exception {
        final String mode = args[0];
        final String wait = args[1];
        try (Tutti tutti = Tutti.init()) {
            final Communicator w = tutti.world();
            w.barrier();
            if (1 == w.rank()) {
                depart(mode);
                return;
            }
            final long t0 = System.nanoTime();
            try {
                waitIn(w, wait);
            } catch (final TuttiException e) {
                System.out.println("rank " + w.rank() + " failed after=" + TimeUnit.NANOSECONDS.toMillis(
                    System.nanoTime() - t0) + " ms: " + e.getMessage().replace('\n', ' '));
                System.out.flush();
                throw e;
            }
            System.out.println("rank " + w.rank() + " returned");
        }
    }

    private static void depart(final String mode) throws Exception {
        System.out.println("departing at=" + System.currentTimeMillis());
        System.out.flush();
        switch (mode) {
            case "close" -> {
                // try-with-resources closes
            }
            case "throw" -> throw new IllegalStateException("rank one gives up");
            case "exit" -> System.exit(3);
            case "kill" -> {
                new ProcessBuilder("kill", "-9", String.valueOf(ProcessHandle.current().pid())).start();
                new CountDownLatch(1).await(); // until the signal lands
            }
            default -> throw new IllegalArgumentException("mode=" + mode);
        }
    }

    private static void waitIn(final Communicator w, final String wait) {
        final int[] x = {w.rank()};
        switch (wait) {
            case "recv" -> w.recv(Buf.of(x), 1, 0);
            case "barrier" -> w.barrier();
            case "bcast" -> w.bcast(Buf.of(x), 1);
            case "allreduce" -> w.allreduce(Buf.IN_PLACE, Buf.of(x), Op.SUM);
            case "tagged" -> w.allreduceBegin(Buf.IN_PLACE, Buf.of(x), Op.SUM, 7).end();
            default -> throw new IllegalArgumentException("wait=" + wait);
        }
    }
}
