package dev.tutti.coll;

import dev.tutti.BadInputTest;
import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.ErrorClass;
import dev.tutti.Intercommunicator;
import dev.tutti.Op;
import dev.tutti.Tutti;
import dev.tutti.TuttiException;
import dev.tutti.testkit.Worlds;

import dev.tutti.coll.CollCall;
import dev.tutti.coll.CollHook;
import dev.tutti.coll.CollHooks;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every collective call passes the engine's one door ({@code CollDoor}), on both communicator kinds and in every
 * variant: a hook installed on a rank sees each call before its data moves, described the same way whatever its
 * form, and its completion after; a hook may refuse a call, and then nothing is sent.
 */
@Timeout(60)
class CollHookTest {

    /** Records "before" and "after" lines, one per call; thread-safe. */
    static final class Recorder implements CollHook {
        final List<String> lines = Collections.synchronizedList(new ArrayList<>());

        @Override
        public void before(final CollCall c) {
            lines.add("before " + describe(c));
        }

        @Override
        public void after(final CollCall c, final TuttiException failure) {
            lines.add("after " + describe(c) + (null == failure ? "" : " failed " + failure.errorClass()));
        }

        static String describe(final CollCall c) {
            return c.kind().mpiName() + " " + c.variant() + (c.tag() >= 0 ? " tag=" + c.tag() : "")
                + (c.isInter() ? " inter root=" + c.root() + "/" + c.remoteRoot() : " root=" + c.root())
                + " send=" + c.sendCount() + "x" + c.sendType() + " recv=" + c.recvCount() + "x" + c.recvType()
                + (null == c.op() ? "" : " op=" + c.op().name());
        }
    }

    @Test
    void shouldPassEveryVariantOnBothCommunicatorKindsThroughTheHook() {
        final List<List<String>> seen = Collections.synchronizedList(new ArrayList<>());
        Tutti.runLocal(4, BadInputTest.OPTS, world -> {
            final Communicator w = (Communicator) world;
            final boolean even = 0 == w.rank() % 2;
            final Communicator half = w.split(w.rank() % 2, w.rank());
            final Intercommunicator pair = half.createIntercomm(0, w, even ? 1 : 0, 99);
            final Recorder rec = new Recorder();
            CollHooks.install(Worlds.impl(w).engine(), rec);

            final int[] x = {w.rank() + 1};
            final int[] sum = new int[1];
            w.barrier();
            w.ibarrier().waitFor();
            w.allreduce(Buf.of(x), Buf.of(sum), Op.SUM);
            assertEquals(10, sum[0]);
            w.iallreduce(Buf.of(x), Buf.of(sum), Op.MAX).waitFor();
            assertEquals(4, sum[0]);
            w.allreduceBegin(Buf.of(x), Buf.of(sum), Op.SUM, 3).end();
            w.bcast(Buf.of(new long[2]), 1);
            w.gatherv(Buf.of(new int[1]), Buf.of(new int[4]), new int[] {1, 1, 1, 1}, new int[] {0, 1, 2, 3}, 0);
            final int[] theirs = new int[1];
            pair.bcast(Buf.of(new int[] {7}), Buf.of(theirs), 0, 0);            // symmetric
            assertEquals(7, theirs[0]);
            pair.allreduce(Buf.of(x), Buf.of(sum), Op.SUM);                      // standard inter form
            pair.ibarrier().waitFor();
            CollHooks.install(Worlds.impl(w).engine(), null);
            w.barrier(); // not recorded
            seen.add(rec.lines);
        });
        for (final List<String> lines : seen) {
            final String all = String.join("\n", lines);
            assertEquals(20, lines.size(), all);
            for (int i = 0; i < lines.size(); i += 2) {
                assertTrue(lines.get(i).startsWith("before "), all);
                assertEquals(lines.get(i).replace("before ", "after "), lines.get(i + 1), all);
            }
            final String[] expected = {
                "barrier BLOCKING root=-1 send=0xBYTE recv=0xBYTE",
                "barrier NONBLOCKING root=-1 send=0xBYTE recv=0xBYTE",
                "allreduce BLOCKING root=-1 send=1xINT recv=1xINT op=SUM",
                "allreduce NONBLOCKING root=-1 send=1xINT recv=1xINT op=MAX",
                "allreduce TAGGED tag=3 root=-1 send=1xINT recv=1xINT op=SUM",
                "bcast BLOCKING root=1 send=2xLONG recv=2xLONG",
                "gatherv BLOCKING root=0 send=1xINT recv=1xINT",
                "bcast BLOCKING inter root=",
                "allreduce BLOCKING inter root=",
                "barrier NONBLOCKING inter root=-1/-1",
            };
            final String[] got = new String[expected.length];
            for (int i = 0; i < expected.length; i++) {
                final String line = lines.get(2 * i).substring("before ".length());
                got[i] = line.startsWith(expected[i]) ? expected[i] : line;
            }
            assertArrayEquals(expected, got, all);
        }
    }

    @Test
    void shouldSendNothingForACallTheHookRefuses() {
        Tutti.runLocal(2, BadInputTest.OPTS, world -> {
            final Communicator w = (Communicator) world;
            CollHooks.install(Worlds.impl(w).engine(), new CollHook() {
                @Override
                public void before(final CollCall c) {
                    if (dev.tutti.coll.CollKind.BCAST == c.kind()) {
                        throw new TuttiException(ErrorClass.ARG, c.kind().mpiName() + " (" + c.where() + "): refused");
                    }
                }

                @Override
                public void after(final CollCall c, final TuttiException failure) {
                }
            });
            final TuttiException e = assertThrows(TuttiException.class, () -> w.bcast(Buf.of(new int[1]), 0));
            assertTrue(e.getMessage().contains("bcast (comm=WORLD, rank=" + w.rank() + "): refused"), e.getMessage());
            final int[] x = {w.rank()};
            w.allreduce(Buf.IN_PLACE, Buf.of(x), Op.SUM); // the communicator goes on; no bcast message is in the way
            assertEquals(1, x[0]);
            assertEquals(0, Worlds.impl(w).engine().pendingCount(), "nothing left posted or unmatched");
        });
    }
}
