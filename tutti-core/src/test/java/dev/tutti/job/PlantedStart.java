package dev.tutti.job;

/** For {@code LayeringTest}: the entry point's implementation, which may know the api handle that starts it. */
public final class PlantedStart {
    private PlantedStart() {
    }

    static Class<?> handle() {
        return dev.tutti.PlantedHandle.class;
    }
}
