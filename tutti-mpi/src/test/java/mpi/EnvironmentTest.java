package mpi;

import dev.tutti.TuttiException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.ConcurrentHashMap;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(60)
class EnvironmentTest {

    @Test
    void shouldInitEveryRankAndFinalize() {
        final Set<Integer> ranks = ConcurrentHashMap.newKeySet();
        MpiJobs.run(4, args -> {
            assertFalse(MPI.isInitialized());
            final MPIException early = assertThrows(MPIException.class, () -> MPI.COMM_WORLD.getRank());
            assertEquals("MPI is not initialized.", early.getMessage());
            assertEquals(0, early.getErrorClass());
            final String[] in = {"a", "b"};
            assertArrayEquals(in, MPI.Init(in));
            assertTrue(MPI.isInitialized());
            assertEquals("MPI is already initialized.", assertThrows(MPIException.class, () -> MPI.Init(in))
                .getMessage());
            final int rank = MPI.COMM_WORLD.getRank();
            assertEquals(4, MPI.COMM_WORLD.getSize());
            assertEquals(0, MPI.COMM_SELF.getRank());
            assertEquals(1, MPI.COMM_SELF.getSize());
            assertEquals("MPI_COMM_WORLD", MPI.COMM_WORLD.getName());
            ranks.add(rank);
            final double t0 = MPI.wtime();
            assertTrue(MPI.wtime() >= t0);
            assertTrue(MPI.wtick() > 0);
            assertNotNull(MPI.getProcessorName());
            assertEquals(MPI.THREAD_SINGLE, MPI.queryThread());
            assertTrue(MPI.isThreadMain());
            assertEquals(Integer.MAX_VALUE, MPI.COMM_WORLD.getAttr(MPI.TAG_UB));
            assertEquals(4, MPI.COMM_WORLD.getAttr(MPI.UNIVERSE_SIZE));
            MPI.Finalize();
            assertTrue(MPI.isFinalized());
            assertTrue(MPI.isInitialized());
            assertEquals("MPI is finalized.", assertThrows(MPIException.class, MPI.COMM_WORLD::getSize).getMessage());
        });
        assertEquals(Set.of(0, 1, 2, 3), ranks);
    }

    @Test
    void shouldGrantTheThreadLevelAsked() {
        MpiJobs.run(2, args -> {
            assertEquals(MPI.THREAD_MULTIPLE, MPI.InitThread(args, MPI.THREAD_MULTIPLE));
            assertEquals(MPI.THREAD_MULTIPLE, MPI.queryThread());
            MPI.Finalize();
        });
    }

    @Test
    void shouldThrowUnderErrorsReturnWithTheErrorClass() {
        MpiJobs.run(2, args -> {
            MPI.Init(args);
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            final MPIException bad = assertThrows(MPIException.class,
                () -> MPI.COMM_WORLD.send(new int[1], 1, MPI.INT, 7, 0));
            assertEquals(MPI.ERR_RANK, bad.getErrorClass());
            assertEquals(MPI.ERR_RANK, bad.getErrorCode());
            assertEquals("MPI_ERR_RANK: invalid rank", bad.getMessage());
            final MPIException op = assertThrows(MPIException.class, MPI.SUM::free);
            assertEquals(MPI.ERR_OP, op.getErrorClass());
            final MPIException count = assertThrows(MPIException.class,
                () -> MPI.COMM_WORLD.send(new int[1], -1, MPI.INT, 0, 0));
            assertEquals(MPI.ERR_COUNT, count.getErrorClass());
            final Errhandler h = MPI.COMM_WORLD.getErrhandler();
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_ARE_FATAL);
            MPI.COMM_WORLD.setErrhandler(h);
            assertThrows(MPIException.class, () -> MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, -7, 0));
            MPI.COMM_WORLD.callErrhandler(5); // returns under ERRORS_RETURN
            // a truncated receive
            if (0 == MPI.COMM_WORLD.getRank()) {
                MPI.COMM_WORLD.send(new int[4], 4, MPI.INT, 1, 3);
            } else {
                assertEquals(MPI.ERR_TRUNCATE, assertThrows(MPIException.class,
                    () -> MPI.COMM_WORLD.recv(new int[2], 2, MPI.INT, 0, 3)).getErrorClass());
            }
            MPI.Finalize();
        });
    }

    @Test
    void shouldAbortTheJobWithTheErrorCodeUnderErrorsAreFatal() {
        final TuttiException e = assertThrows(TuttiException.class, () -> MpiJobs.run(3, args -> {
            MPI.Init(args);
            if (1 == MPI.COMM_WORLD.getRank()) {
                MPI.COMM_WORLD.send(new int[1], 1, MPI.INT, 99, 0); // bad rank: ERR_RANK = 6
            }
            MPI.COMM_WORLD.barrier();
            MPI.Finalize();
        }));
        assertEquals(MPI.ERR_RANK, MpiJobs.abortStatus(e), e::toString);
    }

    @Test
    void shouldAbortTheJobWithTheCodeOfAbort() {
        final TuttiException e = assertThrows(TuttiException.class, () -> MpiJobs.run(3, args -> {
            MPI.Init(args);
            if (2 == MPI.COMM_WORLD.getRank()) {
                MPI.COMM_WORLD.abort(42);
            }
            MPI.COMM_WORLD.barrier();
            MPI.Finalize();
        }));
        assertEquals(42, MpiJobs.abortStatus(e), e::toString);
    }

    @Test
    void shouldAbortWhenAHandlerIsCalledUnderErrorsAreFatal() {
        final TuttiException e = assertThrows(TuttiException.class, () -> MpiJobs.run(2, args -> {
            MPI.Init(args);
            MPI.COMM_WORLD.callErrhandler(MPI.ERR_FILE);
            MPI.Finalize();
        }));
        assertEquals(MPI.ERR_FILE, MpiJobs.abortStatus(e), e::toString);
    }

    @Test
    void shouldReportUnsupportedDerivedDatatypes() {
        MpiJobs.run(1, args -> {
            MPI.Init(args);
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            assertEquals(MPI.ERR_TYPE, assertThrows(MPIException.class,
                () -> Datatype.createVector(2, 1, 3, MPI.BOOLEAN)).getErrorClass()); // no layout of booleans
            final Datatype outside = Datatype.createResized(Datatype.createVector(2, 1, 2, MPI.INT), 0, 4);
            outside.commit();
            assertEquals(MPI.ERR_UNSUPPORTED_OPERATION, assertThrows(MPIException.class,
                () -> MPI.COMM_WORLD.allReduce(new int[4], new int[4], 1, outside,
                    new Op(new UserFunction() { }, true))).getErrorClass()); // a user op on data outside the extent
            final Datatype three = Datatype.createContiguous(3, MPI.INT);
            three.commit();
            assertEquals(3, three.getExtent());
            assertEquals(1, MPI.INT.getExtent());
            assertEquals(8, MPI.INT2.getExtent());
            assertEquals(2, MPI.DOUBLE_COMPLEX.getExtent());
            three.free();
            assertTrue(three.isNull());
            MPI.Finalize();
        });
    }
}
