package io.privacygateway.image;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;

/** The repository's files as the deploy tests read them. */
final class RepoFiles {
    /**
     * {@code ${NAME}} or {@code ${NAME:-default}}, the substitution {@code gateway.yaml} files under
     * {@code deploy/} are written for.
     */
    static final Pattern VARIABLE = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)(:-([^}]*))?}");

    private RepoFiles() {}

    /** The repository root (set by the build; the module directory's grandparent otherwise). */
    static Path root() {
        String p = System.getProperty("privacygateway.repo.root");
        Path root = p != null ? Path.of(p) : Path.of("").toAbsolutePath().getParent().getParent();
        return root.toAbsolutePath().normalize();
    }

    static Path deploy(String relative) {
        return root().resolve("deploy").resolve(relative);
    }

    static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One YAML document (anchors and aliases resolved). */
    @SuppressWarnings("unchecked")
    static Map<String, Object> yaml(String text) {
        Object o = new Yaml(new LoaderOptions()).load(text);
        if (!(o instanceof Map<?, ?>)) {
            throw new AssertionError("not a YAML map: " + text.substring(0, Math.min(80, text.length())));
        }
        return (Map<String, Object>) o;
    }

    static Map<String, Object> yaml(Path file) {
        return yaml(read(file));
    }

    /** Every document of a multi-document YAML file, empty documents left out. */
    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> yamlDocuments(Path file) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (Object o : new Yaml(new LoaderOptions()).loadAll(read(file))) {
            if (o != null) {
                out.add((Map<String, Object>) o);
            }
        }
        return out;
    }

    /** The names of the variables {@code text} uses without a default. */
    static Set<String> requiredVariables(String text) {
        Set<String> names = new LinkedHashSet<>();
        Matcher m = VARIABLE.matcher(text);
        while (m.find()) {
            if (m.group(2) == null) {
                names.add(m.group(1));
            }
        }
        return names;
    }

    /** The names of all variables {@code text} uses. */
    static Set<String> variables(String text) {
        Set<String> names = new LinkedHashSet<>();
        Matcher m = VARIABLE.matcher(text);
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object o, String what) {
        if (!(o instanceof Map<?, ?>)) {
            throw new AssertionError(what + " is not a map: " + o);
        }
        return (Map<String, Object>) o;
    }

    @SuppressWarnings("unchecked")
    static List<Object> list(Object o, String what) {
        if (!(o instanceof List<?>)) {
            throw new AssertionError(what + " is not a list: " + o);
        }
        return (List<Object>) o;
    }
}
