package dev.tutti.cli;

import org.junit.jupiter.api.Test;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every image the README and the user guide show ({@code ![text](path)}) is in the repository and can be read. */
class DocImagesTest {
    private static final Pattern IMAGE = Pattern.compile("!\\[([^\\]]*)]\\(([^)\\s]+)\\)");

    @Test
    void shouldFindEveryImageThePagesShow() throws IOException {
        final List<String> seen = new ArrayList<>();
        for (final UserDocs.Page p : UserDocs.pages()) {
            final Path dir = UserDocs.ROOT.resolve(p.name()).getParent();
            final Matcher m = IMAGE.matcher(p.text());
            while (m.find()) {
                final Path image = dir.resolve(m.group(2)).normalize();
                seen.add(p.name() + ": " + m.group(2));
                assertFalse(m.group(1).isBlank(), p.name() + ": image " + m.group(2) + " has no text");
                assertTrue(Files.isRegularFile(image), p.name() + " shows " + m.group(2) + ", not found at " + image);
                if (image.toString().endsWith(".png")) {
                    final BufferedImage read = ImageIO.read(image.toFile());
                    assertNotNull(read, p.name() + ": " + image + " is no PNG");
                }
            }
        }
        assertTrue(seen.stream().anyMatch(s -> s.startsWith("README.md: ")), "the README shows a plot: " + seen);
    }
}
