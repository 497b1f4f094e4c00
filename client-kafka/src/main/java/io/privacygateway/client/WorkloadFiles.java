package io.privacygateway.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.privacygateway.mechanisms.workload.InvalidWorkloadException;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.mechanisms.workload.WorkloadSpecParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;

/**
 * Reads workload declarations from YAML or JSON files (JSON is valid YAML, so one parser reads both) into
 * validated {@link WorkloadSpec}s. The only way the project turns a workload file into a spec: the
 * command line, the registrar and the demo all use it.
 *
 * <p>Guarantee: a spec is returned only if every field validates ({@link WorkloadSpecParser}); otherwise an
 * {@link InvalidWorkloadException} names the field and the bad value (unknown fields are errors too). The
 * returned spec may still name {@code mechanism: auto}; {@link WorkloadRegistrar#register} resolves it.
 */
public final class WorkloadFiles {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private WorkloadFiles() {}

    /**
     * Loads and validates a workload file.
     *
     * @throws InvalidWorkloadException naming the field and value if the declaration is invalid, or
     *     {@code (file)} if the file cannot be read or parsed
     */
    public static WorkloadSpec load(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (NoSuchFileException e) {
            throw new InvalidWorkloadException("(file)", "no such file: " + file);
        } catch (IOException e) {
            throw new InvalidWorkloadException("(file)", "cannot read " + file + ": " + e.getMessage());
        }
        return parse(text, file.toString());
    }

    /** Parses and validates workload text (YAML or JSON). */
    public static WorkloadSpec parse(String text, String source) {
        Object tree;
        try {
            tree = YAML.readValue(text, Object.class);
        } catch (JsonProcessingException e) {
            throw new InvalidWorkloadException("(file)", source + " is not valid YAML/JSON: "
                    + e.getOriginalMessage() + (e.getLocation() == null ? ""
                            : " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr()));
        }
        if (!(tree instanceof Map<?, ?> map)) {
            throw new InvalidWorkloadException("(root)", source + " must contain a map of fields, got "
                    + (tree == null ? "nothing" : tree.getClass().getSimpleName()));
        }
        return WorkloadSpecParser.parse(map);
    }
}
