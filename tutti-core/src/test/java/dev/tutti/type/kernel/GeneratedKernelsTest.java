package dev.tutti.type.kernel;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The per-type kernels are generated; this fails when someone edits one by hand or forgets to regenerate. */
@Tag("build")
@Timeout(120)
class GeneratedKernelsTest {
    @Test
    void shouldMatchTheTemplate() throws IOException, InterruptedException {
        final Path module = Path.of("").toAbsolutePath();
        assertTrue(Files.exists(module.resolve("src/main/scripts/KernelGen.java")),
            "tests must run in the tutti-core directory, ran in " + module);
        final Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        final Process p = new ProcessBuilder(java.toString(), "src/main/scripts/KernelGen.java", "--check")
            .directory(module.toFile())
            .redirectErrorStream(true)
            .start();
        final String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(100, TimeUnit.SECONDS), "KernelGen did not finish");
        assertEquals(0, p.exitValue(), output);
    }
}
