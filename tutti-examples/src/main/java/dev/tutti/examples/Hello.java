package dev.tutti.examples;

import dev.tutti.Communicator;
import dev.tutti.Tutti;

import java.util.List;

/**
 * Every rank says hello; rank 0 gathers the greetings (an object collective) and prints them in rank order.
 *
 * <pre>
 * bin/tutti run -n 4 -cp tutti-examples/target/classes dev.tutti.examples.Hello
 * </pre>
 */
public final class Hello {
    private Hello() {
    }

    /**
     * Runs the example.
     *
     * @param args unused
     */
    public static void main(final String[] args) {
        try (Tutti tutti = Tutti.init()) {
            final Communicator world = tutti.world();
            final String greeting = "hello from rank " + world.rank() + " of " + world.size() + " (pid "
                + ProcessHandle.current().pid() + ")";
            final List<String> all = world.gatherObject(greeting, 0);
            if (0 == world.rank()) {
                all.forEach(System.out::println);
            }
        }
    }
}
