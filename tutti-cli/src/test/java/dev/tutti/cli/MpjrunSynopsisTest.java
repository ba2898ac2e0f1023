package dev.tutti.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * {@code tutti mpjrun --help} and the guide to MPJ Express programs ({@code docs/tutti-mpj.md}) show one synopsis
 * ({@link MpjrunCommand#SYNOPSIS}), and it names every option the help lists.
 */
class MpjrunSynopsisTest {
    /** The marker line above the guide's synopsis block. */
    static final String MARKER = "<!-- synopsis: `tutti mpjrun --help`, checked by MpjrunSynopsisTest -->";

    private static List<String> words(final String text) {
        return Arrays.stream(text.strip().split("\\s+")).toList();
    }

    @Test
    void shouldPrintTheSynopsisInTheHelpAndTheGuide() throws IOException {
        final String help = TuttiCommand.newCommandLine().getSubcommands().get("mpjrun")
            .getUsageMessage(CommandLine.Help.Ansi.OFF);
        assertTrue(help.startsWith("Usage: " + String.join(System.lineSeparator(), MpjrunCommand.SYNOPSIS)
            + System.lineSeparator()), help);
        final String page = UserDocs.page("docs/tutti-mpj.md").text();
        final int marker = page.indexOf(MARKER + "\n```\n");
        assertTrue(marker >= 0, "docs/tutti-mpj.md has no synopsis block under " + MARKER);
        final int start = marker + MARKER.length() + "\n```\n".length();
        assertEquals(words(String.join(" ", MpjrunCommand.SYNOPSIS)),
            words(page.substring(start, page.indexOf("\n```\n", start))),
            "docs/tutti-mpj.md's synopsis differs from tutti mpjrun --help's");
    }

    @Test
    void shouldNameEveryShownOptionInTheSynopsis() {
        final String synopsis = " " + String.join(" ", MpjrunCommand.SYNOPSIS) + " ";
        for (final OptionSpec o : TuttiCommand.newCommandLine().getSubcommands().get("mpjrun").getCommandSpec()
            .options()) {
            if (!o.usageHelp() && !o.versionHelp() && !o.hidden()) {
                assertTrue(Arrays.stream(o.names()).anyMatch(n -> synopsis.contains("[" + n)
                    || synopsis.contains("(" + n) || synopsis.contains("| " + n)), String.join("/", o.names())
                    + " is not in the synopsis: " + synopsis);
            }
        }
    }
}
