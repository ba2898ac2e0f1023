package mpi;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Groups, communicators, intercommunicators, topologies, datatype layouts and error handling. */
@Timeout(60)
class CommunicatorsTest {

    @Test
    void shouldBuildGroupsAndCommunicators() {
        MpjJobs.mpi(4, args -> {
            final Intracomm w = MPI.COMM_WORLD;
            final int me = w.Rank();
            final Group g = w.Group();
            final Group evens = g.Incl(new int[] {0, 2});
            assertEquals(me % 2 == 0 ? me / 2 : MPI.UNDEFINED, evens.Rank());
            assertArrayEquals(new int[] {0, -1, 1}, Group.Translate_ranks(g, new int[] {0, 1, 2}, evens));
            assertEquals(MPI.GROUP_EMPTY, g.Incl(new int[0]));
            assertEquals(g, g.Excl(new int[0]));
            assertEquals(2, g.Range_incl(new int[][] {{1, 3, 2}}).Size());
            // as in MPI, only the ranks a range produces must be in the group: {2, 4, 3} is 2 alone here
            assertArrayEquals(new int[] {0, 1, 2}, Group.Translate_ranks(g.Range_incl(new int[][] {{0, 1, 1},
                {2, 4, 3}}), new int[] {0, 1, 2}, g));
            assertEquals(3, g.Range_excl(new int[][] {{2, 4, 3}}).Size());
            assertEquals(MPI.IDENT, Group.Compare(g, w.Group()));
            assertEquals(MPI.SIMILAR, Group.Compare(g.Incl(new int[] {0, 1, 2, 3}), g.Incl(new int[] {3, 2, 1, 0})));
            assertEquals(MPI.UNEQUAL, Group.Compare(g, evens));
            assertEquals(4, Group.Union(evens, g).Size());
            assertEquals(2, Group.Difference(g, evens).Size());
            final Intracomm dup = (Intracomm) w.clone();
            assertEquals(MPI.CONGRUENT, Comm.Compare(w, dup));
            assertEquals(MPI.IDENT, Comm.Compare(w, w));
            final Intracomm made = w.Create(evens);
            assertEquals(me % 2 == 0 ? me / 2 : -1, made.Rank());
            final Intracomm split = w.Split(me < 2 ? MPI.UNDEFINED : 5, -me);
            assertEquals(2, split.Size());
            assertEquals(me < 2 ? 1 - me : 3 - me, split.Rank(), "ordered by key");
            final Intracomm same = w.Split(0, 0); // equal keys: ordered by rank
            assertEquals(me, same.Rank());
            assertEquals(-1, w.Topo_test());
            assertEquals(Boolean.FALSE, w.Test_inter());
        });
    }

    @Test
    void shouldConnectAndMergeTwoGroupsThroughAnIntercommunicator() {
        MpjJobs.mpi(4, args -> {
            final Intracomm w = MPI.COMM_WORLD;
            final int me = w.Rank();
            final Intracomm half = w.Split(me % 2, me);
            final Intercomm inter = w.Create_intercomm(half, 0, me % 2 == 0 ? 1 : 0, 99);
            assertTrue(inter.Test_inter());
            assertEquals(2, inter.Size());
            assertEquals(2, inter.Remote_size());
            final int[] got = new int[1];
            inter.Sendrecv(new int[] {me}, 0, 1, MPI.INT, inter.Rank(), 0, got, 0, 1, MPI.INT, inter.Rank(), 0);
            assertEquals(me % 2 == 0 ? me + 1 : me - 1, got[0]);
            final Intracomm merged = inter.Merge(me % 2 == 1);
            assertEquals(4, merged.Size());
            assertEquals(me % 2 == 0 ? me / 2 : 2 + me / 2, merged.Rank());
            assertNotNull(inter.clone());
        });
    }

    @Test
    void shouldLayOutCartesianAndGraphTopologies() {
        MpjJobs.mpi(5, args -> {
            final Intracomm w = MPI.COMM_WORLD;
            final int me = w.Rank();
            final Cartcomm cart = w.Create_cart(new int[] {2, 2}, new boolean[] {true, false}, false);
            if (4 == me) {
                assertNull(cart);
            } else {
                assertEquals(MPI.CART, cart.Topo_test());
                assertArrayEquals(new int[] {me / 2, me % 2}, cart.Coords(me));
                assertEquals(me, cart.Rank(cart.Coords(me)));
                final ShiftParms rows = cart.Shift(0, 1);
                assertEquals((me + 2) % 4, rows.rank_dest);
                final ShiftParms cols = cart.Shift(1, 1);
                assertEquals(me % 2 == 0 ? me + 1 : MPI.PROC_NULL, cols.rank_dest);
                final CartParms p = cart.Get();
                assertArrayEquals(new int[] {2, 2}, p.dims);
                assertArrayEquals(new int[] {me / 2, me % 2}, p.coords);
                final Cartcomm row = cart.Sub(new boolean[] {false, true});
                assertEquals(2, row.Size());
                assertEquals(me % 2, row.Rank());
                assertEquals(me, cart.Map(new int[] {2, 2}, new boolean[] {false, false}));
                assertTrue(cart.clone() instanceof Cartcomm);
            }
            final Graphcomm graph = w.Create_graph(new int[] {2, 3, 4}, new int[] {1, 2, 0, 0}, false);
            if (me < 3) {
                assertEquals(MPI.GRAPH, graph.Topo_test());
                assertArrayEquals(me == 0 ? new int[] {1, 2} : new int[] {0}, graph.Neighbours(me));
                assertArrayEquals(new int[] {2, 3, 4}, graph.Get().index);
            } else {
                assertNull(graph);
            }
            final int[] dims = new int[2];
            Cartcomm.Dims_create(6, dims);
            assertArrayEquals(new int[] {3, 2}, dims);
            final int[] three = new int[3];
            Cartcomm.Dims_create(12, three);
            assertArrayEquals(new int[] {3, 2, 2}, three);
            final int[] prime = new int[2];
            Cartcomm.Dims_create(7, prime);
            assertArrayEquals(new int[] {7, 1}, prime, "a factorisation of 7, not MPJ Express's {3, 2}");
            assertThrows(MPIException.class, () -> w.Create_cart(new int[] {3, 2}, new boolean[2], false));
        });
    }

    @Test
    void shouldCountDerivedTypesInArrayElements() {
        assertEquals(3, Datatype.Contiguous(3, MPI.INT).Size());
        assertEquals(3, Datatype.Contiguous(3, MPI.INT).Extent());
        final Datatype v = Datatype.Vector(2, 2, 5, MPI.INT);
        assertEquals(4, v.Size());
        assertEquals(7, v.Extent());
        assertEquals(Datatype.Hvector(2, 2, 5, MPI.INT).Extent(), v.Extent());
        assertEquals(2, MPI.INT2.Size());
        assertEquals(5, MPI.INT2.getType());
        final Datatype s = Datatype.Struct(new int[] {1, 1}, new int[] {0, 97},
            new Datatype[] {Datatype.Contiguous(4, MPI.INT), MPI.UB});
        assertEquals(97, s.Extent());
        assertEquals(0, s.Lb());
        assertEquals(97, s.Ub());
        final MPIException mixed = assertThrows(MPIException.class, () -> Datatype.Struct(new int[] {1, 1},
            new int[] {0, 1}, new Datatype[] {MPI.INT, MPI.DOUBLE}));
        assertTrue(mixed.getMessage().contains("Base types of all component types in a Struct must agree"));
        final Datatype ix = Datatype.Indexed(new int[] {1, 2}, new int[] {4, 0}, Datatype.Contiguous(2, MPI.INT));
        assertEquals(6, ix.Size());
        assertEquals(10, ix.Extent());
        assertEquals(Datatype.Hindexed(new int[] {1}, new int[] {3}, MPI.INT).Ub(), 4);
        assertThrows(MPIException.class, () -> Datatype.Vector(-1, 1, 1, MPI.INT));
    }

    @Test
    void shouldCountItemsOfADatatypeWithNoElements() {
        MpjJobs.mpi(2, args -> {
            final Intracomm w = MPI.COMM_WORLD;
            final Datatype none = Datatype.Struct(new int[0], new int[0], new Datatype[0]);
            assertEquals(0, none.Size());
            final int[] buf = {7};
            if (0 == w.Rank()) {
                w.Send(buf, 0, 100, none, 1, 0);
                w.Send(buf, 0, 3, none, 1, 1);
            } else {
                final Status st = w.Recv(buf, 0, 100, none, 0, 0);
                assertEquals(7, buf[0], "an empty message writes nothing");
                assertEquals(100, st.Get_count(none), "any number of such items is an empty message");
                assertEquals(MPI.UNDEFINED, st.Get_elements(none));
                final Status nb = w.Irecv(buf, 0, 3, none, 0, 1).Wait();
                assertEquals(3, nb.Get_count(none));
            }
        });
    }

    @Test
    void shouldSendAndReceiveThroughDerivedTypes() {
        MpjJobs.mpi(2, args -> {
            final Intracomm w = MPI.COMM_WORLD;
            final Datatype ix = Datatype.Indexed(new int[] {2, 1}, new int[] {0, 3}, MPI.DOUBLE);
            final Datatype st = Datatype.Struct(new int[] {1, 1, 1}, new int[] {1, 0, 4},
                new Datatype[] {MPI.DOUBLE, MPI.LB, MPI.UB});
            if (0 == w.Rank()) {
                w.Send(new double[] {1, 2, 3, 4, 5, 6, 7, 8}, 0, 2, ix, 1, 0);
                w.Send(new double[] {0, 1, 0, 0, 0, 2, 0, 0}, 0, 2, st, 1, 1);
                w.Send(new Object[] {"a", "b", "c", "d"}, 0, 1, Datatype.Vector(2, 1, 2, MPI.OBJECT), 1, 2);
            } else {
                final double[] in = new double[6];
                w.Recv(in, 0, 6, MPI.DOUBLE, 0, 0);
                assertArrayEquals(new double[] {1, 2, 4, 5, 6, 8}, in);
                final double[] s = new double[8];
                w.Recv(s, 0, 2, st, 0, 1);
                assertArrayEquals(new double[] {0, 1, 0, 0, 0, 2, 0, 0}, s);
                final Object[] o = new Object[5];
                w.Recv(o, 1, 4, MPI.OBJECT, 0, 2);
                assertArrayEquals(new Object[] {null, "a", "c", null, null}, o);
            }
        });
    }

    @Test
    void shouldEndTheJobUnderErrorsAreFatal() {
        final Throwable failure = assertThrows(Throwable.class, () -> MpjJobs.mpi(2, args -> {
            MPI.Errorhandler_set(MPI.ERRORS_ARE_FATAL);
            assertEquals(MPI.ERRORS_ARE_FATAL, MPI.Errorhandler_get());
            if (0 == MPI.COMM_WORLD.Rank()) {
                MPI.COMM_WORLD.Send(new int[1], 0, 1, MPI.INT, 7, 0);
            }
            MPI.COMM_WORLD.Barrier();
        }));
        assertTrue(String.valueOf(failure.getMessage()).contains("aborted"), String.valueOf(failure));
    }

    @Test
    void shouldReturnFromAbortAsMpjExpressDoes() {
        final int[] after = new int[2];
        MpjJobs.mpi(2, args -> {
            if (1 == MPI.COMM_WORLD.Rank()) {
                MPI.COMM_WORLD.Abort(3);
            }
            MPI.COMM_WORLD.Barrier();
            after[MPI.COMM_WORLD.Rank()] = 1;
        });
        assertArrayEquals(new int[] {1, 1}, after, "both ranks went on past Abort and the barrier");
    }
}
