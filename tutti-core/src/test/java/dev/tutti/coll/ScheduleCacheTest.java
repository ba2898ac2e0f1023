package dev.tutti.coll;

import dev.tutti.Datatype;
import dev.tutti.Op;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The schedule cache's key, lease and bounds, without a job. */
class ScheduleCacheTest {
    private static final AlgorithmId ID = AlgorithmId.ALLREDUCE_RECURSIVE_DOUBLING;

    private static Schedule schedule() {
        return new Schedule("allreduce", new Schedule.Round[0], null, CollHeader.NONE);
    }

    private static MemorySegment ints(final int[] a, final int off, final int n) {
        return MemorySegment.ofArray(a).asSlice(off * 4L, n * 4L);
    }

    /** Adds as a caller does after two misses of a key: the first only remembers it. */
    private static ScheduleCache.Entry add(final ScheduleCache c, final MemorySegment s, final MemorySegment r,
        final Schedule sch) {
        final ScheduleCache.Entry first = c.add(ID, Datatype.INT, (int) (r.byteSize() / 4), -1, Op.SUM, s, r, sch);
        return null != first ? first : c.add(ID, Datatype.INT, (int) (r.byteSize() / 4), -1, Op.SUM, s, r, sch);
    }

    private static ScheduleCache.Entry claim(final ScheduleCache c, final MemorySegment s, final MemorySegment r) {
        return c.claim(ID, Datatype.INT, (int) (r.byteSize() / 4), -1, Op.SUM, s, r);
    }

    @Test
    void shouldLeaseAnEntryToOneRunAtATime() {
        final ScheduleCache c = new ScheduleCache();
        final int[] x = new int[8];
        final int[] y = new int[8];
        assertNull(claim(c, ints(x, 0, 2), ints(y, 0, 2)), "empty cache");
        final Schedule sch = schedule();
        final ScheduleCache.Entry e = add(c, ints(x, 0, 2), ints(y, 0, 2), sch);
        assertNotNull(e);
        assertNull(claim(c, ints(x, 0, 2), ints(y, 0, 2)), "leased to the first run");
        e.release();
        final ScheduleCache.Entry again = claim(c, ints(x, 0, 2), ints(y, 0, 2));
        assertSame(e, again, "new segments over the same memory hit");
        assertSame(sch, again.schedule());
    }

    @Test
    void shouldNeverMatchOtherMemoryOrArguments() {
        final ScheduleCache c = new ScheduleCache();
        final int[] x = new int[16];
        final int[] y = new int[16];
        add(c, ints(x, 1, 2), ints(y, 1, 2), schedule()).release();
        assertNull(claim(c, ints(x, 2, 2), ints(y, 1, 2)), "other send offset");
        assertNull(claim(c, ints(x, 1, 2), ints(y, 3, 2)), "other recv offset");
        assertNull(claim(c, ints(new int[16], 1, 2), ints(y, 1, 2)), "other send array");
        assertNull(claim(c, ints(x, 1, 2), ints(y.clone(), 1, 2)), "other recv array");
        assertNull(claim(c, ints(x, 1, 3), ints(y, 1, 3)), "other count");
        assertNull(claim(c, null, ints(y, 1, 2)), "in place");
        final MemorySegment s = ints(x, 1, 2);
        final MemorySegment r = ints(y, 1, 2);
        assertNull(c.claim(ID, Datatype.INT, 2, 0, Op.SUM, s, r), "other root");
        assertNull(c.claim(ID, Datatype.INT, 2, -1, Op.MAX, s, r), "other op");
        assertNull(c.claim(ID, Datatype.FLOAT, 2, -1, Op.SUM, s, r), "other type");
        assertNull(c.claim(AlgorithmId.ALLREDUCE_RING, Datatype.INT, 2, -1, Op.SUM, s, r), "other algorithm");
        assertNotNull(claim(c, s, r), "the same call");
    }

    @Test
    void shouldNotCacheMemoryItCannotName() {
        final ScheduleCache c = new ScheduleCache();
        final int[] y = new int[4];
        final MemorySegment readOnly = ints(new int[4], 0, 2).asReadOnly();
        assertNull(add(c, readOnly, ints(y, 0, 2), schedule()), "a read-only heap segment hides its array");
        assertNull(claim(c, readOnly, ints(y, 0, 2)));
    }

    @Test
    void shouldKeyNativeMemoryByScopeAndAddress() {
        final ScheduleCache c = new ScheduleCache();
        try (Arena a = Arena.ofShared(); Arena b = Arena.ofShared()) {
            final MemorySegment s = a.allocate(64, 8);
            final MemorySegment r = a.allocate(64, 8);
            add(c, s.asSlice(0, 8), r.asSlice(8, 8), schedule()).release();
            final ScheduleCache.Entry e = claim(c, s.asSlice(0, 8), r.asSlice(8, 8));
            assertNotNull(e, "same scope and address");
            e.release();
            assertNull(claim(c, s.asSlice(0, 8), r.asSlice(16, 8)), "other address");
            assertNull(claim(c, s.asSlice(0, 8), b.allocate(64, 8).asSlice(8, 8)), "other scope");
        }
    }

    @Test
    void shouldCacheAKeyTheSecondTimeItMisses() {
        final ScheduleCache c = new ScheduleCache();
        final int[] x = new int[4];
        final int[] y = new int[4];
        assertNull(c.add(ID, Datatype.INT, 2, -1, Op.SUM, ints(x, 0, 2), ints(y, 0, 2), schedule()), "first miss");
        assertNull(c.add(ID, Datatype.INT, 2, -1, Op.SUM, ints(new int[4], 0, 2), ints(y, 0, 2), schedule()),
            "another key's first miss");
        assertNotNull(c.add(ID, Datatype.INT, 2, -1, Op.SUM, ints(x, 0, 2), ints(y, 0, 2), schedule()),
            "second miss");
    }

    @Test
    void shouldHoldAFewEntriesAndKeepTheHotOne() {
        final ScheduleCache c = new ScheduleCache();
        final int[] x = new int[1024];
        final int[] y = new int[1024];
        add(c, ints(x, 0, 1), ints(y, 0, 1), schedule()).release();
        for (int k = 1; k < 40; k++) {
            final ScheduleCache.Entry hot = claim(c, ints(x, 0, 1), ints(y, 0, 1));
            assertNotNull(hot, "the entry used every other call survives one-off calls (k=" + k + ")");
            hot.release();
            add(c, ints(x, k, 1), ints(y, k, 1), schedule()).release();
        }
        int hits = 0;
        for (int k = 0; k < 40; k++) {
            final ScheduleCache.Entry e = claim(c, ints(x, k, 1), ints(y, k, 1));
            if (null != e) {
                hits++;
                e.release();
            }
        }
        assertTrue(hits <= ScheduleCache.WAYS, "hits=" + hits + ", expected at most " + ScheduleCache.WAYS);
    }

    @Test
    void shouldReplaceAnEntryWhoseRunFailed() {
        final ScheduleCache c = new ScheduleCache();
        final int[] x = new int[4];
        final int[] y = new int[4];
        final ScheduleCache.Entry dead = add(c, ints(x, 0, 2), ints(y, 0, 2), schedule()); // never released
        assertNull(claim(c, ints(x, 0, 2), ints(y, 0, 2)));
        final ScheduleCache.Entry fresh = add(c, ints(x, 0, 2), ints(y, 0, 2), schedule());
        fresh.release();
        final ScheduleCache.Entry hit = claim(c, ints(x, 0, 2), ints(y, 0, 2));
        assertSame(fresh, hit, "the same key replaces the dead entry");
        hit.release();
        assertNotNull(dead);
    }
}
