package dev.tutti.bench.plot;

import java.util.Arrays;

/**
 * One curve: its name (the legend's text) and its points, in order of x.
 *
 * @param name the legend's text
 * @param xs   the x values (message sizes), ascending
 * @param ys   the y values, one per x
 */
public record Series(String name, double[] xs, double[] ys) {
    /**
     * Checks the series.
     *
     * @throws IllegalArgumentException if the name is blank, the arrays differ in length, or the x values are not
     *                                  ascending
     */
    public Series {
        if (null == name || name.isBlank()) {
            throw new IllegalArgumentException("plot series: name='" + name + "', expected a non-blank name");
        }
        if (xs.length != ys.length) {
            throw new IllegalArgumentException("plot series " + name + ": " + xs.length + " x values and "
                + ys.length + " y values, expected as many of each");
        }
        for (int i = 1; i < xs.length; i++) {
            if (!(xs[i - 1] < xs[i])) {
                throw new IllegalArgumentException("plot series " + name + ": x=" + xs[i] + " after x=" + xs[i - 1]
                    + ", expected ascending x values");
            }
        }
        xs = xs.clone();
        ys = ys.clone();
    }

    @Override
    public double[] xs() {
        return xs.clone();
    }

    @Override
    public double[] ys() {
        return ys.clone();
    }

    /** @return the number of points */
    public int size() {
        return xs.length;
    }

    @Override
    public boolean equals(final Object o) {
        return o instanceof Series s && name.equals(s.name) && Arrays.equals(xs, s.xs) && Arrays.equals(ys, s.ys);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * name.hashCode() + Arrays.hashCode(xs)) + Arrays.hashCode(ys);
    }

    @Override
    public String toString() {
        return "Series[" + name + ", " + xs.length + " points]";
    }
}
