package mpi;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Object names as Open MPI 4.1's bindings report them (MPI 4.1 §7.8, §5.1.13): the predefined communicators are
 * {@code MPI_COMM_WORLD} and {@code MPI_COMM_SELF}; a predefined datatype has the name of the C type the bindings
 * map it onto ({@code MPI.INT} is {@code MPI_INT32_T}); every new communicator, datatype and window has an empty
 * name until one is set (Open MPI keeps a name of its own for its debugger interface but does not return it);
 * a datatype's duplicate is {@code "Dup "} and the old name; setName/getName round-trip, truncated to
 * {@code MPI_MAX_OBJECT_NAME - 1} characters.
 */
@Timeout(60)
class ConformanceNamesTest {

    @Test
    void shouldNameThePredefinedCommunicatorsOnlyAndRoundTripSetNames() {
        MpiJobs.run(4, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final int rank = w.getRank();
            assertEquals("MPI_COMM_WORLD", w.getName());
            assertEquals("MPI_COMM_SELF", MPI.COMM_SELF.getName());
            final Intracomm dup = w.dup();
            assertEquals("", dup.getName());
            final Intracomm idup = w.iDup();
            idup.getRequest().waitFor();
            assertEquals("", idup.getName());
            assertEquals("", w.clone().getName());
            final Intracomm split = w.split(rank % 2, rank);
            assertEquals("", split.getName());
            assertEquals("", w.create(w.getGroup()).getName());
            assertEquals("", w.createGroup(w.getGroup(), 3).getName());
            assertEquals("", w.splitType(Comm.TYPE_SHARED, rank, MPI.INFO_NULL).getName());
            final CartComm cart = w.createCart(new int[] {2, 2}, new boolean[] {false, true}, false);
            assertEquals("", cart.getName());
            assertEquals("", cart.dup().getName());
            assertEquals("", cart.sub(new boolean[] {true, false}).getName());
            assertEquals("", w.createGraph(new int[] {1, 2, 3, 4}, new int[] {1, 2, 3, 0}, false).getName());
            final Intercomm inter = w.createIntercomm(split, 0, 0 == rank % 2 ? 1 : 0, 21);
            assertEquals("", inter.getName());
            assertEquals("", inter.merge(0 == rank % 2).getName());
            // set, get, not inherited by a duplicate, not shared with the parent
            dup.setName("my dup");
            assertEquals("my dup", dup.getName());
            assertEquals("", dup.dup().getName());
            assertEquals("MPI_COMM_WORLD", w.getName());
            w.setName("world " + rank); // names are local to the process
            assertEquals("world " + rank, w.getName());
            w.setName("MPI_COMM_WORLD");
            final String long70 = "n".repeat(70);
            split.setName(long70);
            assertEquals(long70.substring(0, MPI.MAX_OBJECT_NAME - 1), split.getName());
            split.setName("");
            assertEquals("", split.getName());
            dup.setErrhandler(MPI.ERRORS_RETURN);
            assertEquals(MPI.ERR_ARG, assertThrows(MPIException.class, () -> dup.setName(null)).getErrorClass());
            final Win win = new Win(MPI.newIntBuffer(4), 4, 1, MPI.INFO_NULL, w);
            assertEquals("", win.getName());
            win.setName("halo");
            assertEquals("halo", win.getName());
            win.free();
            MPI.Finalize();
        });
    }

    @Test
    void shouldNameDatatypesAsOpenMpisBindings() {
        MpiJobs.run(1, args -> {
            MPI.Init(args);
            assertEquals("MPI_DATATYPE_NULL", MPI.DATATYPE_NULL.getName());
            assertEquals("MPI_UINT8_T", MPI.BYTE.getName());
            assertEquals("MPI_UINT16_T", MPI.CHAR.getName());
            assertEquals("MPI_INT16_T", MPI.SHORT.getName());
            assertEquals("MPI_UINT8_T", MPI.BOOLEAN.getName());
            assertEquals("MPI_INT32_T", MPI.INT.getName());
            assertEquals("MPI_INT64_T", MPI.LONG.getName());
            assertEquals("MPI_FLOAT", MPI.FLOAT.getName());
            assertEquals("MPI_DOUBLE", MPI.DOUBLE.getName());
            assertEquals("MPI_PACKED", MPI.PACKED.getName());
            assertEquals("MPI_2INT", MPI.INT2.getName());
            assertEquals("MPI_SHORT_INT", MPI.SHORT_INT.getName());
            assertEquals("MPI_LONG_INT", MPI.LONG_INT.getName());
            assertEquals("MPI_FLOAT_INT", MPI.FLOAT_INT.getName());
            assertEquals("MPI_DOUBLE_INT", MPI.DOUBLE_INT.getName());
            assertEquals("MPI_C_COMPLEX", MPI.FLOAT_COMPLEX.getName());
            assertEquals("MPI_C_DOUBLE_COMPLEX", MPI.DOUBLE_COMPLEX.getName());
            // derived types: unnamed until set; a duplicate is "Dup " + the old name
            final Datatype v = Datatype.createVector(2, 1, 2, MPI.INT);
            assertEquals("", v.getName());
            assertEquals("", Datatype.createContiguous(3, MPI.INT).getName());
            assertEquals("", Datatype.createStruct(new int[] {1}, new int[] {0}, new Datatype[] {MPI.DOUBLE})
                .getName());
            assertEquals("", Datatype.createResized(v, 0, 16).getName());
            assertEquals("", MPI.int2.getType().getName());
            assertEquals("Dup MPI_INT32_T", MPI.INT.dup().getName());
            assertEquals("Dup ", v.dup().getName());
            v.setName("stride 2");
            assertEquals("stride 2", v.getName());
            assertEquals("Dup stride 2", v.clone().getName());
            assertEquals("", Datatype.createContiguous(1, v).getName()); // not inherited by a new type
            final Datatype c = Datatype.createContiguous(2, MPI.DOUBLE);
            c.setName("x".repeat(80));
            assertEquals("x".repeat(MPI.MAX_OBJECT_NAME - 1), c.getName());
            MPI.Finalize();
        });
    }
}
