package dev.tutti.p2p;

import dev.tutti.type.TypeCode;

/**
 * The type code of a point-to-point message sent with the checker on: the datatype in the datatype field
 * ({@link TypeCode}), the kind field 0 as for every point-to-point message, the form bit (bit 13, which a
 * collective header sets only together with a kind) set as the mark, in bits 14-30 the sender's call site as
 * an index into the sending rank's table of sites (the checker sends each site's text to a destination once, before
 * the first message that names it), and bit 31 left to the synchronous mode ({@link SyncSend#SYNC}: a synchronous
 * send, and under {@code --check=strict} every blocking send). An unchecked message's code is the bare datatype, so
 * a checked job carries no extra byte: the site travels in bits that are 0 otherwise. Stateless.
 */
public final class SiteCode {
    /** The largest site index a code carries; later sites are carried as this one ("unknown"). */
    public static final int MAX_SITE = (1 << 17) - 1;
    private static final int MARK = 1 << 13;
    private static final int SHIFT = 14;
    private static final int KIND_AND_MARK = 0x1F << 8 | MARK;

    private SiteCode() {
    }

    /**
     * @param datatype the datatype ordinal
     * @param site     the sender's site index, 0..{@link #MAX_SITE}
     * @return the code of a checked point-to-point message
     */
    public static int mark(final int datatype, final int site) {
        return datatype | MARK | Math.min(site, MAX_SITE) << SHIFT;
    }

    /**
     * @param code a type code
     * @return whether it is a checked point-to-point message's
     */
    public static boolean isMarked(final int code) {
        return MARK == (code & KIND_AND_MARK);
    }

    /**
     * @param code a marked code
     * @return the sender's site index
     */
    public static int site(final int code) {
        return code >>> SHIFT & MAX_SITE;
    }

    /**
     * @param code a type code
     * @return the code without the site and the synchronous bit (the bare datatype) if marked, else the code itself
     */
    public static int plain(final int code) {
        return isMarked(code) ? code & TypeCode.DATATYPE_MASK : code;
    }
}
