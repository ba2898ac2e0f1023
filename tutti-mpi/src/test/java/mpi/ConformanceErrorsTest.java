package mpi;

import dev.tutti.TuttiException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Error handlers and error classes as MPI (chapter 8.3-8.4) and Open MPI's parameter checking report them: under
 * ERRORS_RETURN each bad argument throws an MPIException whose class names the argument's kind (code = class,
 * message = Open MPI's error string); handlers are per communicator and inherited by new ones; ERRORS_ARE_FATAL
 * on one communicator aborts with the error code while another returns.
 */
@Timeout(60)
class ConformanceErrorsTest {

    private static void assertClass(final int errorClass, final Executable call) {
        final MPIException e = assertThrows(MPIException.class, call);
        assertEquals(errorClass, e.getErrorClass(), e::toString);
        assertEquals(errorClass, e.getErrorCode(), e::toString);
        assertTrue(e.getMessage().startsWith(MpiErrors.string(errorClass).substring(0, 8)), e.getMessage());
    }

    @Test
    void shouldNameTheKindOfEveryBadArgument() {
        MpiJobs.run(3, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            w.setErrhandler(MPI.ERRORS_RETURN);
            final int[] b = new int[4];
            // roots
            assertClass(MPI.ERR_ROOT, () -> w.bcast(b, 1, MPI.INT, 3));
            assertClass(MPI.ERR_ROOT, () -> w.reduce(b, new int[4], 1, MPI.INT, MPI.SUM, -1));
            assertClass(MPI.ERR_ROOT, () -> w.gather(b, 1, MPI.INT, new int[4], 1, MPI.INT, 7));
            // counts, ranks, tags
            assertClass(MPI.ERR_COUNT, () -> w.bcast(b, -1, MPI.INT, 0));
            assertClass(MPI.ERR_COUNT, () -> w.iSend(MPI.newIntBuffer(1), -2, MPI.INT, 0, 0));
            assertClass(MPI.ERR_RANK, () -> w.sendRecv(b, 1, MPI.INT, 3, 0, b, 1, MPI.INT, 0, 0));
            assertClass(MPI.ERR_TAG, () -> w.iRecv(MPI.newIntBuffer(1), 1, MPI.INT, 0, -9));
            // datatypes
            final Datatype gone = Datatype.createContiguous(2, MPI.INT);
            gone.commit();
            gone.free();
            assertClass(MPI.ERR_TYPE, () -> w.send(b, 1, gone, 0, 0));
            assertClass(MPI.ERR_TYPE, MPI.INT::free);
            // ops
            final Op mine = new Op(new UserFunction() {
                @Override
                public void call(final Object in, final Object inOut, final int count, final Datatype t) {
                    // nothing
                }
            }, true);
            mine.free();
            assertTrue(mine.isNull());
            assertClass(MPI.ERR_OP, () -> w.allReduce(b, new int[4], 1, MPI.INT, mine));
            assertClass(MPI.ERR_OP, MPI.MAX::free);
            // groups
            final Group g = w.getGroup();
            assertClass(MPI.ERR_RANK, () -> g.incl(new int[] {0, 5}));
            final Group freed = w.getGroup();
            freed.free();
            assertTrue(freed.isNull());
            assertClass(MPI.ERR_GROUP, () -> w.create(freed));
            // communicators
            final Intracomm d = w.dup();
            d.free();
            assertClass(MPI.ERR_COMM, d::getSize);
            assertClass(MPI.ERR_COMM, () -> d.allReduce(b, 1, MPI.INT, MPI.SUM));
            assertClass(MPI.ERR_COMM, w::free); // the predefined communicators cannot be freed
            MPI.COMM_SELF.setErrhandler(MPI.ERRORS_RETURN);
            assertClass(MPI.ERR_COMM, MPI.COMM_SELF::free);
            final Intracomm copy = w.dup();
            copy.disconnect(); // any communicator may be disconnected: it is then null
            assertTrue(copy.isNull());
            final Intracomm none = w.split(MPI.UNDEFINED, 0);
            assertTrue(none.isNull());
            assertClass(MPI.ERR_COMM, () -> none.bcast(b, 1, MPI.INT, 0));
            // requests
            final Prequest p = w.sendInit(MPI.newIntBuffer(1), 1, MPI.INT, 0, 0);
            p.free();
            assertClass(MPI.ERR_REQUEST, p::start);
            final Prequest twice = w.recvInit(MPI.newIntBuffer(1), 1, MPI.INT, 0, 77);
            twice.start();
            assertClass(MPI.ERR_REQUEST, twice::start); // active: started, not completed
            twice.cancel();
            assertTrue(twice.waitStatus().isCancelled());
            twice.free();
            // topologies
            assertClass(MPI.ERR_DIMS, () -> CartComm.createDims(6, new int[] {4, 0}));
            // buffered mode, a message above the eager limit: no buffer, too small a buffer; a second buffer
            final int other = (w.getRank() + 1) % 3;
            final byte[] big = new byte[Buffered.EAGER_BYTES + 1];
            assertClass(MPI.ERR_BUFFER, () -> w.bSend(big, big.length, MPI.BYTE, other, 0));
            MPI.attachBuffer(new byte[MPI.BSEND_OVERHEAD + 4]);
            assertClass(MPI.ERR_BUFFER, () -> w.bSend(big, big.length, MPI.BYTE, other, 0));
            assertClass(MPI.ERR_BUFFER, () -> MPI.attachBuffer(new byte[10]));
            assertEquals(MPI.BSEND_OVERHEAD + 4, MPI.detachBuffer().length);
            // everything above left the communicator usable
            final int[] sum = {1};
            w.allReduce(sum, 1, MPI.INT, MPI.SUM);
            assertEquals(3, sum[0]);
            MPI.Finalize();
        });
    }

    @Test
    void shouldKeepHandlersPerCommunicator() {
        MpiJobs.run(2, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            assertTrue(w.getErrhandler().isFatal());
            assertTrue(MPI.COMM_SELF.getErrhandler().isFatal());
            final Intracomm before = w.dup();
            assertTrue(before.getErrhandler().isFatal()); // inherited: fatal
            before.setErrhandler(MPI.ERRORS_RETURN);
            assertTrue(w.getErrhandler().isFatal()); // the parent keeps its own
            assertClass(MPI.ERR_RANK, () -> before.send(new int[1], 1, MPI.INT, 2, 0));
            final Intracomm child = before.split(0, 0);
            assertFalse(child.getErrhandler().isFatal());
            assertClass(MPI.ERR_RANK, () -> child.recv(new int[1], 1, MPI.INT, 9, 0));
            // a saved handler restores
            final Errhandler saved = before.getErrhandler();
            before.setErrhandler(MPI.ERRORS_ARE_FATAL);
            before.setErrhandler(saved);
            assertClass(MPI.ERR_RANK, () -> before.send(new int[1], 1, MPI.INT, -5, 0));
            before.callErrhandler(MPI.ERR_OTHER); // returns under ERRORS_RETURN
            MPI.Finalize();
        });
    }

    @Test
    void shouldAbortWithTheCodeOnAFatalCommunicatorOnly() {
        final TuttiException e = assertThrows(TuttiException.class, () -> MpiJobs.run(2, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final Intracomm returning = w.dup();
            returning.setErrhandler(MPI.ERRORS_RETURN);
            assertClass(MPI.ERR_ROOT, () -> returning.bcast(new int[1], 1, MPI.INT, 5));
            if (0 == w.getRank()) {
                w.bcast(new int[1], 1, MPI.INT, 5); // fatal: ERR_ROOT = 8
            }
            w.barrier();
            MPI.Finalize();
        }));
        assertEquals(MPI.ERR_ROOT, MpiJobs.abortStatus(e), e::toString);
    }

    /** Under ERRORS_ARE_FATAL a failed request of waitAll aborts with its own error code (Open MPI's order). */
    @Test
    void shouldAbortWithTheRequestsOwnCodeWhenWaitAllFailsUnderErrorsAreFatal() {
        final TuttiException e = assertThrows(TuttiException.class, () -> MpiJobs.run(2, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            if (0 == w.getRank()) {
                w.send(new int[] {1, 2}, 2, MPI.INT, 1, 1);
            } else {
                Request.waitAll(new Request[] {w.iRecv(MPI.newIntBuffer(1), 1, MPI.INT, 0, 1)});
            }
            w.barrier();
            MPI.Finalize();
        }));
        assertEquals(MPI.ERR_TRUNCATE, MpiJobs.abortStatus(e), e::toString);
    }

    /** An invalid keyval is ERR_KEYVAL on communicators, windows and datatypes; predefined keys are all set. */
    @Test
    void shouldRejectAnInvalidKeyvalEverywhere() {
        MpiJobs.run(2, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            w.setErrhandler(MPI.ERRORS_RETURN);
            for (final int key : new int[] {MPI.UNIVERSE_SIZE, MPI.TAG_UB, MPI.IO, MPI.HOST, MPI.WTIME_IS_GLOBAL,
                MPI.APPNUM, MPI.LASTUSEDCODE}) {
                assertTrue(null != w.getAttr(key), "predefined keyval " + key);
            }
            final Win win = new Win(MPI.newIntBuffer(0), 0, 1, MPI.INFO_NULL, MPI.COMM_SELF);
            win.setErrhandler(MPI.ERRORS_RETURN);
            assertClass(MPI.ERR_KEYVAL, () -> win.getAttr(MPI.KEYVAL_INVALID));
            win.free();
            // a window's predefined attributes: its base, and its size and displacement unit in bytes
            final Win ints = new Win(MPI.newIntBuffer(25), 25, 1, MPI.INFO_NULL, w);
            assertTrue(null != ints.getAttr(MPI.WIN_BASE));
            assertEquals(100, ints.getAttr(MPI.WIN_SIZE));
            assertEquals(4, ints.getAttr(MPI.WIN_DISP_UNIT));
            ints.free();
            assertClass(MPI.ERR_KEYVAL, () -> w.getAttr(MPI.KEYVAL_INVALID));
            assertClass(MPI.ERR_KEYVAL, () -> MPI.INT.getAttr(MPI.KEYVAL_INVALID));
            assertClass(MPI.ERR_KEYVAL, () -> w.setAttr(MPI.KEYVAL_INVALID, "x"));
            assertClass(MPI.ERR_KEYVAL, () -> w.setAttr(MPI.TAG_UB, 5)); // predefined: read only
            final int key = Comm.createKeyval();
            w.setAttr(key, "kept");
            assertClass(MPI.ERR_KEYVAL, () -> MPI.INT.setAttr(key, "x")); // a communicator keyval
            Comm.freeKeyval(key);
            assertClass(MPI.ERR_KEYVAL, () -> w.setAttr(key, "again"));
            assertClass(MPI.ERR_KEYVAL, () -> Comm.freeKeyval(key));
            assertEquals("kept", w.getAttr(key)); // a freed keyval's attributes stay until deleted
            w.deleteAttr(key);
            assertEquals(null, w.getAttr(key));
            MPI.Finalize();
        });
    }

    @Test
    void shouldCheckInitializationBeforeEverythingButTheExemptMethods() {
        MpiJobs.run(1, args -> {
            final String notInit = "MPI is not initialized.";
            assertFalse(MPI.isInitialized());
            assertFalse(MPI.isFinalized());
            assertEquals(notInit, assertThrows(MPIException.class, MPI::wtime).getMessage());
            assertEquals(notInit, assertThrows(MPIException.class, () -> MPI.COMM_WORLD.barrier()).getMessage());
            assertEquals(0, assertThrows(MPIException.class, () -> MPI.COMM_WORLD.barrier()).getErrorClass());
            assertEquals(notInit, assertThrows(MPIException.class, () -> Datatype.createContiguous(1, MPI.INT))
                .getMessage());
            // exempt: versions, helpers, null checks, pControl
            assertEquals(3, MPI.getVersion().getVersion());
            assertEquals(1, MPI.getVersion().getSubVersion());
            assertTrue(MPI.newIntBuffer(2).isDirect());
            assertEquals(1, MPI.slice(new int[3], 2).capacity());
            assertFalse(MPI.REQUEST_NULL.isNull() ^ true);
            MPI.pControl(1, null);
            MPI.Init(args);
            MPI.Finalize();
            final String finalized = "MPI is finalized.";
            assertEquals(finalized, assertThrows(MPIException.class, MPI::wtick).getMessage());
            assertEquals(finalized, assertThrows(MPIException.class, () -> MPI.COMM_SELF.getRank()).getMessage());
            assertTrue(MPI.isFinalized());
        });
    }
}
