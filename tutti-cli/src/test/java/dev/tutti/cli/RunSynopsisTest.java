package dev.tutti.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * {@code tutti run --help} and the user guide ({@code docs/running.md}) show one synopsis ({@link RunCommand#SYNOPSIS})
 * in one form: every option of the command is in it, with its value after a space as in the help's option list
 * ({@code -n N}), or after {@code =} where the value is optional ({@code --check[=MODE]}). The guide's block may wrap
 * its lines at other columns than the help; the words must be the same.
 */
class RunSynopsisTest {
    /** The marker line above the guide's synopsis block. */
    static final String MARKER = "<!-- synopsis: `tutti run --help`, checked by RunSynopsisTest -->";

    private static String help() {
        return TuttiCommand.newCommandLine().getSubcommands().get("run").getUsageMessage(CommandLine.Help.Ansi.OFF);
    }

    private static List<String> words(final String text) {
        return Arrays.stream(text.strip().split("\\s+")).toList();
    }

    @Test
    void shouldPrintTheSynopsisInTheHelp() {
        final String help = help();
        assertTrue(help.startsWith("Usage: " + String.join(System.lineSeparator(), RunCommand.SYNOPSIS)
            + System.lineSeparator()), help);
    }

    @Test
    void shouldShowTheHelpsSynopsisInTheGuide() throws IOException {
        final String page = UserDocs.page("docs/running.md").text();
        final int marker = page.indexOf(MARKER + "\n```\n");
        assertTrue(marker >= 0, "docs/running.md has no synopsis block under " + MARKER);
        final int start = marker + MARKER.length() + "\n```\n".length();
        final String block = page.substring(start, page.indexOf("\n```\n", start));
        assertEquals(words(String.join(" ", RunCommand.SYNOPSIS)), words(block),
            "docs/running.md's synopsis differs from tutti run --help's");
    }

    @Test
    void shouldNameEveryOptionInTheSynopsisAsTheOptionListDoes() {
        final String synopsis = String.join(" ", words(String.join(" ", RunCommand.SYNOPSIS)));
        final CommandLine run = TuttiCommand.newCommandLine().getSubcommands().get("run");
        final List<String> missing = new ArrayList<>();
        for (final OptionSpec o : run.getCommandSpec().options()) {
            if (o.usageHelp() || o.versionHelp()) {
                continue;
            }
            final String value;
            if (0 == o.arity().max()) {
                value = "";
            } else if (0 == o.arity().min()) {
                value = "[=" + o.paramLabel() + "]";
            } else {
                value = " " + o.paramLabel();
            }
            final boolean shown = Arrays.stream(o.names()).anyMatch(n -> Pattern.compile("[\\[(| ]"
                + Pattern.quote(n + value) + "[\\])|. ]").matcher(" " + synopsis + " ").find());
            if (!shown) {
                missing.add(String.join("/", o.names()) + value);
            }
        }
        assertTrue(missing.isEmpty(), "options the synopsis does not show as " + missing + ": " + synopsis);
    }

    @Test
    void shouldSeparateEveryRequiredValueByASpaceInTheHelp() {
        final String help = help();
        final Matcher equals = Pattern.compile("(?m)^\\s+(-[-\\w]+, )*-[-\\w]+=").matcher(help);
        assertFalse(equals.find(), "an option with '=' in the option list: " + (equals.find(0) ? equals.group()
            : "") + "\n" + help);
        assertTrue(help.contains("-n, -np, --np N"), help);
        assertTrue(help.contains("--check[=MODE]"), help);
        final String bench = TuttiCommand.newCommandLine().getSubcommands().get("bench")
            .getUsageMessage(CommandLine.Help.Ansi.OFF);
        assertTrue(bench.contains("-m [MIN:]MAX"), bench);
    }
}
