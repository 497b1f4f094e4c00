package io.privacygateway.itests.support;

import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;

/**
 * The ACLs of {@code docs/acls.md}, as bindings: what each principal of a gateway deployment (topic prefix
 * {@code prefix}, application id {@code app}) may do. The operator (a super user) creates the topics and the ACLs;
 * everything not listed is denied ({@code allow.everyone.if.no.acl.found=false}).
 *
 * @param gateway the gateway's principal, e.g. {@code User:gateway}
 * @param device the devices' principal
 * @param registrar the principal that registers workloads
 * @param consumer the principal of answer consumers
 * @param consumerGroupPrefix the consumer groups answer consumers may use
 */
public record GatewayAcls(String prefix, String app, String gateway, String device, String registrar, String consumer,
        String consumerGroupPrefix) {

    public List<AclBinding> bindings() {
        List<AclBinding> b = new ArrayList<>();
        String local = prefix + "reports.local";
        String central = prefix + "reports.central";
        String workloads = prefix + "workloads";
        String answers = prefix + "answers";
        String rejections = prefix + "rejections";
        String synthetic = prefix + "synthetic";
        // the gateway: reads reports and workloads, writes answers, synthetic records and rejections ...
        for (String t : List.of(local, central)) {
            allow(b, gateway, ResourceType.TOPIC, t, PatternType.LITERAL, AclOperation.READ, AclOperation.DESCRIBE,
                    AclOperation.DESCRIBE_CONFIGS);
        }
        allow(b, gateway, ResourceType.TOPIC, workloads, PatternType.LITERAL, AclOperation.READ, AclOperation.DESCRIBE);
        for (String t : List.of(answers, synthetic, rejections)) {
            allow(b, gateway, ResourceType.TOPIC, t, PatternType.LITERAL, AclOperation.WRITE, AclOperation.DESCRIBE);
        }
        // ... owns every topic named after its application id (partials, clock, deployment, changelogs) ...
        allow(b, gateway, ResourceType.TOPIC, app + "-", PatternType.PREFIXED, AclOperation.CREATE,
                AclOperation.READ, AclOperation.WRITE, AclOperation.DESCRIBE, AclOperation.DESCRIBE_CONFIGS);
        // ... its consumer group, and its transactional ids (exactly-once)
        allow(b, gateway, ResourceType.GROUP, app, PatternType.LITERAL, AclOperation.READ, AclOperation.DESCRIBE);
        allow(b, gateway, ResourceType.TRANSACTIONAL_ID, app + "-", PatternType.PREFIXED, AclOperation.WRITE,
                AclOperation.DESCRIBE);
        // devices: write reports, nothing else
        for (String t : List.of(local, central)) {
            allow(b, device, ResourceType.TOPIC, t, PatternType.LITERAL, AclOperation.WRITE, AclOperation.DESCRIBE);
        }
        // the registrar: reads (for version checks) and writes the workloads topic
        allow(b, registrar, ResourceType.TOPIC, workloads, PatternType.LITERAL, AclOperation.READ, AclOperation.WRITE,
                AclOperation.DESCRIBE, AclOperation.DESCRIBE_CONFIGS);
        // answer consumers: read answers and synthetic records, in groups of their own prefix
        for (String t : List.of(answers, synthetic)) {
            allow(b, consumer, ResourceType.TOPIC, t, PatternType.LITERAL, AclOperation.READ, AclOperation.DESCRIBE);
        }
        allow(b, consumer, ResourceType.GROUP, consumerGroupPrefix, PatternType.PREFIXED, AclOperation.READ);
        return b;
    }

    private static void allow(List<AclBinding> out, String principal, ResourceType type, String name,
            PatternType pattern, AclOperation... ops) {
        for (AclOperation op : ops) {
            out.add(new AclBinding(new ResourcePattern(type, name, pattern),
                    new AccessControlEntry(principal, "*", op, AclPermissionType.ALLOW)));
        }
    }
}
