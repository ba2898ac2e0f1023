package dev.tutti.comm;

import dev.tutti.Buf;
import dev.tutti.Comm;
import dev.tutti.Communicator;
import dev.tutti.ErrorClass;
import dev.tutti.Group;
import dev.tutti.Intercommunicator;
import dev.tutti.Op;
import dev.tutti.Request;
import dev.tutti.Status;
import dev.tutti.Tutti;
import dev.tutti.TuttiException;
import dev.tutti.testkit.Worlds;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Intercommunicators: creation through leaders, point-to-point to the remote group, merge, dup, split, errors. */
@Timeout(60)
public class IntercommTest {
    public static final Tutti.Options OPTS = Tutti.Options.defaults().timeout(Duration.ofSeconds(50));

    /**
     * Builds the intercommunicator between world ranks {@code 0..a-1} (group A) and {@code a..p-1} (group B),
     * their local ranks reversed in B to make local, remote and world numbering all differ.
     */
    public static Intercommunicator make(final Communicator world, final int a) {
        final boolean inA = world.rank() < a;
        final Communicator half = world.split(inA ? 0 : 1, inA ? world.rank() : -world.rank());
        final Intercommunicator inter = half.createIntercomm(0, world, inA ? world.size() - 1 : 0, 7);
        half.free();
        return inter;
    }

    public static int[] range(final int from, final int to) {
        return IntStream.range(from, to).toArray();
    }

    public static int[] reversed(final int from, final int to) {
        return IntStream.range(from, to).map(i -> to - 1 - (i - from)).toArray();
    }

    @ParameterizedTest(name = "{0}x{1}")
    @CsvSource({"1,1", "1,5", "5,1", "3,4", "4,4"})
    public void shouldCreateAndTalkToTheRemoteGroup(final int a, final int b) {
        Tutti.runLocal(a + b, OPTS, w -> {
            final boolean inA = w.rank() < a;
            final Intercommunicator inter = make(w, a);
            assertTrue(inter.isInter());
            assertEquals(inA ? a : b, inter.size());
            assertEquals(inA ? b : a, inter.remoteSize());
            assertArrayEquals(inA ? range(0, a) : reversed(a, a + b), inter.group().worldRanks());
            assertArrayEquals(inA ? reversed(a, a + b) : range(0, a), inter.remoteGroup().worldRanks());
            assertEquals(inter.group().rank(), inter.rank());
            assertTrue(inter.name().startsWith("WORLD/split:" + (inA ? 0 : 1) + "#"), inter.name());
            // Point-to-point addresses the remote group: each rank sends its world rank to remote rank
            // (rank mod remoteSize), and receives from every remote rank that targets it.
            final int dest = inter.rank() % inter.remoteSize();
            final Request s = inter.isend(Buf.of(new int[] {w.rank()}), dest, 3);
            int expected = 0;
            for (int r = 0; r < inter.remoteSize(); r++) {
                if (r % inter.size() == inter.rank()) {
                    expected++;
                }
            }
            for (int k = 0; k < expected; k++) {
                final int[] got = new int[1];
                final Status st = inter.recv(Buf.of(got), Comm.ANY_SOURCE, 3);
                assertEquals(inter.remoteGroup().worldRank(st.source()), got[0], "status source is a remote rank");
                assertEquals(inter.rank(), st.source() % inter.size());
            }
            s.waitFor();
            final TuttiException e = assertThrows(TuttiException.class,
                () -> inter.send(Buf.of(new int[1]), inter.remoteSize(), 0));
            assertTrue(e.getMessage().contains("dest=" + inter.remoteSize() + " is out of range, expected 0.."
                + (inter.remoteSize() - 1)), e.getMessage());
            inter.barrier();
            inter.free();
            assertEquals(1, Worlds.impl(w).contexts().inUse());
        });
    }

    @ParameterizedTest(name = "{0}x{1}")
    @CsvSource({"1,1", "2,5", "4,3"})
    public void shouldMergeByHighFlagThenByUnionOrder(final int a, final int b) {
        Tutti.runLocal(a + b, OPTS, w -> {
            final boolean inA = w.rank() < a;
            final Intercommunicator inter = make(w, a);
            final int[] aRanks = range(0, a);
            final int[] bRanks = reversed(a, a + b);
            final Communicator bFirst = inter.merge(inA);
            assertArrayEquals(concat(bRanks, aRanks), bFirst.group().worldRanks());
            final Communicator aFirst = inter.merge(!inA);
            assertArrayEquals(concat(aRanks, bRanks), aFirst.group().worldRanks());
            // Same flag on both sides: the group whose rank 0 has the lower world rank (A) first.
            final Communicator tie = inter.merge(true);
            assertArrayEquals(concat(aRanks, bRanks), tie.group().worldRanks());
            for (final Communicator m : new Communicator[] {bFirst, aFirst, tie}) {
                final int[] sum = new int[1];
                m.allreduce(Buf.of(new int[] {w.rank()}), Buf.of(sum), Op.SUM);
                assertEquals((a + b) * (a + b - 1) / 2, sum[0]);
                m.free();
            }
            inter.free();
            assertEquals(1, Worlds.impl(w).contexts().inUse());
        });
    }

    public static int[] concat(final int[] x, final int[] y) {
        final int[] r = new int[x.length + y.length];
        System.arraycopy(x, 0, r, 0, x.length);
        System.arraycopy(y, 0, r, x.length, y.length);
        return r;
    }

    @Test
    public void shouldDupAndSplitIntercommunicators() {
        Tutti.runLocal(7, OPTS, w -> {
            final int a = 3;
            final boolean inA = w.rank() < a;
            final Intercommunicator inter = make(w, a);
            final Intercommunicator d = inter.dup();
            assertEquals(Group.Comparison.CONGRUENT, d.compare(inter));
            assertEquals(Group.Comparison.UNEQUAL, d.compare(w));
            // Same tag, same peer, both intercommunicators: no crossing.
            if (0 == inter.rank()) {
                inter.send(Buf.of(new int[] {1}), 0, 4);
                d.send(Buf.of(new int[] {2}), 0, 4);
                final int[] x = new int[1];
                d.recv(Buf.of(x), 0, 4);
                assertEquals(2, x[0]);
                inter.recv(Buf.of(x), 0, 4);
                assertEquals(1, x[0]);
            }
            final Intercommunicator nb = inter.idup().get();
            assertEquals(Group.Comparison.CONGRUENT, nb.compare(d));
            // Split by world parity: A = {0,1,2}, B = {3,4,5,6}; color 2 only in B -> null there.
            final int color = 6 == w.rank() ? 2 : w.rank() % 2;
            final Intercommunicator s = inter.split(color, w.rank());
            if (2 == color) {
                assertNull(s);
            } else {
                final int[] localExpected = IntStream.range(inA ? 0 : a, inA ? a : 6).filter(r -> r % 2 == color)
                    .toArray();
                final int[] remoteExpected = IntStream.range(inA ? a : 0, inA ? 6 : a).filter(r -> r % 2 == color)
                    .toArray();
                assertArrayEquals(localExpected, s.group().worldRanks());
                assertArrayEquals(remoteExpected, s.remoteGroup().worldRanks());
                final int[] sums = new int[1];
                s.allreduce(Buf.of(new int[] {w.rank()}), Buf.of(sums), Op.SUM);
                assertEquals(IntStream.of(remoteExpected).sum(), sums[0]);
                s.free();
            }
            assertNull(inter.split(Comm.UNDEFINED, 0));
            nb.free();
            d.free();
            inter.free();
            assertEquals(1, Worlds.impl(w).contexts().inUse());
        });
    }

    @Test
    public void shouldRefuseBadCreationArguments() {
        Tutti.runLocal(4, OPTS, w -> {
            final Communicator half = w.split(w.rank() / 2, 0);
            TuttiException e = assertThrows(TuttiException.class, () -> half.createIntercomm(2, w, 0, 1));
            assertEquals(ErrorClass.RANK, e.errorClass());
            assertTrue(e.getMessage().contains("localLeader=2 is out of range"), e.getMessage());
            e = assertThrows(TuttiException.class, () -> half.createIntercomm(0, w, 1, -4));
            assertEquals(ErrorClass.TAG, e.errorClass());
            if (0 == half.rank()) {
                e = assertThrows(TuttiException.class, () -> half.createIntercomm(0, w, 9, 1));
                assertTrue(e.getMessage().contains("remoteLeader=9 is out of range"), e.getMessage());
                e = assertThrows(TuttiException.class, () -> half.createIntercomm(0, null, 1, 1));
                assertTrue(e.getMessage().contains("peerComm=null"), e.getMessage());
            }
            half.free();
            assertEquals(1, Worlds.impl(w).contexts().inUse());
        });
    }
}
