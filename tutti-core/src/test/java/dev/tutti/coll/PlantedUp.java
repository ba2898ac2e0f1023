package dev.tutti.coll;

/** A deliberate cycle for {@code LayeringTest}: coll uses coll.algo, which uses coll. Test sources only. */
public final class PlantedUp {
    private PlantedUp() {
    }

    static int down() {
        return dev.tutti.coll.algo.PlantedDown.value();
    }

    static int value() {
        return 1;
    }
}
