package dev.tutti.runtime;

import dev.tutti.internal.Failures;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Locale;

/**
 * Binds the calling thread to one CPU, as Open MPI binds its ranks by default: ranks that busy-poll shared memory
 * are fastest on a core of their own, and the Linux scheduler, left alone, may keep two spinning ranks on one core
 * while the other stays idle (a spinning thread always looks cache-hot to its load balancer). Only the thread that
 * binds is affected; the JVM's compiler and GC threads stay free.
 *
 * <p>Implementation notes. Linux's {@code sched_getaffinity}/{@code sched_setaffinity} for the calling thread
 * (pid 0), called through the FFM linker: a restricted method, so binding happens only when native access is
 * enabled for this module ({@code --enable-native-access=ALL-UNNAMED} on the class path, which {@code tutti run}
 * passes, or {@code =dev.tutti} on the module path); otherwise nothing is bound and {@link #bind} says why. The
 * CPU mask is 1024 bits ({@code cpu_set_t}). Its one state: the CPUs found before the first binding
 * ({@link #unboundCpus()}); each call looks the functions up (init-time only).
 */
public final class CpuBinding {
    private static final long MASK_BYTES = 128;
    /**
     * The CPUs this process could use when a thread of it was first bound ({@link #bind}), 0 before: afterwards
     * {@link Runtime#availableProcessors()} answers 1 on the bound thread (the JVM reads the calling thread's
     * affinity), which made a rank with a core of its own look like one of a host with more ranks than cores.
     */
    private static volatile int unboundCpus;

    private CpuBinding() {
    }

    /**
     * Returns the CPUs this process may use, as they were before {@link #bind} bound a thread of it to one of them:
     * what tells whether a host has more ranks than cores ({@link Configuration#oversubscribed}), on any thread.
     *
     * @return the CPUs from before binding, or {@link Runtime#availableProcessors()} if no thread was bound
     */
    public static int unboundCpus() {
        final int before = unboundCpus;
        return 0 != before ? before : Runtime.getRuntime().availableProcessors();
    }

    /**
     * Binds the calling thread to the {@code index}-th CPU (modulo their number) of those this process may use, if
     * binding is possible here.
     *
     * @param index which CPU: the rank's index among the ranks of its host
     * @return the CPU bound to ({@code >= 0}), or -1 if nothing was bound (not Linux, native access not enabled,
     *         or the system refused)
     */
    @SuppressWarnings("restricted") // native access is what this does; without it enabled, nothing is bound
    public static int bind(final int index) {
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux")
            || !CpuBinding.class.getModule().isNativeAccessEnabled()) {
            return -1;
        }
        try {
            final Linker linker = Linker.nativeLinker();
            final FunctionDescriptor signature = FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT,
                ValueLayout.JAVA_LONG, ValueLayout.ADDRESS);
            final MethodHandle get = linker.downcallHandle(linker.defaultLookup().find("sched_getaffinity")
                .orElseThrow(), signature);
            final MethodHandle set = linker.downcallHandle(linker.defaultLookup().find("sched_setaffinity")
                .orElseThrow(), signature);
            try (Arena arena = Arena.ofConfined()) {
                final MemorySegment mask = arena.allocate(MASK_BYTES, 8);
                if (0 != (int) get.invokeExact(0, MASK_BYTES, mask)) {
                    return -1;
                }
                final int allowed = countBits(mask);
                if (0 == allowed) {
                    return -1;
                }
                if (0 == unboundCpus) { // this thread's CPUs before its first binding (a later one sees one)
                    unboundCpus = allowed;
                }
                final int cpu = nthSetBit(mask, Math.floorMod(index, allowed));
                mask.fill((byte) 0);
                final long word = mask.get(ValueLayout.JAVA_LONG, (cpu / 64) * 8L);
                mask.set(ValueLayout.JAVA_LONG, (cpu / 64) * 8L, word | 1L << (cpu % 64));
                return 0 == (int) set.invokeExact(0, MASK_BYTES, mask) ? cpu : -1;
            }
        } catch (final Throwable e) {
            // Binding is an optimisation: a system that refuses it (no such function, a seccomp filter) runs
            // unbound, which is correct, only slower. Said once, at init.
            dev.tutti.runtime.Log.of(CpuBinding.class).log(System.Logger.Level.WARNING,
                "cannot bind this rank to a CPU, running unbound: {0}", e.toString());
            return -1;
        }
    }

    private static int countBits(final MemorySegment mask) {
        int n = 0;
        for (long at = 0; at < MASK_BYTES; at += 8) {
            n += Long.bitCount(mask.get(ValueLayout.JAVA_LONG, at));
        }
        return n;
    }

    private static int nthSetBit(final MemorySegment mask, final int n) {
        int seen = 0;
        for (int bit = 0; bit < MASK_BYTES * 8; bit++) {
            if (0 != (mask.get(ValueLayout.JAVA_LONG, (bit / 64) * 8L) & 1L << (bit % 64))) {
                if (seen == n) {
                    return bit;
                }
                seen++;
            }
        }
        throw Failures.badState("CPU mask has fewer than " + (n + 1) + " CPUs");
    }
}
