package dev.tutti.cli;

import java.util.List;

/**
 * A command that runs a main class or a jar ({@code tutti run}, {@code tutti mpjrun}): what
 * {@link RunCommand.JarAndArgs} fills in when {@code -jar JAR} takes every later word as the program's.
 */
interface JarProgram {
    /** @param jar the program's jar */
    void jar(String jar);

    /** @return the program's words, modifiable: its main class (without a jar) and its arguments */
    List<String> program();
}
