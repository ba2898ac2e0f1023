package dev.tutti.coll.slot;

/** A deliberate upward use for {@code LayeringTest}: coll.slot uses a run of coll. Test sources only. */
public final class PlantedSlotUp {
    private PlantedSlotUp() {
    }

    static String up(final dev.tutti.coll.ScheduleRun run) {
        return run.toString();
    }
}
