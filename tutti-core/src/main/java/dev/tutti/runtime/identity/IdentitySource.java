package dev.tutti.runtime.identity;

import dev.tutti.TuttiException;

import java.util.Map;

/** One launcher's variables, read into an {@link Identity}. */
interface IdentitySource {
    /** @return the launcher's name, as {@link Identity#source()} */
    String name();

    /**
     * Reads the identity.
     *
     * @param env the environment
     * @return the identity, or null if none of this launcher's variables is set
     * @throws TuttiException of class {@code ARG} if some are set but they are incomplete or inconsistent, naming
     *                        the variables and their values
     */
    Identity detect(Map<String, String> env);
}
