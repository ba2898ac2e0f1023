import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.PersistentRequest;
import dev.tutti.Tutti;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A stress loop for persistent collectives between processes, with a watchdog that names a hang: one persistent
 * alltoall of 8 bytes per rank, started and waited 6 million times through the message layer
 * ({@code tutti.coll.directLimit=0}; pass {@code slots} to go through shared-memory slots). If no start completes
 * for 10 s, the watchdog prints the request's run and its part requests, field by field (by reflection: no hook in
 * the library), and the job's {@code --timeout} then prints the threads.
 *
 * <p>Session 12 found with it that {@code AbstractRequest.rearm()} as a release store (not a volatile one) made about
 * 3 % of runs hang: one rank's receive had matched its message and was then armed again for the same call. The cause
 * is not found; builds with any instrumentation on that path stopped hanging. To look again, make the store a
 * release store and run, e.g., 60 times:
 *
 * <pre>
 * javac -cp tutti-cli/target/tutti.jar -d /tmp/stress bench/repro/PersistentStress.java
 * for i in $(seq 60); do bin/tutti run -n 2 --timeout 120 -cp /tmp/stress PersistentStress | grep -A3 HANG; done
 * </pre>
 */
public final class PersistentStress {
    private static final long STARTS = 6_000_000L;
    private static final long QUIET_MS = 10_000;

    private PersistentStress() {
    }

    public static void main(final String[] args) throws Exception {
        final boolean slots = args.length > 0 && "slots".equals(args[0]);
        try (Tutti t = Tutti.init()) {
            final Communicator w = t.world();
            final long[] s = new long[w.size()];
            final long[] r = new long[s.length];
            System.setProperty("tutti.coll.directLimit", slots ? "16384" : "0"); // read by the init
            w.barrier();
            final PersistentRequest p = w.alltoallInit(Buf.of(s), Buf.of(r));
            w.barrier();
            final AtomicLong done = new AtomicLong(-1);
            final Thread dog = new Thread(() -> watch(w.rank(), p, done), "watchdog");
            dog.setDaemon(true);
            dog.start();
            for (long i = 0; i < STARTS; i++) {
                java.util.Arrays.fill(s, i);
                p.start();
                p.waitFor();
                for (int j = 0; j < r.length; j++) {
                    if (r[j] != i) {
                        throw new AssertionError("rank " + w.rank() + ", start " + i + ": from rank " + j
                            + " received " + r[j]);
                    }
                }
                done.lazySet(i); // no fence in the loop: the watchdog only needs to see it eventually
            }
            p.free();
            if (0 == w.rank()) {
                System.out.println("ok: " + STARTS + " starts");
            }
        }
    }

    private static void watch(final int rank, final PersistentRequest p, final AtomicLong done) {
        long last = Long.MIN_VALUE;
        while (true) {
            try {
                Thread.sleep(QUIET_MS);
            } catch (final InterruptedException e) {
                return;
            }
            final long now = done.get();
            if (now != last) {
                last = now;
                continue;
            }
            try {
                final Object run = field(p, "run");
                System.out.println("HANG rank " + rank + " after start " + now + ": " + fields(run));
                for (final Object part : (Object[]) field(run, "parts")) {
                    System.out.println("  part: " + fields(part));
                }
            } catch (final ReflectiveOperationException e) {
                System.out.println("HANG rank " + rank + " after start " + now + " (no dump: " + e + ")");
            }
            System.out.flush();
            return;
        }
    }

    private static Object field(final Object o, final String name) throws ReflectiveOperationException {
        final Field f = o.getClass().getDeclaredField(name);
        f.setAccessible(true);
        return f.get(o);
    }

    private static String fields(final Object o) throws ReflectiveOperationException {
        if (null == o) {
            return "null";
        }
        final StringBuilder sb = new StringBuilder(o.getClass().getSimpleName()).append('{');
        for (Class<?> c = o.getClass(); null != c && Object.class != c; c = c.getSuperclass()) {
            for (final Field f : c.getDeclaredFields()) {
                if (!Modifier.isStatic(f.getModifiers())) {
                    f.setAccessible(true);
                    sb.append(f.getName()).append('=').append(f.get(o)).append(", ");
                }
            }
        }
        return sb.append('}').toString();
    }
}
