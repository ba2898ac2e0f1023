package dev.tutti.channel;

import dev.tutti.Buf;
import dev.tutti.Comm;
import dev.tutti.Datatype;
import dev.tutti.SharedMemory;
import dev.tutti.internal.Errors;

/**
 * Where a channel's buffers live: the arrays behind its heap buffers, one per buffer, of the element type's
 * primitive array, and whether its send buffers go to the shared arena instead.
 */
final class ChannelMemory {
    private ChannelMemory() {
    }

    /**
     * @return the shared arena of {@code comm}'s rank if send buffers should live in it: the job runs over shm, the
     *         type has raw memory (not BOOLEAN) and a block is larger than the eager limit (below it, the transport
     *         copies inline whatever the memory) and than the slot limit (below it, slots beat the single copy);
     *         else null
     */
    static SharedMemory sharedArena(final Comm comm, final Datatype type, final int sendBlock) {
        if (Datatype.BOOLEAN == type || 0 == sendBlock) {
            return null;
        }
        final long blockBytes = (long) sendBlock * type.sizeBytes();
        return SharedMemory.of(comm).filter(a -> blockBytes > Math.max(a.singleCopyAbove(), a.slotLimit()))
            .orElse(null);
    }

    static boolean supports(final Datatype type) {
        return switch (type) {
            case BYTE, BOOLEAN, CHAR, SHORT, INT, FLOAT, LONG, DOUBLE -> true;
            default -> false;
        };
    }

    static Object allocate(final Datatype type, final int count) {
        return java.lang.reflect.Array.newInstance(arrayClass(type).componentType(), count);
    }

    /** @return the class of the array {@link #allocate} makes for {@code type} */
    static Class<?> arrayClass(final Datatype type) {
        return switch (type) {
            case BYTE -> byte[].class;
            case BOOLEAN -> boolean[].class;
            case CHAR -> char[].class;
            case SHORT -> short[].class;
            case INT -> int[].class;
            case FLOAT -> float[].class;
            case LONG -> long[].class;
            case DOUBLE -> double[].class;
            default -> throw Errors.refused(type.name()); // refused by AlltoallChannel first
        };
    }

    static Buf buf(final Object array) {
        return switch (array) {
            case byte[] a -> Buf.of(a);
            case boolean[] a -> Buf.of(a);
            case char[] a -> Buf.of(a);
            case short[] a -> Buf.of(a);
            case int[] a -> Buf.of(a);
            case float[] a -> Buf.of(a);
            case long[] a -> Buf.of(a);
            case double[] a -> Buf.of(a);
            default -> throw Errors.refused(array.getClass().getName());
        };
    }
}
