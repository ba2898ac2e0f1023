package dev.tutti;

/** Placeholder until the kernels branch lands. */
public final class Op {
    /** Sum. */
    public static final Op SUM = new Op("SUM", true);
    /** Max. */
    public static final Op MAX = new Op("MAX", true);
    /** Prod. */
    public static final Op PROD = new Op("PROD", true);
    /** Min. */
    public static final Op MIN = new Op("MIN", true);
    /** Lor. */
    public static final Op LOR = new Op("LOR", true);

    private final String name;
    private final boolean commutative;

    private Op(final String name, final boolean commutative) {
        this.name = name;
        this.commutative = commutative;
    }

    /** @return name */
    public String name() {
        return name;
    }

    /** @return commutative */
    public boolean isCommutative() {
        return commutative;
    }
}
