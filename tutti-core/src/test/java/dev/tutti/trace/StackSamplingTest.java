package dev.tutti.trace;

import dev.tutti.internal.Settings;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sampling of stacks: the setting's values, one call in {@link Settings#JFR_STACK_SAMPLE} on average, gaps within
 * {@code 1 .. 2N-1}, the same calls picked by every fresh sampler, and no aliasing with a loop of call sites.
 */
class StackSamplingTest {
    private static final int N = Settings.JFR_STACK_SAMPLE;

    @Test
    void shouldMapTheSettingToCallsPerStack() {
        assertEquals(1, StackSampling.every("on"));
        assertEquals(0, StackSampling.every("off"));
        assertEquals(N, StackSampling.every("sampled"));
        assertEquals("sampled", Settings.JFR_STACKS.defaultValue());
    }

    @Test
    void shouldTakeOneStackInNCallsWithGapsOfOneTo2NMinusOne() {
        final StackSampling s = StackSampling.fresh();
        final int calls = N * 20_000;
        int samples = 0;
        int gap = 0;
        int min = Integer.MAX_VALUE;
        int max = 0;
        for (int i = 0; i < calls; i++) {
            gap++;
            if (s.next()) {
                samples++;
                min = Math.min(min, gap);
                max = Math.max(max, gap);
                gap = 0;
            }
        }
        // 20 000 gaps uniform in 1 .. 2N-1: the mean is within 2 % of N far beyond 5 standard deviations (0.6 %).
        assertTrue(Math.abs(samples - 20_000) < 400, "samples: " + samples);
        assertEquals(1, min, "shortest gap");
        assertEquals(2 * N - 1, max, "longest gap");
    }

    @Test
    void shouldPickTheSameCallsOnEveryFreshSampler() {
        final StackSampling a = StackSampling.fresh();
        final StackSampling b = StackSampling.fresh();
        final boolean[] pa = new boolean[10 * N];
        final boolean[] pb = new boolean[pa.length];
        for (int i = 0; i < pa.length; i++) {
            pa[i] = a.next();
            pb[i] = b.next();
        }
        assertArrayEquals(pa, pb);
    }

    @Test
    void shouldSampleEachSiteOfALoopByItsShareOfTheCalls() {
        // A loop of four call sites in turn, four dividing N: a fixed period of N would sample one site only.
        final StackSampling s = StackSampling.fresh();
        final int[] perSite = new int[4];
        for (int i = 0; i < N * 40_000; i++) {
            if (s.next()) {
                perSite[i % 4]++;
            }
        }
        for (final int k : perSite) {
            assertTrue(Math.abs(k - 10_000) < 500, "samples per site: " + java.util.Arrays.toString(perSite));
        }
    }
}
