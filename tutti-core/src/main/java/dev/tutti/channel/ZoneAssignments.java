package dev.tutti.channel;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * Which landing zone of this rank each exchange of a one-copy channel lands in ({@link WindowExchanges}): the
 * receiver hands its zones out, in exchange order, as the application releases them, and tells the senders through
 * assignment lines in its block of the window.
 *
 * <p>Implementation notes. Zone <i>a</i> goes to exchange <i>a</i> at the start, known to every sender without a
 * store. Afterwards, each zone released goes to the next exchange without one, {@code next}, as long as that exchange
 * is less than {@code zones} ahead of the lowest exchange whose blocks have not all arrived here ({@code floor}):
 * the assignment of exchange <i>k</i> is written in line {@code k % zones}, which held the assignment of exchange
 * <i>k - zones</i>, and every sender has read that one once all of exchange <i>k - zones</i>'s blocks arrived. A
 * line (a long; eight share a cache line) holds {@code (k + 1) << 20 | zone}. Because zones go out in release order, not by exchange number, an
 * application that holds one buffer for long while it cycles the others never makes an exchange wait for the held
 * zone. Stores to the lines are gathered and made by {@link #publish()}, after the next start's writes (see there).
 *
 * <p>Threading: everything under the channel's lock.
 */
final class ZoneAssignments {
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    private static final int ZONE_BITS = 20;

    private final MemorySegment block;
    private final long lineBase;
    private final int zones;
    /** The zone of exchange k, at {@code k % zones}, for the exchanges from {@code floor} to {@code next}. */
    private final int[] zoneOf;
    private final int[] free;
    private int freeCount;
    private long next;
    /** What each line should say, and what it says. */
    private final long[] lines;
    private final long[] published;
    private boolean unpublished;

    /**
     * @param block    this rank's block of the window
     * @param lineBase the offset of its first assignment (longs follow, one per zone)
     * @param zones    its number of zones (less than 2^20)
     */
    ZoneAssignments(final MemorySegment block, final long lineBase, final int zones) {
        this.block = block;
        this.lineBase = lineBase;
        this.zones = zones;
        this.zoneOf = new int[zones];
        this.free = new int[zones];
        this.lines = new long[zones];
        this.published = new long[zones];
        for (int a = 0; a < zones; a++) {
            zoneOf[a] = a;
            lines[a] = encode(a, a);
            published[a] = lines[a];
        }
        this.next = zones;
    }

    /** @return the line value that assigns {@code zone} to exchange {@code k} */
    static long encode(final long k, final int zone) {
        return (k + 1) << ZONE_BITS | zone;
    }

    /** @return the exchange a line value assigns (-1 for none) */
    static long exchangeOf(final long line) {
        return (line >>> ZONE_BITS) - 1;
    }

    /** @return the zone a line value assigns */
    static int zoneOf(final long line) {
        return (int) (line & ((1 << ZONE_BITS) - 1));
    }

    /**
     * Returns the zone of exchange {@code k} (the next one to start here), handing one out first if it has none.
     *
     * @param k     the exchange
     * @param floor the lowest exchange whose blocks have not all arrived
     * @return its zone, or -1 if none can be handed out yet (no free zone, or {@code k} too far ahead of floor)
     */
    int zoneFor(final long k, final long floor) {
        if (k >= next) {
            assign(floor);
        }
        return k < next ? zoneOf[(int) (k % zones)] : -1;
    }

    /**
     * Takes back the zone of a released buffer and hands it out if it can.
     *
     * @param zone  the zone
     * @param floor as for {@link #zoneFor}
     */
    void released(final int zone, final long floor) {
        free[freeCount++] = zone;
        assign(floor);
    }

    /** Hands free zones to the next exchanges while {@code floor} allows. */
    void assign(final long floor) {
        while (freeCount > 0 && next < floor + zones) {
            final int z = free[--freeCount];
            final int a = (int) (next % zones);
            zoneOf[a] = z;
            lines[a] = encode(next, z);
            unpublished = true;
            next++;
        }
    }

    /**
     * Stores the assignments made since the last call (release stores). Made after a start's writes, or before a
     * wait, not when a zone is handed out: senders read the lines, so a store must take its line back from them, and
     * the next fence (a lock, a CAS) would wait for that crossing; after the start's writes it overlaps with theirs.
     */
    void publish() {
        if (unpublished) {
            unpublished = false;
            for (int a = 0; a < zones; a++) {
                if (lines[a] != published[a]) {
                    published[a] = lines[a];
                    LONG.setRelease(block, lineBase + (long) a * Long.BYTES, lines[a]);
                }
            }
        }
    }
}
