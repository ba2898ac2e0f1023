package dev.tutti.runtime;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CpuBindingTest {

    /** On a thread of its own (a bound thread stays bound): a CPU of this process, or -1 where binding is off. */
    @Test
    void shouldBindAThreadToOneOfTheProcessCpusOrSayItDidNot() throws InterruptedException {
        final AtomicInteger cpu = new AtomicInteger(-2);
        final Thread t = Thread.ofPlatform().start(() -> cpu.set(CpuBinding.bind(1)));
        t.join(10_000);
        final int got = cpu.get();
        assertTrue(-1 == got || (got >= 0 && got < 1024), "bind returned " + got);
        if (!CpuBinding.class.getModule().isNativeAccessEnabled()) {
            assertEquals(-1, got, "without native access nothing is bound");
        }
    }

    @Test
    void shouldReadTheBindSetting() {
        final String old = System.getProperty(Configuration.BIND_PROP_NAME);
        try {
            System.setProperty(Configuration.BIND_PROP_NAME, "none");
            assertEquals(false, Configuration.bindToCore());
            System.setProperty(Configuration.BIND_PROP_NAME, " Core ");
            assertEquals(true, Configuration.bindToCore());
            System.setProperty(Configuration.BIND_PROP_NAME, "socket");
            final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                Configuration::bindToCore);
            assertTrue(e.getMessage().contains("tutti.bind=socket") && e.getMessage().contains("core or none"),
                e.getMessage());
        } finally {
            if (null == old) {
                System.clearProperty(Configuration.BIND_PROP_NAME);
            } else {
                System.setProperty(Configuration.BIND_PROP_NAME, old);
            }
        }
    }
}
