package mpi;

import dev.tutti.TuttiException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;

import java.nio.ByteBuffer;
import java.nio.IntBuffer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * MPI's commit rule (MPI 4.1 §5.1.9, "a datatype object has to be committed before it can be used in a
 * communication"), as Open MPI checks it: a derived datatype that was never committed is ERR_TYPE in point-to-point,
 * collectives, pack/unpack and reduceLocal, whatever the count; size and extent queries, packSize, Status counts and
 * the constructors that take it as an old type need no commit. Under ERRORS_ARE_FATAL the job aborts with 3.
 */
@Timeout(60)
class ConformanceCommitTest {

    private static void assertType(final Executable call) {
        final MPIException e = assertThrows(MPIException.class, call);
        assertEquals(MPI.ERR_TYPE, e.getErrorClass(), e::toString);
        assertEquals(MPI.ERR_TYPE, e.getErrorCode(), e::toString);
    }

    @Test
    void shouldRefuseAnUncommittedTypeInEveryKindOfCommunication() {
        MpiJobs.run(2, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            w.setErrhandler(MPI.ERRORS_RETURN);
            final int other = 1 - w.getRank();
            final Datatype pair = Datatype.createContiguous(2, MPI.INT);
            final Datatype strided = Datatype.createVector(2, 1, 2, MPI.INT);
            final int[] b = new int[16];
            final IntBuffer direct = MPI.newIntBuffer(16);
            for (final Datatype t : new Datatype[] {pair, strided}) {
                assertType(() -> w.send(b, 1, t, other, 0));
                assertType(() -> w.send(b, 0, t, other, 0)); // the rule holds for count 0 too
                assertType(() -> w.recv(b, 1, t, other, 0));
                assertType(() -> w.iSend(direct, 1, t, other, 0));
                assertType(() -> w.iRecv(direct, 1, t, other, 0));
                assertType(() -> w.sendInit(direct, 1, t, other, 0));
                assertType(() -> w.sendRecv(b, 1, MPI.INT, other, 0, b, 1, t, other, 0));
                assertType(() -> w.bcast(b, 1, t, 0));
                assertType(() -> w.gather(b, 1, t, new int[32], 1, t, 0));
                assertType(() -> w.allGather(b, 1, t, new int[32], 1, t));
                assertType(() -> w.allReduce(b, new int[16], 1, t, MPI.SUM));
                assertType(() -> w.allReduce(b, 1, t, MPI.SUM));
                assertType(() -> w.allToAllw(ByteBuffer.allocateDirect(64), new int[] {1, 1}, new int[] {0, 16},
                    new Datatype[] {t, t}, ByteBuffer.allocateDirect(64), new int[] {1, 1}, new int[] {0, 16},
                    new Datatype[] {t, t}));
                assertType(() -> w.pack(b, 1, t, new byte[64], 0));
                assertType(() -> w.unpack(new byte[64], 0, b, 1, t));
                assertType(() -> Intracomm.reduceLocal(b, new int[16], 1, t, MPI.SUM));
                // no commit needed: queries, packSize, constructors taking it, status counts
                assertEquals(t == pair ? 2 : 3, t.getExtent());
                assertEquals(2, t.getSize());
                assertEquals(16, w.packSize(2, t));
                final Datatype built = Datatype.createContiguous(2, t);
                assertType(() -> w.send(b, 1, built, other, 0)); // built on an uncommitted type: itself uncommitted
                built.commit();
                assertType(() -> w.send(b, 1, t, other, 0)); // committing the new type commits only that one
            }
            // a committed type works; dup keeps the commit state
            pair.commit();
            pair.commit(); // committing twice does nothing
            final Datatype copy = pair.dup();
            assertType(() -> w.send(b, 1, strided.dup(), other, 0));
            final int[] got = new int[4];
            final Status s = w.sendRecv(new int[] {1, 2, 3, 4}, 2, copy, other, 5, got, 2, pair, other, 5);
            assertArrayEquals(new int[] {1, 2, 3, 4}, got);
            assertEquals(2, s.getCount(pair));
            assertEquals(2, s.getCount(strided)); // Status counts need no commit
            // commit of a freed type is ERR_TYPE (through the world's handler)
            final Datatype gone = Datatype.createContiguous(1, MPI.INT);
            gone.free();
            assertType(gone::commit);
            w.barrier();
            MPI.Finalize();
        });
    }

    @Test
    void shouldAbortWithErrTypeUnderErrorsAreFatal() {
        final TuttiException e = assertThrows(TuttiException.class, () -> MpiJobs.run(2, args -> {
            MPI.Init(args);
            final Datatype t = Datatype.createVector(2, 1, 2, MPI.INT);
            MPI.COMM_WORLD.allReduce(new int[4], 1, t, MPI.SUM); // never committed: fatal, exit status 3
            MPI.Finalize();
        }));
        assertEquals(MPI.ERR_TYPE, MpiJobs.abortStatus(e), e::toString);
    }
}
