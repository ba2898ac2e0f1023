package mpi;

/** The MPI standard version this library follows ({@link MPI#getVersion()}): 3.1, as Open MPI 4.1. */
public final class Version {
    private final int version;
    private final int subVersion;

    Version(final int version, final int subVersion) {
        this.version = version;
        this.subVersion = subVersion;
    }

    /** @return the major version */
    public int getVersion() {
        return version;
    }

    /** @return the minor version */
    public int getSubVersion() {
        return subVersion;
    }
}
