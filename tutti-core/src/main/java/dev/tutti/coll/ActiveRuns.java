package dev.tutti.coll;

import dev.tutti.p2p.P2pEngine;
import dev.tutti.runtime.Agent;

import java.util.Arrays;

/**
 * The nonblocking collectives in flight on one rank, advanced by every wait on that rank.
 *
 * <p>Implementation notes. Copy-on-write array: {@link #doWork()} iterates a snapshot read from a volatile field
 * without locking; add/remove copy under this object's lock (once per nonblocking collective, not per message).
 */
final class ActiveRuns implements Agent {
    private volatile ScheduleRun[] runs = new ScheduleRun[0];

    static ActiveRuns of(final P2pEngine engine) {
        return engine.collectiveState(() -> {
            final ActiveRuns a = new ActiveRuns();
            engine.addAgent(a);
            return a;
        });
    }

    synchronized void add(final ScheduleRun run) {
        final ScheduleRun[] next = Arrays.copyOf(runs, runs.length + 1);
        next[next.length - 1] = run;
        runs = next;
    }

    synchronized void remove(final ScheduleRun run) {
        final ScheduleRun[] cur = runs;
        for (int i = 0; i < cur.length; i++) {
            if (cur[i] == run) {
                final ScheduleRun[] next = new ScheduleRun[cur.length - 1];
                System.arraycopy(cur, 0, next, 0, i);
                System.arraycopy(cur, i + 1, next, i, cur.length - i - 1);
                runs = next;
                return;
            }
        }
    }

    @Override
    public int doWork() {
        int work = 0;
        for (final ScheduleRun r : runs) {
            work += r.advance();
        }
        return work;
    }
}
