package mpi;

/**
 * MAXLOC and MINLOC over (value, index) pairs held in one primitive array, value first: the larger (smaller) value
 * wins with its index, a tie keeps the lower index.
 */
final class Pairs {
    private Pairs() {
    }

    static void combine(final String op, final boolean max, final Object in, final int inOff, final Object out,
        final int outOff, final int pairs) {
        for (int p = 0; p < pairs; p++) {
            final int i = inOff + 2 * p;
            final int o = outOff + 2 * p;
            switch (in) {
                case short[] a -> {
                    final short[] b = (short[]) out;
                    if (wins(max, a[i], a[i + 1], b[o], b[o + 1])) {
                        b[o] = a[i];
                        b[o + 1] = a[i + 1];
                    }
                }
                case int[] a -> {
                    final int[] b = (int[]) out;
                    if (wins(max, a[i], a[i + 1], b[o], b[o + 1])) {
                        b[o] = a[i];
                        b[o + 1] = a[i + 1];
                    }
                }
                case long[] a -> {
                    final long[] b = (long[]) out;
                    if (wins(max, a[i], a[i + 1], b[o], b[o + 1])) {
                        b[o] = a[i];
                        b[o + 1] = a[i + 1];
                    }
                }
                case float[] a -> {
                    final float[] b = (float[]) out;
                    if (wins(max, a[i], a[i + 1], b[o], b[o + 1])) {
                        b[o] = a[i];
                        b[o + 1] = a[i + 1];
                    }
                }
                case double[] a -> {
                    final double[] b = (double[]) out;
                    if (wins(max, a[i], a[i + 1], b[o], b[o + 1])) {
                        b[o] = a[i];
                        b[o + 1] = a[i + 1];
                    }
                }
                default -> throw Fail.error(op + ": operands are " + in.getClass().getSimpleName()
                    + " (expected short[], int[], long[], float[] or double[] pairs: SHORT2 ... DOUBLE2)");
            }
        }
    }

    /** @return whether the candidate (value a, index ai) replaces the current (b, bi): integer pairs */
    private static boolean wins(final boolean max, final long a, final long ai, final long b, final long bi) {
        if (a == b) {
            return ai < bi;
        }
        return max ? a > b : a < b;
    }

    /** @return whether the candidate (value a, index ai) replaces the current (b, bi): floating-point pairs */
    private static boolean wins(final boolean max, final double a, final double ai, final double b, final double bi) {
        if (a == b) {
            return ai < bi;
        }
        return max ? a > b : a < b;
    }
}
