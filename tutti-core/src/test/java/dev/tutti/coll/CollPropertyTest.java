package dev.tutti.coll;

import dev.tutti.Buf;
import dev.tutti.Datatype;
import dev.tutti.Op;
import dev.tutti.Request;
import dev.tutti.Tutti;
import dev.tutti.testkit.ReferenceCollectives;
import dev.tutti.testkit.TypedData;

import dev.tutti.coll.AlgorithmId;
import dev.tutti.coll.CollKind;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

/**
 * Property-based collectives: random group sizes, roots, counts, ops and algorithms, and random sequences of
 * nonblocking collectives completed in random orders, checked against the sequential reference. jqwik prints the
 * seed of a failing try.
 */
class CollPropertyTest {
    static final List<Op> OPS = List.of(Op.SUM, Op.PROD, Op.MIN, Op.MAX, Op.BAND, Op.BOR, Op.BXOR);

    /** One drawn case: an algorithm, a group size, a root, a count and an op. */
    record Draw(AlgorithmId algorithm, int p, int root, int count, Op op, long seed) {
    }

    @Provide
    Arbitrary<Draw> draws() {
        final Arbitrary<AlgorithmId> algos = Arbitraries.of(AlgorithmId.values()).filter(a -> switch (a.kind()) {
            case BCAST, REDUCE, ALLREDUCE, SCAN, EXSCAN -> true;
            default -> false;
        });
        return Combinators.combine(algos, Arbitraries.integers().between(1, 12),
            Arbitraries.integers().between(0, 1000), Arbitraries.integers().between(0, 300),
            Arbitraries.of(OPS), Arbitraries.longs()).as((a, p, r, n, op, seed) -> new Draw(a, p, r % p, n, op,
            seed));
    }

    @Property(tries = 60)
    void shouldMatchReferenceForRandomDraws(@ForAll("draws") final Draw d) {
        final Tutti.Options opts = Tutti.Options.defaults().timeout(Duration.ofSeconds(30))
            .algorithm(d.algorithm().kind().mpiName(), d.algorithm().shortName());
        final Datatype t = Datatype.LONG;
        final Op op = d.algorithm().commutativeOnly() || d.op().isCommutative() ? d.op() : Op.SUM;
        Tutti.runLocal(d.p(), opts, w -> {
            final int me = w.rank();
            final int n = d.count();
            final byte[][] inputs = new byte[d.p()][];
            for (int i = 0; i < d.p(); i++) {
                inputs[i] = TypedData.canonical(t, n, d.seed() + i, TypedData.Values.UNIT);
            }
            final long[] mine = new long[n];
            TypedData.write(mine, t, 0, inputs[me]);
            final long[] out = new long[n];
            final CollKind kind = d.algorithm().kind();
            switch (kind) {
                case BCAST -> {
                    w.bcast(Buf.of(me == d.root() ? mine : out), d.root());
                    assertArrayEquals(inputs[d.root()], TypedData.read(me == d.root() ? mine : out, t, 0, n),
                        d.toString());
                }
                case REDUCE -> {
                    w.reduce(Buf.of(mine), Buf.of(out), op, d.root());
                    if (me == d.root()) {
                        assertArrayEquals(ReferenceCollectives.reduce(inputs, op, t, n),
                            TypedData.read(out, t, 0, n), d.toString());
                    }
                }
                case ALLREDUCE -> {
                    w.allreduce(Buf.of(mine), Buf.of(out), op);
                    assertArrayEquals(ReferenceCollectives.reduce(inputs, op, t, n), TypedData.read(out, t, 0, n),
                        d.toString());
                }
                case SCAN -> {
                    w.scan(Buf.of(mine), Buf.of(out), op);
                    assertArrayEquals(ReferenceCollectives.prefix(inputs, op, t, n, me + 1),
                        TypedData.read(out, t, 0, n), d.toString());
                }
                case EXSCAN -> {
                    w.exscan(Buf.of(mine), Buf.of(out), op);
                    if (me > 0) {
                        assertArrayEquals(ReferenceCollectives.prefix(inputs, op, t, n, me),
                            TypedData.read(out, t, 0, n), d.toString());
                    }
                }
                default -> throw new IllegalStateException(kind.name());
            }
        });
    }

    @Property(tries = 40)
    void shouldCompleteRandomNonblockingSequencesInAnyOrder(
        @ForAll("sizes") final int p, @ForAll("sequences") final List<Integer> kinds, @ForAll final long seed) {
        Tutti.runLocal(p, Tutti.Options.defaults().timeout(Duration.ofSeconds(30)), w -> {
            final int me = w.rank();
            final Request[] rs = new Request[kinds.size()];
            final long[][] outs = new long[kinds.size()][];
            for (int i = 0; i < kinds.size(); i++) {
                final long[] in = new long[7];
                Arrays.fill(in, me + i);
                outs[i] = new long[7 * (kinds.get(i) == 2 ? p : 1)];
                rs[i] = switch (kinds.get(i)) {
                    case 0 -> w.iallreduce(Buf.of(in), Buf.of(outs[i]), Op.SUM);
                    case 1 -> w.ibcast(Buf.of(me == i % p ? in : outs[i]), i % p);
                    case 2 -> w.iallgather(Buf.of(in), Buf.of(outs[i]));
                    default -> w.ibarrier();
                };
            }
            // Each rank completes its requests in its own random order.
            final java.util.List<Integer> order = new java.util.ArrayList<>();
            for (int i = 0; i < rs.length; i++) {
                order.add(i);
            }
            java.util.Collections.shuffle(order, new java.util.Random(seed + me));
            for (final int i : order) {
                rs[i].waitFor();
            }
            for (int i = 0; i < kinds.size(); i++) {
                final long expect = switch (kinds.get(i)) {
                    case 0 -> (long) p * i + (long) p * (p - 1) / 2;
                    case 1 -> me == i % p ? me + i : (i % p) + i;
                    case 2 -> (long) (p - 1) + i;
                    default -> 0;
                };
                final long got = switch (kinds.get(i)) {
                    case 1 -> me == i % p ? me + i : outs[i][6];
                    case 2 -> outs[i][7 * p - 1];
                    case 0 -> outs[i][6];
                    default -> 0;
                };
                if (expect != got) {
                    throw new AssertionError("p=" + p + " kinds=" + kinds + " #" + i + " expected " + expect
                        + " got " + got);
                }
            }
        });
    }

    @Provide
    Arbitrary<Integer> sizes() {
        return Arbitraries.integers().between(1, 9);
    }

    @Provide
    Arbitrary<List<Integer>> sequences() {
        return Arbitraries.integers().between(0, 3).list().ofMinSize(1).ofMaxSize(12);
    }
}
