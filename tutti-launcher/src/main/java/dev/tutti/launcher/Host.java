package dev.tutti.launcher;

/**
 * A host that ranks may be placed on, with its number of slots (ranks it takes per placement pass).
 *
 * @param name          the host name or address, as given (used for ssh and to tell local hosts apart)
 * @param slots         the number of slots, at least 1
 * @param explicitSlots whether the slot count was stated ({@code host:K} or {@code slots=K}); only hosts with
 *                      explicit slots refuse oversubscription, see {@link Placement}
 */
public record Host(String name, int slots, boolean explicitSlots) {
    /**
     * Validates the fields.
     *
     * @throws InvalidLaunchException if the name is blank or contains white space, or slots is below 1
     */
    public Host {
        if (null == name || name.isBlank() || name.chars().anyMatch(Character::isWhitespace)) {
            throw new InvalidLaunchException("host name='" + name + "' is invalid, expected a non-empty name without "
                + "white space");
        }
        if (slots < 1) {
            throw new InvalidLaunchException("host " + name + ": slots=" + slots + ", expected slots >= 1");
        }
    }

    /**
     * A host with one implicit slot.
     *
     * @param name the host name
     * @return the host
     */
    public static Host of(final String name) {
        return new Host(name, 1, false);
    }

    @Override
    public String toString() {
        return explicitSlots ? name + " slots=" + slots : name;
    }
}
