package dev.tutti.internal;

import dev.tutti.Group;

/**
 * The implementation's way to what {@link Group} keeps package-private (making a group of world ranks, reading
 * its members), in the manner of the JDK's {@code SharedSecrets}: a group is an immutable value of the api, and the
 * communicators behind the api need its world ranks without a public constructor or accessor.
 *
 * <p>Implementation note. {@code Group}'s static initializer installs the one instance; {@link #get()} first makes
 * sure the class is initialized, so the accessor is set before any use. Off the per-call paths.
 */
public abstract class GroupAccess {
    private static volatile GroupAccess access;

    /** For {@code Group} alone. */
    protected GroupAccess() {
    }

    /**
     * Installs the accessor; called once, from {@code Group}'s static initializer.
     *
     * @param accessor the accessor
     */
    public static void install(final GroupAccess accessor) {
        access = accessor;
    }

    /** @return the accessor */
    public static GroupAccess get() {
        GroupAccess a = access;
        if (null == a) {
            Group.EMPTY.size(); // initializes Group, whose static initializer installs the accessor
            a = access;
        }
        return a;
    }

    /**
     * @param self       the world rank of the calling process
     * @param worldRanks the members, in order; copied
     * @return the group of those world ranks, as seen by {@code self}
     */
    public abstract Group of(int self, int... worldRanks);

    /**
     * @param group a group
     * @return its members as world ranks, in group order; not to be modified
     */
    public abstract int[] members(Group group);

    /**
     * @param group     a group
     * @param worldRank a world rank
     * @return the member's index in the group, or -1
     */
    public abstract int indexOf(Group group, int worldRank);
}
