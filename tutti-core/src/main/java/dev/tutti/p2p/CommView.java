package dev.tutti.p2p;

/**
 * What the point-to-point layer needs to know of a communicator: how to turn a world rank back into a rank of
 * the communicator's group (for statuses), and how to name it in error messages.
 */
public interface CommView {

    /**
     * Translates a world rank to the communicator's rank.
     *
     * @param worldRank a world rank of a member
     * @return its rank in the communicator
     */
    int toLocal(int worldRank);

    /**
     * Returns a short description for error messages, e.g. {@code comm=WORLD, rank=2}.
     *
     * @return the description
     */
    String describe();

    /**
     * Returns the communicator's name, for trace events: by default read from {@link #describe()} (its
     * {@code comm=NAME} part, else the whole description); a communicator's own view returns its name as it is.
     *
     * @return the name
     */
    default String name() {
        final String d = describe();
        final int comma = d.indexOf(", rank=");
        return d.startsWith("comm=") && comma > 0 ? d.substring("comm=".length(), comma) : d;
    }

    /**
     * Whether the communicator has been freed on this rank (operations it started before complete normally; none
     * may start after).
     *
     * @return true once freed; false for views of no freeable communicator
     */
    default boolean isFreed() {
        return false;
    }

    /**
     * Returns a view whose ranks are world ranks (traffic that belongs to no communicator of the program's).
     *
     * @param description what {@link #describe()} says
     * @return the view
     */
    static CommView ofWorldRanks(final String description) {
        return new CommView() {
            @Override
            public int toLocal(final int worldRank) {
                return worldRank;
            }

            @Override
            public String describe() {
                return description;
            }
        };
    }
}
