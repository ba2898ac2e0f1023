package dev.tutti.coll;

import dev.tutti.Datatype;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Where {@link ScheduleBuilder} puts a round's steps: its messages, the steps run while they are in flight
 * ({@code meanwhile}) and the local steps after them, and which call starts a new round.
 */
class ScheduleBuilderTest {
    private static final MemorySegment BUF = MemorySegment.ofArray(new byte[8]);

    private final List<String> ran = new ArrayList<>();

    private Runnable step(final String name) {
        return () -> ran.add(name);
    }

    /** Runs each round's steps in the order every executor does: messages posted, meanwhile, then local. */
    private List<String> run(final Schedule s) {
        ran.clear();
        for (final Schedule.Round r : s.rounds()) {
            ran.add("comm" + r.comm().length);
            for (final Runnable m : r.meanwhile()) {
                m.run();
            }
            ran.add("|");
            for (final Runnable l : r.local()) {
                l.run();
            }
        }
        return List.copyOf(ran);
    }

    @Test
    void shouldKeepAMeanwhileStepInTheRoundOfTheMessagesAroundIt() {
        final ScheduleBuilder b = new ScheduleBuilder("test");
        b.meanwhile(step("m0")).send(1, BUF, Datatype.BYTE).recv(1, BUF, Datatype.BYTE).local(step("l0"));
        b.meanwhile(step("m1")); // after a local step: the next round's
        b.send(1, BUF, Datatype.BYTE).meanwhile(step("m1b")).endRound();
        final Schedule s = b.build();
        assertEquals(2, s.rounds().length);
        assertEquals(List.of("comm2", "m0", "|", "l0", "comm1", "m1", "m1b", "|"), run(s));
    }

    @Test
    void shouldMakeARoundOfMeanwhileStepsAloneWhenNoMessageFollows() {
        final ScheduleBuilder b = new ScheduleBuilder("test");
        b.local(step("l0")).meanwhile(step("m1"));
        final Schedule s = b.build();
        assertEquals(2, s.rounds().length);
        assertEquals(List.of("comm0", "|", "l0", "comm0", "m1", "|"), run(s));
    }

    @Test
    void shouldCopyMeanwhileOnlyWhenThereIsSomethingToCopy() {
        final byte[] src = {1, 2, 3, 4};
        final byte[] dst = new byte[6];
        final ScheduleBuilder b = new ScheduleBuilder("test");
        b.copyMeanwhile(MemorySegment.ofArray(src), MemorySegment.ofArray(dst));
        b.copyMeanwhile(MemorySegment.ofArray(new byte[0]), MemorySegment.ofArray(dst)); // nothing: no step
        b.copyMeanwhile(MemorySegment.ofArray(dst), MemorySegment.ofArray(dst)); // the same range: no step
        b.send(1, BUF, Datatype.BYTE);
        final Schedule s = b.build();
        assertEquals(1, s.rounds().length);
        assertEquals(1, s.rounds()[0].meanwhile().length);
        assertEquals(0, s.rounds()[0].local().length);
        src[0] = 9; // copied when the step runs, not when it is built
        s.rounds()[0].meanwhile()[0].run();
        assertArrayEquals(new byte[] {9, 2, 3, 4, 0, 0}, dst);
    }

    @Test
    void shouldGiveARoundBuiltWithoutMeanwhileStepsNone() {
        final Schedule.Round r = new Schedule.Round(new Schedule.CommStep[0], new Runnable[] {step("l")});
        assertEquals(0, r.meanwhile().length);
        assertEquals(1, r.local().length);
    }
}
