package mpi;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Groups, communicators, info and attributes as MPI (chapters 6, 9) defines them: group set operations and their
 * order, translateRanks with absent ranks and PROC_NULL, the empty group, comparisons of groups and communicators,
 * split keys and ties, create/createGroup for members only, createIntercomm, info keys, attribute copies.
 */
@Timeout(60)
class ConformanceGroupCommTest {

    private static int[] members(final Group g, final Group world) throws MPIException {
        final int[] in = new int[g.getSize()];
        for (int i = 0; i < in.length; i++) {
            in[i] = i;
        }
        return Group.translateRanks(g, in, world);
    }

    @Test
    void shouldBuildGroupsInMpisOrder() {
        MpiJobs.run(4, args -> {
            MPI.Init(args);
            final int rank = MPI.COMM_WORLD.getRank();
            final Group w = MPI.COMM_WORLD.getGroup();
            assertEquals(4, w.getSize());
            assertEquals(rank, w.getRank());
            final Group g31 = w.incl(new int[] {3, 1});
            assertArrayEquals(new int[] {3, 1}, members(g31, w));
            assertEquals(3 == rank ? 0 : 1 == rank ? 1 : MPI.UNDEFINED, g31.getRank());
            assertArrayEquals(new int[] {0, 2, 3}, members(w.excl(new int[] {1}), w));
            assertArrayEquals(new int[] {0, 2}, members(w.rangeIncl(new int[][] {{0, 3, 2}}), w));
            assertArrayEquals(new int[] {3, 2, 1, 0}, members(w.rangeIncl(new int[][] {{3, 0, -1}}), w));
            assertArrayEquals(new int[] {3, 0, 1}, members(w.rangeIncl(new int[][] {{3, 3, 1}, {0, 1, 1}}), w));
            assertArrayEquals(new int[] {0, 2}, members(w.rangeExcl(new int[][] {{1, 3, 2}}), w));
            final Group g01 = w.incl(new int[] {0, 1});
            final Group g012 = w.incl(new int[] {0, 1, 2});
            assertArrayEquals(new int[] {0, 1, 3}, members(Group.union(g01, g31), w));
            assertArrayEquals(new int[] {3, 1, 0}, members(Group.union(g31, g01), w));
            assertArrayEquals(new int[] {0, 2}, members(Group.intersection(g012, w.incl(new int[] {2, 0})), w));
            assertArrayEquals(new int[] {0, 2}, members(Group.difference(g012, g31), w));
            // translateRanks: absent ranks map to UNDEFINED, PROC_NULL to PROC_NULL
            assertArrayEquals(new int[] {MPI.UNDEFINED, 1, MPI.UNDEFINED, 0},
                Group.translateRanks(w, new int[] {0, 1, 2, 3}, g31));
            assertArrayEquals(new int[] {MPI.PROC_NULL}, Group.translateRanks(w, new int[] {MPI.PROC_NULL}, g31));
            // comparisons
            assertEquals(MPI.IDENT, Group.compare(w, MPI.COMM_WORLD.getGroup()));
            assertEquals(MPI.SIMILAR, Group.compare(w, w.rangeIncl(new int[][] {{3, 0, -1}})));
            assertEquals(MPI.UNEQUAL, Group.compare(w, g31));
            // the empty group
            final Group empty = w.incl(new int[0]);
            assertEquals(0, empty.getSize());
            assertEquals(MPI.UNDEFINED, empty.getRank());
            assertEquals(0, MPI.GROUP_EMPTY.getSize());
            assertEquals(MPI.UNDEFINED, MPI.GROUP_EMPTY.getRank());
            assertEquals(MPI.IDENT, Group.compare(empty, MPI.GROUP_EMPTY));
            assertEquals(0, Group.intersection(g01, w.incl(new int[] {2, 3})).getSize());
            assertEquals(0, Group.difference(w, w).getSize());
            g31.free();
            assertTrue(g31.isNull());
            MPI.Finalize();
        });
    }

    @Test
    void shouldCompareSplitAndCreateCommunicators() {
        MpiJobs.run(4, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final int rank = w.getRank();
            assertFalse(w.isInter());
            assertEquals(MPI.IDENT, Comm.compare(w, w));
            final Intracomm dup = w.dup();
            assertEquals(MPI.CONGRUENT, Comm.compare(w, dup));
            final Intracomm reversed = w.split(0, -rank); // one colour, keys reverse the order
            assertEquals(3 - rank, reversed.getRank());
            assertEquals(MPI.SIMILAR, Comm.compare(w, reversed));
            final Intracomm halves = w.split(rank % 2, 0); // equal keys: the old order
            assertEquals(rank / 2, halves.getRank());
            assertEquals(2, halves.getSize());
            assertEquals(MPI.UNEQUAL, Comm.compare(w, halves));
            final Intracomm alone = w.split(rank, 0);
            assertEquals(MPI.CONGRUENT, Comm.compare(MPI.COMM_SELF, alone));
            final Intracomm some = w.split(2 == rank ? MPI.UNDEFINED : 1, 0);
            assertEquals(2 == rank, some.isNull());
            if (!some.isNull()) {
                assertEquals(3, some.getSize());
                assertEquals(rank < 2 ? rank : 2, some.getRank());
            }
            // create: members get a communicator in the group's order, the others a null one
            final Group g = w.getGroup().incl(new int[] {3, 0});
            final Intracomm created = w.create(g);
            assertEquals(0 != rank && 3 != rank, created.isNull());
            if (!created.isNull()) {
                assertEquals(3 == rank ? 0 : 1, created.getRank());
                final int[] s = {rank};
                created.allReduce(s, 1, MPI.INT, MPI.SUM);
                assertEquals(3, s[0]);
            }
            // createGroup: only the group's members call it
            if (1 == rank || 2 == rank) {
                final Intracomm cg = w.createGroup(w.getGroup().incl(new int[] {2, 1}), 7);
                assertEquals(2 == rank ? 0 : 1, cg.getRank());
                cg.barrier();
                cg.free();
            }
            // names
            dup.setName("my dup");
            assertEquals("my dup", dup.getName());
            // iDup: usable once its request completes
            final Intracomm later = w.iDup();
            later.getRequest().waitFor();
            final int[] s = {1};
            later.allReduce(s, 1, MPI.INT, MPI.SUM);
            assertEquals(4, s[0]);
            assertEquals(MPI.CONGRUENT, Comm.compare(w, later));
            final Intracomm withInfo = w.dupWithInfo(new Info());
            assertEquals(MPI.CONGRUENT, Comm.compare(w, withInfo));
            final Intracomm shared = w.splitType(Comm.TYPE_SHARED, rank, MPI.INFO_NULL);
            assertTrue(shared.getSize() >= 1);
            for (final Comm c : new Comm[] {dup, reversed, halves, alone, later, withInfo, shared}) {
                c.free();
                assertTrue(c.isNull());
            }
            MPI.Finalize();
        });
    }

    @Test
    void shouldBuildAnIntercommunicatorFromTwoLeaders() {
        MpiJobs.run(5, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final int rank = w.getRank();
            final boolean low = rank < 2;
            final Intracomm local = w.split(low ? 0 : 1, rank);
            final Intercomm inter = w.createIntercomm(local, 0, low ? 2 : 0, 99);
            assertTrue(inter.isInter());
            assertEquals(low ? 2 : 3, inter.getSize());
            assertEquals(low ? 3 : 2, inter.getRemoteSize());
            assertEquals(MPI.IDENT, Group.compare(inter.getGroup(), local.getGroup()));
            final int[] remoteWorld = Group.translateRanks(inter.getRemoteGroup(), low ? new int[] {0, 1, 2}
                : new int[] {0, 1}, w.getGroup());
            assertArrayEquals(low ? new int[] {2, 3, 4} : new int[] {0, 1}, remoteWorld);
            final Intracomm merged = inter.merge(low); // the low group goes last
            assertEquals(5, merged.getSize());
            assertEquals(low ? 3 + rank : rank - 2, merged.getRank());
            final Intercomm copy = inter.dup();
            assertEquals(MPI.CONGRUENT, Comm.compare(inter, copy));
            final int[] v = {rank};
            copy.allReduce(new int[] {rank}, v, 1, MPI.INT, MPI.SUM);
            assertEquals(low ? 9 : 1, v[0]);
            copy.free();
            merged.free();
            inter.free();
            MPI.Finalize();
        });
    }

    @Test
    void shouldKeepInfoKeysInOrder() {
        MpiJobs.run(1, args -> {
            MPI.Init(args);
            MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
            final Info info = new Info();
            assertEquals(0, info.size());
            assertNull(info.get("absent"));
            info.set("b", "1");
            info.set("a", "2");
            info.set("b", "3"); // overwrite: same key, same place
            assertEquals(2, info.size());
            assertEquals("b", info.getKey(0));
            assertEquals("a", info.getKey(1));
            assertEquals("3", info.get("b"));
            final Info copy = info.dup();
            info.delete("b");
            assertEquals(1, info.size());
            assertEquals("3", copy.get("b"));
            assertEquals(MPI.ERR_INFO_NOKEY, assertThrows(MPIException.class, () -> info.delete("b"))
                .getErrorClass());
            assertEquals(MPI.ERR_INFO_KEY, assertThrows(MPIException.class, () -> info.set("k".repeat(
                MPI.MAX_INFO_KEY + 1), "v")).getErrorClass());
            assertEquals(MPI.ERR_INFO_VALUE, assertThrows(MPIException.class, () -> info.set("k", "v".repeat(
                MPI.MAX_INFO_VAL + 1))).getErrorClass());
            info.free();
            assertTrue(info.isNull());
            assertTrue(MPI.INFO_NULL.isNull());
            MPI.Finalize();
        });
    }

    /** MPI.INFO_ENV holds the execution environment (MPI's reserved keys and Open MPI's own). */
    @Test
    void shouldDescribeTheEnvironmentInInfoEnv() {
        MpiJobs.run(3, args -> {
            MPI.Init(args);
            final Info env = MPI.INFO_ENV;
            assertEquals("3", env.get("maxprocs"));
            assertEquals("3", env.get("ompi_np"));
            assertEquals(java.net.InetAddress.getLocalHost().getHostName(), env.get("host"));
            final String pwd = System.getenv("PWD");
            assertEquals(null != pwd ? pwd : System.getProperty("user.dir"), env.get("wdir"));
            for (final String key : new String[] {"command", "arch", "ompi_num_apps", "ompi_first_rank",
                "thread_level"}) {
                assertTrue(null != env.get(key), key);
            }
            MPI.Finalize();
        });
    }

    @Test
    void shouldCopyAttributeValues() {
        MpiJobs.run(2, args -> {
            MPI.Init(args);
            final Intracomm w = MPI.COMM_WORLD;
            final int key = Comm.createKeyval();
            assertNull(w.getAttr(key));
            final List<Integer> value = new ArrayList<>(List.of(1, 2));
            w.setAttr(key, value);
            final Object got = w.getAttr(key);
            assertEquals(value, got);
            assertNotSame(value, got); // serialised: a copy
            final Intracomm dup = w.dup();
            assertEquals(value, dup.getAttr(key));
            w.deleteAttr(key);
            assertNull(w.getAttr(key));
            assertEquals(value, dup.getAttr(key)); // the duplicate's copy stays
            Comm.freeKeyval(key);
            assertTrue(w.getAttr(MPI.TAG_UB) instanceof Integer);
            assertTrue((Integer) w.getAttr(MPI.TAG_UB) >= 32767);
            assertTrue(w.getAttr(MPI.WTIME_IS_GLOBAL) instanceof Boolean);
            final Datatype t = Datatype.createContiguous(2, MPI.INT);
            final int tkey = Datatype.createKeyval();
            t.setAttr(tkey, "type attr");
            assertEquals("type attr", t.getAttr(tkey));
            t.deleteAttr(tkey);
            assertNull(t.getAttr(tkey));
            Datatype.freeKeyval(tkey);
            MPI.Finalize();
        });
    }
}
