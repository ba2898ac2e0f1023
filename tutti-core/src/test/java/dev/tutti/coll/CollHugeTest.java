package dev.tutti.coll;

import dev.tutti.Buf;
import dev.tutti.Datatype;
import dev.tutti.Tutti;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Collectives whose messages exceed 2 GiB, in native memory (the largest that fits a test comfortably). */
@Timeout(120)
class CollHugeTest {
    @Test
    void shouldBroadcastMoreThanTwoGibibytes() {
        final long elements = (2L << 30) / 8 + 1024 * 1024; // 2 GiB + 8 MiB of longs: byte sizes beyond int range
        Tutti.runLocal(2, Tutti.Options.defaults().timeout(Duration.ofSeconds(100)), w -> {
            try (Arena arena = Arena.ofShared()) {
                final MemorySegment seg = arena.allocate(elements * 8, 8);
                if (0 == w.rank()) {
                    seg.setAtIndex(ValueLayout.JAVA_LONG, 0, 17L);
                    seg.setAtIndex(ValueLayout.JAVA_LONG, elements / 2, 18L);
                    seg.setAtIndex(ValueLayout.JAVA_LONG, elements - 1, 19L);
                }
                w.bcast(Buf.of(seg, Datatype.LONG), 0);
                assertEquals(17L, seg.getAtIndex(ValueLayout.JAVA_LONG, 0));
                assertEquals(18L, seg.getAtIndex(ValueLayout.JAVA_LONG, elements / 2));
                assertEquals(19L, seg.getAtIndex(ValueLayout.JAVA_LONG, elements - 1));
            }
        });
    }
}
