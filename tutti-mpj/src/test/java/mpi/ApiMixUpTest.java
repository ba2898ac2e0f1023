package mpi;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A class path with both mpi APIs (tutti-mpi's marker beside tutti-mpj's) is refused at Init, naming both. */
class ApiMixUpTest {

    @Test
    void shouldRefuseAClassPathWithTwoMpiApis(@TempDir final Path dir) throws IOException {
        final Path marker = dir.resolve("META-INF/tutti/mpi-api.properties");
        Files.createDirectories(marker.getParent());
        Files.writeString(marker, "api=Open MPI 4.1 Java bindings\nmodule=tutti-mpi\n");
        try (URLClassLoader both = new URLClassLoader(new URL[] {dir.toUri().toURL()},
            MPI.class.getClassLoader())) {
            final MPIException e = assertThrows(MPIException.class, () -> MPI.checkOneApi(both));
            assertTrue(e.getMessage().contains("tutti-mpi (") && e.getMessage().contains("tutti-mpj ("),
                e.getMessage());
        }
        MPI.checkOneApi(MPI.class.getClassLoader()); // tutti-mpj alone is fine
    }
}
