package dev.tutti.coll;

/** A deliberate violation for {@code LayeringTest}: an engine class that uses an api handle. Test sources only. */
public final class PlantedEngine {
    private PlantedEngine() {
    }

    static Class<?> handle() {
        return dev.tutti.PlantedHandle.class;
    }
}
