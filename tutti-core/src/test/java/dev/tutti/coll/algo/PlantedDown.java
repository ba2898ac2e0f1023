package dev.tutti.coll.algo;

/** A deliberate cycle for {@code LayeringTest}: the other half of {@code coll.PlantedUp}. Test sources only. */
public final class PlantedDown {
    private PlantedDown() {
    }

    public static int value() {
        return 2;
    }

    static Class<?> up() {
        return dev.tutti.coll.PlantedUp.class;
    }
}
