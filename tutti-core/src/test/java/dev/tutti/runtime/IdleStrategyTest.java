package dev.tutti.runtime;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class IdleStrategyTest {

    @Test
    void shouldParkOnlyAfterTheSpinAndYieldPhases() {
        final BackoffIdleStrategy idle = new BackoffIdleStrategy(10, 5, 1_000, 50_000, 4);
        assertFalse(idle.mayPark(0));
        assertFalse(idle.mayPark(14));
        assertTrue(idle.mayPark(15));
        for (int i = 0; i < 20; i++) {
            idle.idle(i); // spins, yields (also every 4th spin), then parks of at most 50 µs: returns promptly
        }
        assertTrue(idle.toString().contains("yieldEvery=4"), idle.toString());
    }

    @Test
    void shouldSayItOnlySpinsBeforeTheYieldPhaseOnly() {
        final BackoffIdleStrategy idle = new BackoffIdleStrategy(10, 5, 1_000, 50_000, 4);
        assertTrue(idle.spinsOnly(0));
        assertTrue(idle.spinsOnly(9));
        assertFalse(idle.spinsOnly(10)); // yields: a timed wait reads the clock on each such call
        assertFalse(idle.spinsOnly(15)); // parks
        final IdleStrategy unknown = new IdleStrategy() {
            @Override
            public void idle(final int iteration) {
                Thread.onSpinWait();
            }

            @Override
            public boolean mayPark(final int iteration) {
                return false;
            }
        };
        assertFalse(unknown.spinsOnly(0), "an idle strategy that does not say is assumed to do more than spin");
    }

    @Test
    void shouldEndAStretchOfSlowSpinsWithAYieldWhateverTheirCount() {
        // Never by count (yieldEvery 2^30): spins as slow as polls that read sockets still yield within the bound.
        final BackoffIdleStrategy idle = new BackoffIdleStrategy(1_000, 5, 1_000, 50_000, 1 << 30);
        for (int i = 0; i < BackoffIdleStrategy.CLOCK_EVERY - 1; i++) {
            assertFalse(idle.longStretch(i), "a wait shorter than the clock interval reads no clock");
        }
        assertFalse(idle.longStretch(BackoffIdleStrategy.CLOCK_EVERY - 1), "the stretch begins at the first read");
        final long perSpin = BackoffIdleStrategy.MAX_SPIN_STRETCH_NS / BackoffIdleStrategy.CLOCK_EVERY + 1;
        boolean yielded = false;
        for (int i = BackoffIdleStrategy.CLOCK_EVERY; i < 2 * BackoffIdleStrategy.CLOCK_EVERY; i++) {
            final long until = System.nanoTime() + perSpin; // a poll that takes this long
            while (System.nanoTime() < until) {
                Thread.onSpinWait();
            }
            yielded = idle.longStretch(i);
        }
        assertTrue(yielded, "a spin " + BackoffIdleStrategy.MAX_SPIN_STRETCH_NS + " ns after the stretch began");
        for (int i = 0; i < 4 * BackoffIdleStrategy.CLOCK_EVERY; i++) {
            idle.idle(i); // the yield it makes returns
        }
    }

    @Test
    void shouldRefuseBadSettingsNamingThem() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> new BackoffIdleStrategy(10, 5, 1_000, 50_000, 3));
        assertTrue(e.getMessage().contains("yieldEvery=3") && e.getMessage().contains("power of two"),
            e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new BackoffIdleStrategy(-1, 5, 1_000, 50_000));
        assertThrows(IllegalArgumentException.class, () -> new BackoffIdleStrategy(1, 5, 2_000, 1_000));
    }

    @Test
    void shouldYieldLongBeforeParkingWhenRanksOutnumberCores() {
        final IdleStrategy shared = Configuration.shmIdleStrategy(false);
        final IdleStrategy crowded = Configuration.shmIdleStrategy(true);
        assertFalse(crowded.mayPark(Configuration.OVERSUBSCRIBED_SHM_YIELDS - 1));
        assertTrue(crowded.mayPark(Configuration.OVERSUBSCRIBED_SHM_YIELDS));
        assertTrue(shared.mayPark(Configuration.OVERSUBSCRIBED_SHM_YIELDS + 20));
    }
}
