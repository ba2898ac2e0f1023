package mpi.programs;

import mpi.File;
import mpi.MPI;
import mpi.MPIException;
import mpi.Win;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A process job whose rank 1 calls the error handler of a window ({@code win}: ERRORS_ARE_FATAL by default) or of
 * a file set to ERRORS_ARE_FATAL ({@code file}) with the code in {@code args[1]}: the job ends with that code.
 */
public final class CallErrhandler {
    private CallErrhandler() {
    }

    public static void main(final String[] args) throws MPIException, java.io.IOException {
        MPI.Init(args);
        final int code = Integer.parseInt(args[1]);
        if ("win".equals(args[0])) {
            final Win win = new Win(MPI.newIntBuffer(4), 4, 1, MPI.INFO_NULL, MPI.COMM_WORLD);
            if (1 == MPI.COMM_WORLD.getRank()) {
                win.callErrhandler(code);
            }
        } else {
            final Path dir = Files.createTempDirectory("mpi-file");
            final File f = new File(MPI.COMM_SELF, dir.resolve("f").toString(), MPI.MODE_CREATE | MPI.MODE_RDWR
                | MPI.MODE_DELETE_ON_CLOSE);
            f.callErrhandler(code); // ERRORS_RETURN, a file's default: returns
            f.setErrhandler(MPI.ERRORS_ARE_FATAL);
            if (1 == MPI.COMM_WORLD.getRank()) {
                f.callErrhandler(code);
            }
            f.close();
            Files.delete(dir);
        }
        MPI.COMM_WORLD.barrier();
        MPI.Finalize();
    }
}
