package dev.tutti.coll;

/** A deliberate violation for {@code LayeringTest}: an engine class that uses the api class that reaches it. Test sources only. */
public final class PlantedEngine {
    private PlantedEngine() {
    }

    static Class<?> handle() {
        return dev.tutti.PlantedHandle.class;
    }
}
