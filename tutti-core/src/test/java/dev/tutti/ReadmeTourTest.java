package dev.tutti;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The first blocks of the API tour ({@code docs/api-tour.md}), verbatim (keep the two in step), run on 4 embedded
 * ranks with checks of their results: {@code Tutti.init()} inside {@code runLocal} joins the embedded job. (tutti-cli's
 * {@code ReadmeSnippetsTest} compiles and runs every block of the guide as the page has it.)
 */
@Timeout(60)
class ReadmeTourTest {
    @Test
    void shouldRunTheTourAsWritten() {
        Tutti.runLocal(4, Tutti.Options.defaults().timeout(Duration.ofSeconds(50)), ignored -> tour());
    }

    @SuppressWarnings("unused")
    private static void tour() {
        try (Tutti tutti = Tutti.init()) {              // joins the job `tutti run` started (or a job of one rank)
            Communicator world = tutti.world();
            int rank = world.rank(), size = world.size();

            // Point-to-point: a Buf is a typed view of an array range, a ByteBuffer or a MemorySegment.
            double[] a = new double[1000];
            if (rank == 0) {
                world.send(Buf.of(a), 1, 7);                     // all 1000 doubles to rank 1, tag 7
            } else if (rank == 1) {
                Status s = world.recv(Buf.of(a, 0, 1000), 0, 7); // s.source(), s.tag(), s.count()
            }
            // Nonblocking: post a receive, do other work, complete it (also r.test(), Request.waitAll/waitAny, r.cancel()).
            double[] next = new double[1000];
            Request r = world.irecv(Buf.of(next), (rank + size - 1) % size, 8);   // from the rank before me, tag 8
            world.send(Buf.of(a), (rank + 1) % size, 8);                            // to the rank after me
            Status from = r.waitFor();                                               // from.source() == the rank before
            // Synchronous mode: ssend and issend complete only once the destination's receive has matched the message.
            assertEquals((rank + size - 1) % size, from.source());

            // Collectives over buffers, blocking and nonblocking (i...).
            double[] local = {rank}, total = new double[1];
            world.allreduce(Buf.of(local), Buf.of(total), Op.SUM);
            Request bar = world.ibarrier();
            world.bcast(Buf.of(a), 0);
            world.allreduce(Buf.IN_PLACE, Buf.of(a), Op.MAX);
            bar.waitFor();

            // Objects (mpi4py style): any serializable value; the receiver needs no size.
            world.sendObject(java.util.List.of("x", "y"), (rank + 1) % size, 0);
            java.util.List<String> got = world.recvObject(Communicator.ANY_SOURCE, 0);
            String joined = world.allreduceObject("r" + rank, String::concat);   // "r0r1r2r3", in rank order
            assertEquals("r0r1r2r3", joined);
            assertEquals(6.0, total[0]);
        }
        Tutti.runLocal(4, world -> {
            int[] x = {world.rank()};
            world.allreduce(Buf.IN_PLACE, Buf.of(x), Op.SUM);   // x[0] == 6 on every rank
            assertEquals(6, x[0]);
        });
        Tutti.runLocal(4, world -> {
            final int[] mineToThem = {world.rank()};
            final int[] theirsToMe = new int[1];
            final int[] out = new int[2];
            final int[] in = new int[2];
            Communicator half = world.split(world.rank() % 2, world.rank());          // two halves: evens and odds
            Communicator mine = world.dup();                                         // same group, its own message space
            Intercommunicator pair = half.createIntercomm(0, world, 1 - world.rank() % 2, 99);  // evens <-> odds
            // Symmetric bcast: my group's root 0 reaches every rank of the other group, and theirs (root 0) reaches mine.
            pair.bcast(Buf.of(mineToThem), Buf.of(theirsToMe), 0, 0);
            pair.alltoall(Buf.of(out), Buf.of(in));   // every rank of one group to every rank of the other, both ways
            Communicator both = pair.merge(world.rank() % 2 == 1);
            assertEquals(1 - world.rank() % 2, theirsToMe[0]);   // the other group's rank 0 is world rank 0 or 1
            assertEquals(4, both.size());
        });
        Op matmul = Op.user("matmul2x2", false, (Op.LongFunction) (in, inout, count) -> { /* inout = in x inout */ });
    }
}
