package dev.tutti;

/**
 * A deliberate cycle for {@code LayeringTest}: an api class that reaches the engine ({@code coll.PlantedEngine}),
 * which uses the api back. Test sources only.
 */
public final class PlantedHandle {
    private PlantedHandle() {
    }

    static Object engine() {
        return dev.tutti.coll.PlantedEngine.class;
    }
}
