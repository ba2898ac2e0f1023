package dev.tutti.runtime;

/**
 * Tunables, each a system property (or the environment variable of the same name upper-cased with dots as
 * underscores, e.g. {@code TUTTI_EAGER_LIMIT}) read once, with a documented default.
 */
public final class Configuration {
    /** Largest message sent eagerly (bytes); larger ones use rendezvous. */
    public static final String EAGER_LIMIT_PROP_NAME = "tutti.eager.limit";
    /** Default of {@link #EAGER_LIMIT_PROP_NAME}: 64 KiB. */
    public static final int EAGER_LIMIT_DEFAULT = 64 * 1024;

    /** Idle strategy: iterations that spin. */
    public static final String IDLE_SPINS_PROP_NAME = "tutti.idle.spins";
    /** Default of {@link #IDLE_SPINS_PROP_NAME}. */
    public static final int IDLE_SPINS_DEFAULT = 1_000;
    /** Idle strategy: iterations that yield after spinning. */
    public static final String IDLE_YIELDS_PROP_NAME = "tutti.idle.yields";
    /** Default of {@link #IDLE_YIELDS_PROP_NAME}. */
    public static final int IDLE_YIELDS_DEFAULT = 5_000;
    /** Idle strategy: longest park in microseconds. */
    public static final String IDLE_MAX_PARK_US_PROP_NAME = "tutti.idle.maxParkUs";
    /** Default of {@link #IDLE_MAX_PARK_US_PROP_NAME}. */
    public static final int IDLE_MAX_PARK_US_DEFAULT = 1_000;

    private Configuration() {
    }

    /** @return the eager limit in bytes */
    public static int eagerLimit() {
        return intValue(EAGER_LIMIT_PROP_NAME, EAGER_LIMIT_DEFAULT);
    }

    /** @return the idle strategy built from the idle properties */
    public static IdleStrategy idleStrategy() {
        return new BackoffIdleStrategy(intValue(IDLE_SPINS_PROP_NAME, IDLE_SPINS_DEFAULT),
            intValue(IDLE_YIELDS_PROP_NAME, IDLE_YIELDS_DEFAULT), 1_000,
            1_000L * intValue(IDLE_MAX_PARK_US_PROP_NAME, IDLE_MAX_PARK_US_DEFAULT));
    }

    /**
     * Returns the idle strategy for ranks that outnumber the cores (embedded jobs larger than the machine): it
     * spins only briefly, because a spinning rank takes the core from the rank it waits for.
     *
     * @return the strategy
     */
    public static IdleStrategy oversubscribedIdleStrategy() {
        return new BackoffIdleStrategy(20, 20, 1_000,
            1_000L * intValue(IDLE_MAX_PARK_US_PROP_NAME, IDLE_MAX_PARK_US_DEFAULT));
    }

    /**
     * Reads a setting: the system property, else the environment variable derived from its name, else null.
     *
     * @param propName the property name
     * @return the value or null
     */
    public static String value(final String propName) {
        final String p = System.getProperty(propName);
        if (null != p) {
            return p;
        }
        return System.getenv(propName.toUpperCase(java.util.Locale.ROOT).replace('.', '_'));
    }

    /**
     * Reads an integer setting.
     *
     * @param propName     the property name
     * @param defaultValue the value if unset
     * @return the value
     * @throws IllegalArgumentException if set to something that is not an integer
     */
    public static int intValue(final String propName, final int defaultValue) {
        final String v = value(propName);
        if (null == v || v.isBlank()) {
            return defaultValue;
        }
        try {
            return Integer.parseInt(v.trim());
        } catch (final NumberFormatException e) {
            throw new IllegalArgumentException("setting " + propName + "=" + v + " is not an integer", e);
        }
    }
}
