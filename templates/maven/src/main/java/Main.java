import dev.tutti.Buf;
import dev.tutti.Communicator;
import dev.tutti.Op;
import dev.tutti.Tutti;

public class Main {
    public static void main(String[] args) {
        try (Tutti tutti = Tutti.init()) {
            Communicator world = tutti.world();
            int[] sum = {world.rank()};
            world.allreduce(Buf.IN_PLACE, Buf.of(sum), Op.SUM);
            System.out.println("rank " + world.rank() + " of " + world.size() + ": sum of ranks " + sum[0]);
        }
    }
}
