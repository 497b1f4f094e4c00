package io.privacygateway.client;

/**
 * The names of the gateway's topics as a client sees them: {@code <prefix>workloads},
 * {@code <prefix>reports.local}, {@code <prefix>reports.central}, {@code <prefix>answers} and
 * {@code <prefix>rejections}. They must match the gateway's {@code GatewayConfig.topicPrefix} (the
 * client module does not depend on the gateway's topology, so the naming rule is repeated here and a
 * test checks that both agree).
 *
 * @param prefix the topic prefix ({@code [A-Za-z0-9._-]*}; {@code "pgw."} by default)
 */
public record GatewayTopics(String prefix) {
    /** The gateway's default prefix. */
    public static final String DEFAULT_PREFIX = "pgw.";

    public GatewayTopics {
        if (prefix == null || !prefix.matches("[A-Za-z0-9._-]*")) {
            throw new IllegalArgumentException("prefix must match [A-Za-z0-9._-]*, got " + prefix);
        }
    }

    /** The topics of a gateway with the default prefix {@value #DEFAULT_PREFIX}. */
    public static GatewayTopics defaults() {
        return new GatewayTopics(DEFAULT_PREFIX);
    }

    /** The compacted workloads topic (key = workload id, value = {@code WorkloadSpecRecord}). */
    public String workloads() {
        return prefix + "workloads";
    }

    /** Local-mode reports (key = device id, value = {@code LocalReport}). */
    public String localReports() {
        return prefix + "reports.local";
    }

    /** Central-mode reports (key = device id, value = {@code CentralReport}). */
    public String centralReports() {
        return prefix + "reports.central";
    }

    /** Published window answers ({@code WindowAnswer}). */
    public String answers() {
        return prefix + "answers";
    }

    /** Rejected reports ({@code Rejection}). */
    public String rejections() {
        return prefix + "rejections";
    }
}
