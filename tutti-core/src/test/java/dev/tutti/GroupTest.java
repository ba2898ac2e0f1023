package dev.tutti;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every group operation against a reference written with lists and sets, over many random groups (members drawn
 * from world ranks 0..11, in random order, the calling process a member or not), plus the bad inputs.
 */
class GroupTest {
    static final int WORLD = 12;

    static List<Integer> list(final Group g) {
        return Arrays.stream(g.worldRanks()).boxed().toList();
    }

    static Group random(final Random rnd, final int self) {
        final List<Integer> all = new ArrayList<>(IntStream.range(0, WORLD).boxed().toList());
        Collections.shuffle(all, rnd);
        final int n = rnd.nextInt(WORLD + 1);
        return Group.of(self, all.subList(0, n).stream().mapToInt(Integer::intValue).toArray());
    }

    static int[] distinctRanks(final Random rnd, final int size) {
        final List<Integer> r = new ArrayList<>(IntStream.range(0, size).boxed().toList());
        Collections.shuffle(r, rnd);
        return r.subList(0, rnd.nextInt(size + 1)).stream().mapToInt(Integer::intValue).toArray();
    }

    @Test
    void shouldMatchTheReferenceOnRandomGroups() {
        final Random rnd = new Random(42);
        for (int iter = 0; iter < 3000; iter++) {
            final int self = rnd.nextInt(WORLD);
            final Group a = random(rnd, self);
            final Group b = random(rnd, self);
            final List<Integer> la = list(a);
            final List<Integer> lb = list(b);

            assertEquals(la.size(), a.size());
            assertEquals(la.contains(self) ? la.indexOf(self) : Group.UNDEFINED, a.rank());

            final Set<Integer> union = new LinkedHashSet<>(la);
            union.addAll(lb);
            assertEquals(new ArrayList<>(union), list(a.union(b)), "union");
            assertEquals(la.stream().filter(lb::contains).toList(), list(a.intersection(b)), "intersection");
            assertEquals(la.stream().filter(x -> !lb.contains(x)).toList(), list(a.difference(b)), "difference");
            assertEquals(a.union(b).contains(self) ? list(a.union(b)).indexOf(self) : Group.UNDEFINED,
                a.union(b).rank());

            final int[] ranks = distinctRanks(rnd, a.size());
            assertEquals(Arrays.stream(ranks).mapToObj(la::get).toList(), list(a.incl(ranks)), "incl");
            final Set<Integer> dropped = new java.util.HashSet<>();
            for (final int r : ranks) {
                dropped.add(la.get(r));
            }
            assertEquals(la.stream().filter(x -> !dropped.contains(x)).toList(), list(a.excl(ranks)), "excl");

            final int[] probe = new int[a.size() + 1];
            for (int i = 0; i < a.size(); i++) {
                probe[i] = i;
            }
            probe[a.size()] = Comm.PROC_NULL;
            final int[] t = a.translateRanks(probe, b);
            for (int i = 0; i < a.size(); i++) {
                assertEquals(lb.contains(la.get(i)) ? lb.indexOf(la.get(i)) : Group.UNDEFINED, t[i], "translate");
            }
            assertEquals(Comm.PROC_NULL, t[a.size()]);

            final Group.Comparison expected = la.equals(lb) ? Group.Comparison.IDENT
                : new java.util.HashSet<>(la).equals(new java.util.HashSet<>(lb)) && la.size() == lb.size()
                ? Group.Comparison.SIMILAR : Group.Comparison.UNEQUAL;
            assertEquals(expected, a.compare(b));
            final List<Integer> shuffled = new ArrayList<>(la);
            Collections.shuffle(shuffled, rnd);
            final Group s = Group.of(self, shuffled.stream().mapToInt(Integer::intValue).toArray());
            assertEquals(shuffled.equals(la) ? Group.Comparison.IDENT : Group.Comparison.SIMILAR, a.compare(s));

            if (a.size() > 0) {
                final int first = rnd.nextInt(a.size());
                final int last = rnd.nextInt(a.size());
                final int stride = (first <= last ? 1 : -1) * (1 + rnd.nextInt(3));
                final List<Integer> expectRange = new ArrayList<>();
                for (int r = first; stride > 0 ? r <= last : r >= last; r += stride) {
                    expectRange.add(la.get(r));
                }
                final int[][] range = {{first, last, stride}};
                assertEquals(expectRange, list(a.rangeIncl(range)), "rangeIncl");
                assertEquals(la.stream().filter(x -> !expectRange.contains(x)).toList(), list(a.rangeExcl(range)),
                    "rangeExcl");
            }
        }
    }

    @Test
    void shouldHandleTheEmptyGroupAndMultipleRanges() {
        final Group g = Group.of(3, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
        assertEquals(0, Group.EMPTY.size());
        assertEquals(Group.UNDEFINED, Group.EMPTY.rank());
        assertEquals(g, Group.EMPTY.union(g));
        assertEquals(3, Group.EMPTY.union(g).rank(), "the union learns the caller from the other group");
        assertEquals(0, g.intersection(Group.EMPTY).size());
        assertEquals(Group.Comparison.IDENT, Group.EMPTY.compare(g.excl(IntStream.range(0, 10).toArray())));
        assertEquals(List.of(0, 3, 6, 9, 8, 7), list(g.rangeIncl(new int[][] {{0, 9, 3}, {8, 7, -1}})));
        assertEquals(List.of(1, 2, 4, 5), list(g.rangeExcl(new int[][] {{0, 9, 3}, {8, 7, -1}})));
        assertEquals(List.of(9, 7, 5), list(g.rangeIncl(new int[][] {{9, 4, -2}})));
        assertEquals(List.of(1, 2, 3, 4, 5, 7, 9), list(g.rangeIncl(new int[][] {{1, 4, 1}, {5, 10, 2}})),
            "last=10 is past the group, but the range produces only 5, 7 and 9 (MPI asks only those to be ranks)");
        assertEquals(List.of(0, 1, 2, 3, 4, 6, 8), list(g.rangeExcl(new int[][] {{5, 10, 2}})));
        assertEquals(Group.UNDEFINED, g.incl(0, 1).rank());
        assertEquals(1, g.incl(0, 3).rank());
        assertSame(Group.Comparison.UNEQUAL, g.compare(g.incl(0, 1)));
    }

    static void refused(final ErrorClass cls, final String needle, final Runnable call) {
        final TuttiException e = assertThrows(TuttiException.class, call::run);
        assertEquals(cls, e.errorClass(), e.getMessage());
        assertTrue(e.getMessage().contains(needle), "'" + e.getMessage() + "' should contain '" + needle + "'");
    }

    @Test
    void shouldRefuseBadArgumentsNamingThem() {
        final Group g = Group.of(0, 5, 6, 7, 8);
        refused(ErrorClass.RANK, "incl (group size=4): ranks[1]=4 is out of range, expected 0..3", () -> g.incl(0, 4));
        refused(ErrorClass.RANK, "ranks[2]=1 appears more than once", () -> g.incl(1, 0, 1));
        refused(ErrorClass.RANK, "excl (group size=4): ranks[0]=-1", () -> g.excl(-1));
        refused(ErrorClass.ARG, "ranges[0]=[0, 3, 0] never reaches last=3", () -> g.rangeIncl(new int[][] {{0, 3, 0}}));
        refused(ErrorClass.ARG, "ranges[0]=[3, 0, 1] never reaches", () -> g.rangeExcl(new int[][] {{3, 0, 1}}));
        refused(ErrorClass.ARG, "expected {first, last, stride}", () -> g.rangeIncl(new int[][] {{0, 1}}));
        refused(ErrorClass.RANK, "rank=4 is out of range", () -> g.rangeIncl(new int[][] {{0, 4, 1}}));
        refused(ErrorClass.RANK, "ranges[0]=[1, 6, 3]: rank=4 is out of range",
            () -> g.rangeIncl(new int[][] {{1, 6, 3}}));
        refused(ErrorClass.RANK, "appears more than once", () -> g.rangeIncl(new int[][] {{0, 2, 1}, {2, 3, 1}}));
        refused(ErrorClass.RANK, "translateRanks (group size=4): ranks[0]=9", () -> g.translateRanks(new int[] {9},
            g));
        refused(ErrorClass.ARG, "other=null", () -> g.union(null));
        assertArrayEquals(new int[] {5, 6}, g.incl(0, 1).worldRanks());
    }
}
