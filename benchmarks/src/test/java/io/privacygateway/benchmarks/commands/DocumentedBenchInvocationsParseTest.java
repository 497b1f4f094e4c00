package io.privacygateway.benchmarks.commands;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.privacygateway.app.Main;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;

/**
 * Every {@code bench <command> --option …} invocation written in README.md and docs/ (Markdown and the recorded
 * outputs) still parses on today's command line: no unknown option, every value converts. Parsed only, never run.
 */
class DocumentedBenchInvocationsParseTest {
    private static final Pattern INVOCATION = Pattern.compile("\\bbench ([a-z][a-z-]*)");

    @Test
    void everyDocumentedBenchInvocationParses() throws IOException {
        Map<String, CommandLine> bench = Main.commandLine().getSubcommands().get("bench").getSubcommands();
        List<List<String>> invocations = documentedInvocations(bench);
        assertThat(invocations).as("invocations found in README.md and docs/").hasSizeGreaterThan(30);
        List<String> failures = new ArrayList<>();
        for (List<String> args : invocations) {
            CommandLine cl = Main.commandLine();
            cl.setErr(new PrintWriter(new StringWriter()));
            List<String> full = new ArrayList<>(List.of("bench"));
            full.addAll(args);
            try {
                cl.parseArgs(full.toArray(String[]::new));
            } catch (ParameterException e) {
                failures.add(String.join(" ", full) + ": " + e.getMessage());
            }
        }
        assertThat(failures).as("documented invocations that no longer parse").isEmpty();
    }

    @Test
    void anUnknownOptionFailsTheParse() {
        CommandLine cl = Main.commandLine();
        cl.setErr(new PrintWriter(new StringWriter()));
        assertThatThrownBy(
                () -> cl.parseArgs("bench", "accuracy", "--trials", "3", "--no-such-option"))
                .isInstanceOf(ParameterException.class);
    }

    @Test
    void theExtractionReadsOptionsValuesAndPlaceholders() {
        Map<String, CommandLine> bench = Main.commandLine().getSubcommands().get("bench").getSubcommands();
        assertThat(invocations("`bin/privacy-gateway bench accuracy --workloads \"cdf k=128\" --epsilons 4 --trials 10`,"
                + " then", bench)).containsExactly(List.of("accuracy", "--workloads", "cdf k=128", "--epsilons", "4",
                        "--trials", "10"));
        assertThat(invocations("bench accuracy --mode central: Zipf(1.1) data", bench))
                .containsExactly(List.of("accuracy", "--mode", "central"));
        assertThat(invocations("bench accuracy [--mode local|central] [--n 100000] [--out cells.csv]", bench))
                .containsExactly(List.of("accuracy", "--mode", "local", "--n", "100000", "--out", "cells.csv"));
        assertThat(invocations("# bench accuracy --trials 40 --workloads W --epsilons E, for the rows", bench))
                .containsExactly(List.of("accuracy", "--trials", "40", "--workloads", "1", "--epsilons", "1"));
        assertThat(invocations("bench synthetic --ds 16,20 --trials 2 --no-haar # 18 cells", bench))
                .containsExactly(List.of("synthetic", "--ds", "16,20", "--trials", "2", "--no-haar"));
        assertThat(invocations("the bench processes and a test run", bench)).isEmpty();
        assertThat(invocations("(`bench accuracy --workloads` picks rows)", bench))
                .containsExactly(List.of("accuracy", "--workloads", "1"));
    }

    /** The invocations in README.md and every file under docs/ (its arguments after {@code bench}). */
    private static List<List<String>> documentedInvocations(Map<String, CommandLine> bench) throws IOException {
        Path root = repositoryRoot();
        List<Path> files = new ArrayList<>(List.of(root.resolve("README.md")));
        try (Stream<Path> docs = Files.walk(root.resolve("docs"))) {
            docs.filter(Files::isRegularFile).filter(p -> p.toString().endsWith(".md") || p.toString().endsWith(".txt"))
                    .sorted().forEach(files::add);
        }
        List<List<String>> out = new ArrayList<>();
        for (Path f : files) {
            for (String line : Files.readAllLines(f)) {
                out.addAll(invocations(line, bench));
            }
        }
        return out;
    }

    /**
     * The {@code bench} invocations on one line of documentation: the command, then its options while they follow one
     * another (a value after each option that takes one); usage brackets and alternatives ({@code [--mode
     * local|central]}) are read as their first alternative, placeholders ({@code W}, {@code E}) and a missing value
     * (an option named in prose) as {@code 1}, and
     * prose after the invocation (a comma, colon, comment or parenthesis) is left out.
     */
    static List<List<String>> invocations(String line, Map<String, CommandLine> bench) {
        List<List<String>> out = new ArrayList<>();
        Matcher m = INVOCATION.matcher(line);
        while (m.find()) {
            CommandLine sub = bench.get(m.group(1));
            if (sub == null) {
                continue;
            }
            List<String> args = new ArrayList<>(List.of(m.group(1)));
            List<String> tokens = tokens(line.substring(m.end()).split("`| #|\\(| \\|", 2)[0]);
            for (int i = 0; i < tokens.size(); i++) {
                String option = strip(tokens.get(i));
                if (!option.startsWith("--")) {
                    break;
                }
                args.add(option);
                OptionSpec spec = sub.getCommandSpec().findOption(option);
                boolean takesValue = spec == null || spec.arity().max() > 0;
                if (!takesValue || ends(tokens.get(i))) {
                    if (ends(tokens.get(i))) {
                        break;
                    }
                    continue;
                }
                if (i + 1 == tokens.size()) { // the option named in prose, without a value
                    args.add("1");
                    break;
                }
                String raw = tokens.get(++i);
                String value = strip(raw).split("\\|")[0];
                args.add(value.matches("[A-Z]") ? "1" : value);
                if (ends(raw)) {
                    break;
                }
            }
            out.add(args);
        }
        return out;
    }

    /** Whether a token ends the invocation (prose follows it). */
    private static boolean ends(String token) {
        return token.endsWith(",") || token.endsWith(":") || token.endsWith(";") || token.endsWith(")");
    }

    private static String strip(String token) {
        return token.replaceAll("^\\[", "").replaceAll("[\\],:;)]+$", "");
    }

    /** Splits on blanks, keeping double-quoted strings (without the quotes) as one token. */
    private static List<String> tokens(String s) {
        List<String> out = new ArrayList<>();
        Matcher m = Pattern.compile("\"([^\"]*)\"([,:;)]?)|(\\S+)").matcher(s);
        while (m.find()) {
            out.add(m.group(3) != null ? m.group(3) : m.group(1) + m.group(2));
        }
        return out;
    }

    private static Path repositoryRoot() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !(Files.exists(p.resolve("README.md")) && Files.isDirectory(p.resolve("docs")))) {
            p = p.getParent();
        }
        assertThat(p).as("the repository root above " + Path.of("").toAbsolutePath()).isNotNull();
        return p;
    }
}
