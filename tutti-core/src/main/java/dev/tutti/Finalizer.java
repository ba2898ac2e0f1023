package dev.tutti;

import java.lang.foreign.MemorySegment;

/**
 * The agreement at {@link Tutti#close()}: every rank tells rank 0 it is done, rank 0 tells every rank to go. Runs
 * on its own context, so no user message can match it. Linear, because it runs once per job.
 */
final class Finalizer {
    private Finalizer() {
    }

    static void agree(final Communicator world, final int context) {
        final var engine = world.engine();
        final int n = world.size();
        final MemorySegment none = MemorySegment.ofArray(new byte[0]);
        if (0 == world.rank()) {
            for (int r = 1; r < n; r++) {
                engine.irecv(context, r, 0, Buf.of(new byte[0]), new FinalizeView()).waitFor();
            }
            final Request[] go = new Request[n - 1];
            for (int r = 1; r < n; r++) {
                go[r - 1] = engine.isend(context, r, 1, Datatype.BYTE, none);
            }
            Request.waitAll(go);
        } else {
            engine.isend(context, 0, 0, Datatype.BYTE, none).waitFor();
            engine.irecv(context, 0, 1, Buf.of(new byte[0]), new FinalizeView()).waitFor();
        }
    }

    /** World-rank view for the finalize messages. */
    private static final class FinalizeView implements dev.tutti.p2p.CommView {
        @Override
        public int toLocal(final int worldRank) {
            return worldRank;
        }

        @Override
        public String describe() {
            return "comm=FINALIZE";
        }
    }
}
