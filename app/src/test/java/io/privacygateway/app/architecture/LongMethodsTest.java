package io.privacygateway.app.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.javaparser.ParserConfiguration;
import com.github.javaparser.StaticJavaParser;
import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.github.javaparser.ast.body.ConstructorDeclaration;
import com.github.javaparser.ast.body.MethodDeclaration;
import com.github.javaparser.ast.body.TypeDeclaration;
import com.github.javaparser.ast.stmt.BlockStmt;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No method or constructor of the production code (every {@code src/main/java} tree of the repository: all modules,
 * benchmarks, demo, simulator and deploy tools included) is longer than {@link #MAX_LINES} lines (issue 32: "the longest
 * method in main under 80 lines").
 *
 * <p>How a length is counted: the lines of the body block, from the line of its opening brace to the line of its
 * closing brace, both excluded, as JavaParser reports their positions; blank lines and comments inside the body count
 * too, the signature, annotations and javadoc do not. An abstract or interface method has no body and length 0. A
 * compact record constructor counts like any constructor; lambdas and anonymous classes count as part of the method
 * that holds them.
 *
 * <p>The methods still longer are listed in {@link #KNOWN} (a ratchet, like {@link PackageCyclesTest}): a listed
 * method may only shrink below its recorded length, a method not listed that grows over the limit fails, and a listed
 * one that is no longer over the limit (or gone) fails too, so that it leaves the list.
 */
class LongMethodsTest {
    /** The most body lines a method or constructor may have. */
    static final int MAX_LINES = 80;

    /** The methods still over the limit ({@code module:Class.method} → its body lines when listed). */
    private static final Map<String, Integer> KNOWN = Map.of();

    @Test
    void noMethodOfTheProductionCodeIsLongerThanTheLimit() throws IOException {
        Map<String, Integer> tooLong = new TreeMap<>();
        List<Path> roots = sourceRoots();
        assertThat(roots).as("the production source trees").hasSizeGreaterThan(8);
        for (Path root : roots) {
            try (Stream<Path> files = Files.walk(root)) {
                for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".java"))::iterator) {
                    measure(root, f, tooLong);
                }
            }
        }
        StringBuilder report = new StringBuilder();
        tooLong.entrySet().stream().sorted(Map.Entry.<String, Integer>comparingByValue().reversed())
                .forEach(e -> report.append("\n  ").append(e.getValue()).append(" lines: ").append(e.getKey()));
        System.out.println("methods over " + MAX_LINES + " body lines:" + report);
        List<String> grown = new ArrayList<>();
        tooLong.forEach((name, lines) -> {
            Integer known = KNOWN.get(name);
            if (known == null || lines > known) {
                grown.add(name + " (" + lines + " lines" + (known == null ? "" : ", listed at " + known) + ")");
            }
        });
        assertThat(grown).as("methods longer than %d body lines (split them; counted as this class's javadoc says)",
                MAX_LINES).isEmpty();
        assertThat(tooLong.keySet()).as("listed long methods that are now short or gone: remove them from KNOWN")
                .containsAll(KNOWN.keySet());
    }

    private static void measure(Path root, Path file, Map<String, Integer> tooLong) {
        CompilationUnit cu;
        try {
            cu = StaticJavaParser.parse(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Path repo = Path.of("").toAbsolutePath().getParent();
        String module = repo.relativize(root.getParent().getParent().getParent()).toString();
        for (CallableDeclaration<?> c : cu.findAll(CallableDeclaration.class)) {
            Optional<BlockStmt> body = c instanceof MethodDeclaration m ? m.getBody()
                    : Optional.of(((ConstructorDeclaration) c).getBody());
            int lines = body.flatMap(BlockStmt::getRange).map(r -> r.end.line - r.begin.line - 1).orElse(0);
            if (lines > MAX_LINES) {
                String owner = c.findAncestor(TypeDeclaration.class)
                        .map(t -> (String) t.getFullyQualifiedName().orElse(t.getNameAsString())).orElse("?");
                tooLong.merge(module + ":" + owner.substring(owner.lastIndexOf('.') + 1) + "." + c.getNameAsString(),
                        lines, Math::max);
            }
        }
    }

    /** Every {@code src/main/java} of the repository (the test runs in module app, one level below the root). */
    static List<Path> sourceRoots() throws IOException {
        Path repo = Path.of("").toAbsolutePath().getParent();
        StaticJavaParser.getParserConfiguration().setLanguageLevel(ParserConfiguration.LanguageLevel.JAVA_17)
                .setAttributeComments(false);
        try (Stream<Path> dirs = Files.walk(repo, 5)) {
            return dirs.filter(Files::isDirectory).filter(d -> d.endsWith(Path.of("src", "main", "java")))
                    .filter(d -> !d.toString().contains("node_modules") && !d.toString().contains("/target/"))
                    .sorted().toList();
        }
    }
}
