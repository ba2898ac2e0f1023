package mpi;

import java.util.Arrays;
import java.util.function.Supplier;

/**
 * The checks and conversions behind {@link Datatype}'s derived-type constructors: argument checks in MPI's error
 * classes, byte displacements widened for {@link dev.tutti.Layout}, and the struct rule (one Tutti element type
 * when every block has it, else bytes). Errors go to {@code MPI.COMM_WORLD}'s error handler, as MPI raises errors
 * that belong to no communicator.
 */
final class Derived {
    private Derived() {
    }

    /** Runs a constructor with the world's error handling. */
    static Datatype make(final String what, final Supplier<Datatype> body) throws MPIException {
        return MPI.COMM_WORLD.get("Datatype." + what, body);
    }

    /** @return {@code t}, if it can be the old type of a derived type */
    static Datatype old(final String what, final Datatype t) {
        if (null == t || t.isNull()) {
            throw MpiErrors.error(MPI.ERR_TYPE, what + ": oldType is null or freed, expected a valid datatype");
        }
        return t;
    }

    /** @return the sum of block lengths (0 for null: the layout reports the bad argument) */
    static int sum(final int[] a) {
        int s = 0;
        if (null != a) {
            for (final int x : a) {
                s += Math.max(0, x);
            }
        }
        return s;
    }

    /** @return the displacements widened, or null */
    static long[] longs(final int[] a) {
        if (null == a) {
            return null;
        }
        final long[] l = new long[a.length];
        for (int i = 0; i < a.length; i++) {
            l[i] = a[i];
        }
        return l;
    }

    /**
     * Returns the first {@code blockLengths.length} displacements. A derived type has one block per entry of
     * {@code blockLengths}: Open MPI's bindings take the count from it and read that many displacements (and
     * types), so longer arrays are accepted with their extra entries unread; shorter ones are an error.
     *
     * @param what          the constructor, for messages
     * @param blockLengths  the block lengths (null: the layout reports it)
     * @param displacements the displacements
     * @return {@code displacements}, or a copy of its first {@code blockLengths.length} entries
     * @throws MpiErrors.MpiError ERR_ARG for null or too few displacements
     */
    static int[] perBlock(final String what, final int[] blockLengths, final int[] displacements) {
        if (null == blockLengths || null != displacements && displacements.length == blockLengths.length) {
            return displacements;
        }
        if (null == displacements || displacements.length < blockLengths.length) {
            throw tooFew(what, "displacements", null == displacements ? -1 : displacements.length,
                blockLengths.length);
        }
        return Arrays.copyOf(displacements, blockLengths.length);
    }

    private static MpiErrors.MpiError tooFew(final String what, final String arg, final int length, final int blocks) {
        return MpiErrors.error(MPI.ERR_ARG, what + ": " + arg + (length < 0 ? "=null" : ".length=" + length)
            + ", expected at least " + blocks + " entries (one per block, blockLengths.length=" + blocks + ")");
    }

    /** The body of {@link Datatype#createStruct}. */
    static Datatype struct(final int[] blockLengths, final int[] given, final Datatype[] allTypes) {
        if (null == blockLengths) {
            throw MpiErrors.error(MPI.ERR_ARG, "createStruct: blockLengths=null, expected an array");
        }
        final int[] displacements = perBlock("createStruct", blockLengths, given);
        if (null == allTypes || allTypes.length < blockLengths.length) {
            throw tooFew("createStruct", "types", null == allTypes ? -1 : allTypes.length, blockLengths.length);
        }
        final Datatype[] types = Arrays.copyOf(allTypes, blockLengths.length);
        final dev.tutti.Layout[] items = new dev.tutti.Layout[types.length];
        boolean oneElement = true;
        int elements = 0;
        int data = 0;
        int align = 1;
        boolean userBound = false;
        for (int k = 0; k < types.length; k++) {
            items[k] = old("createStruct", types[k]).item();
            oneElement &= items[k].element() == items[0].element();
            elements += Math.max(0, blockLengths[k]) * types[k].elementsPerItem;
            data += Math.max(0, blockLengths[k]) * types[k].dataBytes;
            align = Math.max(align, types[k].alignBytes);
            userBound |= types[k].userBound;
        }
        if (!oneElement) {
            for (int k = 0; k < items.length; k++) {
                items[k] = items[k].asBytes();
            }
        }
        final Datatype d = Datatype.derived("struct", Datatype.Base.BYTE, dev.tutti.Layout.struct(blockLengths,
            longs(displacements), items), elements, align, userBound, data);
        d.signature = signature(blockLengths, types, elements);
        return d;
    }

    /**
     * The sizes of a struct item's basic elements in type-map order (block after block), or null when they are all
     * equal or too many to keep.
     */
    private static int[] signature(final int[] blockLengths, final Datatype[] types, final int elements) {
        if (elements > 1 << 16) {
            return null;
        }
        final int[] sig = new int[elements];
        int at = 0;
        for (int k = 0; k < types.length; k++) {
            final int[] one = types[k].elementSizes();
            for (int b = 0; b < blockLengths[k]; b++) {
                System.arraycopy(one, 0, sig, at, one.length);
                at += one.length;
            }
        }
        for (final int size : sig) {
            if (size != sig[0]) {
                return sig;
            }
        }
        return null;
    }
}
