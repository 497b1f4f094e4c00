package io.privacygateway.app.cli;

import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * The options of the commands that connect to the gateway's cluster and registry (run, register), declared once: a
 * picocli mixin ({@code @Mixin GatewayConnectionOptions connection = new GatewayConnectionOptions();}).
 */
final class GatewayConnectionOptions {
    @Option(names = "--config", required = true, paramLabel = "gateway.yaml",
            description = "The gateway configuration (brokers, registry, topic prefix, client security settings).")
    Path config;

    @Option(names = "--connect-timeout", defaultValue = "30s", paramLabel = "DURATION",
            converter = RunCommand.DurationConverter.class,
            description = "How long the Kafka brokers and the schema registry may take to answer before the command"
                    + " gives up (exit code 1); e.g. 500ms, 30s, 2m (default ${DEFAULT-VALUE}).")
    Duration connectTimeout;

    /**
     * {@code --connect-timeout}.
     *
     * @throws IllegalArgumentException naming {@code --connect-timeout} when it is not positive
     */
    Duration connectTimeout() {
        if (connectTimeout.isZero() || connectTimeout.isNegative()) {
            throw new IllegalArgumentException("--connect-timeout must be > 0, got " + RunCommand.format(connectTimeout));
        }
        return connectTimeout;
    }
}
