package io.privacygateway.harness.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

/**
 * {@code deploy/kafka/acls.txt}, the ACLs the Compose stack's {@code kafka-acls} service applies, read as Kafka
 * {@link AclBinding}s: one line per principal, resource type ({@code topic}, {@code group},
 * {@code transactional-id}), pattern ({@code literal}, {@code prefixed}), comma-separated names and comma-separated
 * operations (kafka-acls.sh's names: {@code Read}, {@code DescribeConfigs}, ...); {@code #} starts a comment.
 * Every line allows (kafka-acls.sh {@code --allow-principal}) from any host. A malformed line fails naming it.
 * One file, read by the Compose stack, the deploy checks ({@code ComposeAclsTest}) and the integration test that runs
 * the gateway under it ({@code AclIT}).
 */
public final class AclFile {
    /** The file's path in the repository. */
    public static final String PATH = "deploy/kafka/acls.txt";

    private AclFile() {}

    /** The bindings of the repository's file ({@code repoRoot}: the repository's root directory). */
    public static List<AclBinding> read(Path repoRoot) {
        try {
            return parse(Files.readString(repoRoot.resolve(PATH)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The bindings of a text in the file's format. */
    public static List<AclBinding> parse(String text) {
        List<AclBinding> out = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            int hash = line.indexOf('#');
            String content = (hash < 0 ? line : line.substring(0, hash)).trim();
            if (content.isEmpty()) {
                continue;
            }
            String[] f = content.split("\\s+");
            String where = "acls.txt:" + (i + 1);
            if (f.length != 5) {
                throw new IllegalArgumentException(where + ": expected 5 fields, got " + f.length);
            }
            for (String name : f[3].split(",")) {
                for (String op : f[4].split(",")) {
                    out.add(binding(where, f[0], f[1], f[2], name, op));
                }
            }
        }
        return out;
    }

    /** One binding from kafka-acls.sh's words ({@code --topic}, {@code --resource-pattern-type}, {@code --operation}). */
    public static AclBinding binding(String where, String principal, String resource, String pattern, String name, String op) {
        ResourceType type = switch (resource) {
            case "topic" -> ResourceType.TOPIC;
            case "group" -> ResourceType.GROUP;
            case "transactional-id" -> ResourceType.TRANSACTIONAL_ID;
            default -> throw new IllegalArgumentException(where + ": unknown resource " + resource);
        };
        PatternType patternType = switch (pattern) {
            case "literal" -> PatternType.LITERAL;
            case "prefixed" -> PatternType.PREFIXED;
            default -> throw new IllegalArgumentException(where + ": unknown pattern " + pattern);
        };
        // kafka-acls.sh's operation names are CamelCase (DescribeConfigs); the enum's are DESCRIBE_CONFIGS
        AclOperation operation = AclOperation.fromString(op.replaceAll("([a-z])([A-Z])", "$1_$2").toUpperCase(Locale.ROOT));
        if (operation == AclOperation.UNKNOWN || operation == AclOperation.ANY) {
            throw new IllegalArgumentException(where + ": unknown operation " + op);
        }
        if (!principal.startsWith("User:")) {
            throw new IllegalArgumentException(where + ": a principal is User:<name>, got " + principal);
        }
        return new AclBinding(new ResourcePattern(type, name, patternType),
                new AccessControlEntry(principal, "*", operation, AclPermissionType.ALLOW));
    }
}
