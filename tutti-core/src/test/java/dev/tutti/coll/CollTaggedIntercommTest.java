package dev.tutti.coll;

import dev.tutti.Buf;
import dev.tutti.CollectiveHandle;
import dev.tutti.Communicator;
import dev.tutti.Intercommunicator;
import dev.tutti.Op;
import dev.tutti.Tutti;
import dev.tutti.TuttiException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Tagged two-phase collectives on intercommunicators, standard and symmetric forms, begun in random orders. */
@Timeout(60)
class CollTaggedIntercommTest {
    static final Tutti.Options OPTS = Tutti.Options.defaults().timeout(Duration.ofSeconds(50));

    @Test
    void shouldMatchTaggedIntercommCollectivesBegunInAnyOrder() {
        for (final int[] sizes : new int[][] {{1, 1}, {1, 5}, {3, 4}, {4, 4}}) {
            final int a = sizes[0];
            final int p = sizes[0] + sizes[1];
            Tutti.runLocal(p, OPTS, w -> {
                final boolean inA = w.rank() < a;
                final Communicator half = w.split(inA ? 0 : 1, w.rank());
                final Intercommunicator ic = half.createIntercomm(0, w, inA ? a : 0, 7);
                final int me = ic.rank();
                final int mySize = ic.size();
                final int theirs = ic.remoteSize();
                final int g = inA ? 1 : 2; // each group's value
                final int other = inA ? 2 : 1;
                final long[] sum = new long[1];
                final long[] bOut = {g * 100L};
                final long[] bIn = new long[1];
                final long[] a2aIn = new long[theirs];
                final long[] a2aOut = new long[theirs];
                Arrays.fill(a2aOut, g);
                final long[] red = new long[1];
                final List<Runnable> begins = new ArrayList<>();
                final List<CollectiveHandle> hs = Collections.synchronizedList(new ArrayList<>());
                // Two-way allreduce: this group receives the reduction of the other group's values.
                begins.add(() -> hs.add(ic.allreduceBegin(Buf.of(new long[] {g}), Buf.of(sum), Op.SUM, 1)));
                // Symmetric bcast: each group's rank 0 reaches the whole other group, same tag as the allreduce.
                begins.add(() -> hs.add(ic.bcastBegin(Buf.of(bOut), Buf.of(bIn), 0, 0, 1)));
                begins.add(() -> hs.add(ic.alltoallBegin(Buf.of(a2aOut), Buf.of(a2aIn), 2)));
                // Symmetric reduce: each group's last rank receives the sum over the other group.
                begins.add(() -> hs.add(ic.reduceBegin(Buf.of(new long[] {g}), Buf.of(red), Op.SUM, mySize - 1,
                    theirs - 1, 3)));
                begins.add(() -> hs.add(ic.barrierBegin(4)));
                Collections.shuffle(begins, new Random(w.rank() * 31L + p));
                begins.forEach(Runnable::run);
                Collections.shuffle(hs, new Random(w.rank()));
                hs.forEach(CollectiveHandle::end);
                assertEquals((long) other * theirs, sum[0], "allreduce");
                assertEquals(other * 100L, bIn[0], "symmetric bcast");
                for (final long x : a2aIn) {
                    assertEquals(other, x, "alltoall");
                }
                if (me == mySize - 1) {
                    assertEquals((long) other * theirs, red[0], "symmetric reduce");
                }
                assertEquals(TuttiException.class, assertThrows(TuttiException.class,
                    () -> ic.barrierBegin(-1)).getClass());
            });
        }
    }
}
