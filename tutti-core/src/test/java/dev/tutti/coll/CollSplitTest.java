package dev.tutti.coll;

import dev.tutti.Communicator;
import dev.tutti.Tutti;

import dev.tutti.coll.AlgorithmId;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The collective matrix body ({@link CollBufferTest.Case}: every count, type, root, in place or not, against the
 * sequential reference) on derived communicators: a dup of the world, and the two halves of a split whose ranks
 * are renumbered (reverse key order) and whose world ranks interleave, run concurrently, for a subset of the
 * algorithms. A schedule that addressed world ranks instead of group ranks, or a context shared between the
 * halves, fails here.
 */
@Timeout(60)
class CollSplitTest {
    static final AlgorithmId[] SUBSET = {
        AlgorithmId.BARRIER_DISSEMINATION, AlgorithmId.BCAST_BINOMIAL, AlgorithmId.BCAST_SCATTER_ALLGATHER,
        AlgorithmId.GATHER_BINOMIAL, AlgorithmId.SCATTERV_LINEAR, AlgorithmId.ALLGATHER_RING,
        AlgorithmId.ALLGATHERV_RING, AlgorithmId.ALLTOALL_BRUCK, AlgorithmId.ALLTOALLV_PAIRWISE,
        AlgorithmId.ALLTOALLW_LINEAR, AlgorithmId.REDUCE_RABENSEIFNER, AlgorithmId.ALLREDUCE_RECURSIVE_DOUBLING,
        AlgorithmId.REDUCE_SCATTER_BLOCK_RECURSIVE_HALVING, AlgorithmId.REDUCE_SCATTER_PAIRWISE,
        AlgorithmId.SCAN_RECURSIVE_DOUBLING, AlgorithmId.EXSCAN_LINEAR,
    };

    static Stream<Arguments> matrix() {
        final List<Arguments> out = new ArrayList<>();
        for (final AlgorithmId id : SUBSET) {
            out.add(Arguments.of(id, 4, "dup"));
            out.add(Arguments.of(id, 7, "split"));
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} p={1} {2}")
    @MethodSource("matrix")
    void shouldMatchReferenceOnDerivedCommunicators(final AlgorithmId id, final int p, final String how) {
        final Tutti.Options opts = Tutti.Options.defaults().timeout(Duration.ofSeconds(50))
            .algorithm(id.kind().mpiName(), id.shortName());
        final AtomicInteger[] entered = {new AtomicInteger(), new AtomicInteger()};
        Tutti.runLocal(p, opts, world -> {
            final Communicator c;
            final int color = world.rank() % 2;
            if ("dup".equals(how)) {
                c = world.dup();
                assertEquals(world.size(), c.size());
            } else {
                c = world.split(color, -world.rank());
                assertEquals(0 == color ? (p + 1) / 2 : p / 2, c.size());
            }
            new CollBufferTest.Case(c, id.kind(), entered["dup".equals(how) ? 0 : color]).runAll();
            c.free();
        });
    }
}
