package mpi;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.IntBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Windows and files: what error handling needs works as MPI says; the rest says it is not supported. */
@Timeout(60)
class WinFileTest {

    @Test
    void shouldCreateWindowsAndHandleTheirErrors() {
        final Throwable failure = assertThrows(Throwable.class, () -> MpiJobs.run(2, args -> {
            MPI.Init(args);
            final IntBuffer base = MPI.newIntBuffer(10);
            final Win win = new Win(base, 10, 1, MPI.INFO_NULL, MPI.COMM_WORLD);
            assertEquals(2, win.getGroup().getSize());
            win.setName("halo");
            assertEquals("halo", win.getName());
            final int key = Win.createKeyval();
            win.setAttr(key, "v");
            assertEquals("v", win.getAttr(key));
            win.deleteAttr(key);
            assertNull(win.getAttr(key));
            assertThrows(IllegalArgumentException.class, () -> new Win(IntBuffer.allocate(4), 4, 1, MPI.INFO_NULL,
                MPI.COMM_WORLD));
            final MPIException put = assertThrows(MPIException.class, () -> win.put(base, 1, MPI.INT, 0, 0, 1,
                MPI.INT));
            assertEquals(MPI.ERR_UNSUPPORTED_OPERATION, put.getErrorClass());
            assertEquals(MPI.ERR_UNSUPPORTED_OPERATION, assertThrows(MPIException.class, () -> win.fence(0))
                .getErrorClass());
            final Errhandler fatal = win.getErrhandler();
            win.setErrhandler(MPI.ERRORS_RETURN);
            win.callErrhandler(MPI.ERR_WIN); // returns under ERRORS_RETURN
            win.free();
            assertEquals(MPI.ERR_WIN, assertThrows(MPIException.class, win::getGroup).getErrorClass());
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            assertEquals(MPI.ERR_DISP, assertThrows(MPIException.class, () -> new Win(base, 10, 0, MPI.INFO_NULL,
                MPI.COMM_WORLD)).getErrorClass());
            final Win dynamic = new Win(MPI.INFO_NULL, MPI.COMM_WORLD);
            dynamic.setErrhandler(fatal);
            if (1 == MPI.COMM_WORLD.getRank()) {
                dynamic.callErrhandler(MPI.ERR_WIN); // ERRORS_ARE_FATAL: the job ends with 53
            }
            MPI.Finalize();
        }));
        assertEquals(MPI.ERR_WIN, MpiJobs.abortStatus(failure));
    }

    @Test
    void shouldOpenCloseAndDeleteFilesAsMpiSays(@TempDir final Path dir) {
        final String name = dir.resolve("data.bin").toString();
        MpiJobs.run(3, args -> {
            MPI.Init(args);
            final int rank = MPI.COMM_WORLD.getRank();
            // a file's default handler is ERRORS_RETURN: failures are exceptions
            assertEquals(MPI.ERR_NO_SUCH_FILE, assertThrows(MPIException.class, () -> new File(MPI.COMM_WORLD, name,
                MPI.MODE_RDONLY)).getErrorClass());
            assertEquals(MPI.ERR_AMODE, assertThrows(MPIException.class, () -> new File(MPI.COMM_WORLD, name,
                MPI.MODE_RDONLY | MPI.MODE_CREATE)).getErrorClass());
            assertEquals(MPI.ERR_AMODE, assertThrows(MPIException.class, () -> new File(MPI.COMM_WORLD, name,
                MPI.MODE_RDWR | MPI.MODE_WRONLY)).getErrorClass());
            final File f = new File(MPI.COMM_WORLD, name, MPI.MODE_CREATE | MPI.MODE_RDWR);
            assertEquals(MPI.MODE_CREATE | MPI.MODE_RDWR, f.getAMode());
            assertEquals(3, f.getGroup().getSize());
            assertEquals(0, f.getView().getDisp());
            assertEquals(MPI.BYTE, f.getView().getEType());
            assertEquals("native", f.getView().getDataRep());
            f.setView(8, MPI.INT, MPI.INT, "native");
            assertEquals(MPI.INT, f.getView().getFileType());
            assertEquals(MPI.ERR_UNSUPPORTED_DATAREP, assertThrows(MPIException.class, () -> f.setView(0, MPI.INT,
                MPI.INT, "ebcdic")).getErrorClass());
            MPI.COMM_WORLD.barrier();
            if (0 == rank) {
                f.setSize(100);
            }
            MPI.COMM_WORLD.barrier();
            assertEquals(100, f.getSize());
            assertEquals(MPI.ERR_UNSUPPORTED_OPERATION, assertThrows(MPIException.class, () -> f.readAt(0,
                new int[1], 1, MPI.INT)).getErrorClass());
            f.callErrhandler(MPI.ERR_FILE); // ERRORS_RETURN: returns
            f.close();
            assertEquals(MPI.ERR_FILE, assertThrows(MPIException.class, f::getSize).getErrorClass());
            assertEquals(MPI.ERR_FILE_EXISTS, assertThrows(MPIException.class, () -> new File(MPI.COMM_WORLD, name,
                MPI.MODE_CREATE | MPI.MODE_EXCL | MPI.MODE_WRONLY)).getErrorClass());
            MPI.COMM_WORLD.barrier();
            if (0 == rank) {
                File.delete(name);
                assertFalse(Files.exists(Path.of(name)));
                assertEquals(MPI.ERR_NO_SUCH_FILE, assertThrows(MPIException.class, () -> File.delete(name))
                    .getErrorClass());
            }
            MPI.COMM_WORLD.barrier();
            final File temp = new File(MPI.COMM_WORLD, name, MPI.MODE_CREATE | MPI.MODE_WRONLY
                | MPI.MODE_DELETE_ON_CLOSE);
            assertTrue(Files.exists(Path.of(name)));
            temp.close();
            assertFalse(Files.exists(Path.of(name)));
            MPI.Finalize();
        });
    }

    /** A file's handler set to ERRORS_ARE_FATAL: callErrhandler ends the job with the code. */
    @Test
    void shouldAbortWithTheCodeAFatalFileHandlerIsCalledWith(@TempDir final Path dir) {
        final String name = dir.resolve("f").toString();
        final Throwable failure = assertThrows(Throwable.class, () -> MpiJobs.run(2, args -> {
            MPI.Init(args);
            final File f = new File(MPI.COMM_SELF, name + MPI.COMM_WORLD.getRank(), MPI.MODE_CREATE
                | MPI.MODE_RDWR);
            f.setErrhandler(MPI.ERRORS_ARE_FATAL);
            if (0 == MPI.COMM_WORLD.getRank()) {
                f.callErrhandler(MPI.ERR_IO);
            }
            MPI.COMM_WORLD.barrier();
            MPI.Finalize();
        }));
        assertEquals(MPI.ERR_IO, MpiJobs.abortStatus(failure));
    }
}
