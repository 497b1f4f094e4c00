package io.privacygateway.mechanisms.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The golden vectors of {@code docs/wire-format.md}: every row a golden test computes must appear verbatim in the
 * document. With the system property {@code golden.print} the rows are printed instead (to write a new section).
 */
public final class WireFormatDocument {
    /** The document, from a module's directory. */
    public static final Path PATH = Path.of("..", "docs", "wire-format.md");

    private WireFormatDocument() {}

    /** Asserts that every row appears in the document ({@code section} names it in a failure). */
    public static void assertContainsAll(String section, List<String> rows) throws IOException {
        if (Boolean.getBoolean("golden.print")) {
            rows.forEach(System.out::println);
            return;
        }
        String doc = Files.readString(PATH);
        for (String r : rows) {
            assertThat(doc).as("docs/wire-format.md %s", section).contains(r);
        }
    }
}
