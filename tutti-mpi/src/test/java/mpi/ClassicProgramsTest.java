package mpi;

import mpi.programs.MasterWorker;
import mpi.programs.MatrixMultiply;
import mpi.programs.Pi;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Classic Java MPI programs (mpi.programs, written as for Open MPI's bindings) on embedded ranks; each checks its
 * own result and aborts (failing the job) on a mismatch. {@link MpiProcessTest} runs them as process jobs.
 */
@Timeout(60)
class ClassicProgramsTest {

    @Test
    void shouldComputePiWithBcastAndReduce() {
        MpiJobs.run(4, Pi::main);
        MpiJobs.run(3, args -> Pi.main(new String[] {"1000"}));
    }

    @Test
    void shouldMultiplyMatricesByRowsAndByColumnBlocks() {
        MpiJobs.run(4, MatrixMultiply::main);
        MpiJobs.run(3, args -> MatrixMultiply.main(new String[] {"3"}));
    }

    @Test
    void shouldFarmTasksToWorkers() {
        MpiJobs.run(4, MasterWorker::main);
        MpiJobs.run(4, args -> MasterWorker.main(new String[] {"2"})); // fewer tasks than workers
        MpiJobs.run(2, args -> MasterWorker.main(new String[] {"7"}));
    }
}
