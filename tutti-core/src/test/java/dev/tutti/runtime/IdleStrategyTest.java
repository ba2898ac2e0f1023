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
