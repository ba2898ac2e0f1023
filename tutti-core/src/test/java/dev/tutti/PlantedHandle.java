package dev.tutti;

/**
 * A deliberate cycle for {@code LayeringTest}: an api class that holds the engine ({@code coll.PlantedEngine}),
 * which uses it back, and the implementation it starts ({@code job.PlantedStart}), which may. Test sources only.
 */
public final class PlantedHandle {
    private PlantedHandle() {
    }

    static Object engine() {
        return new Object[] {dev.tutti.coll.PlantedEngine.class, dev.tutti.job.PlantedStart.class};
    }
}
