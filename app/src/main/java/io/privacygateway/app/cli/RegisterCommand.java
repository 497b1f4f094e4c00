package io.privacygateway.app.cli;

import io.privacygateway.app.run.GatewayConfigFile;
import io.privacygateway.client.GatewayTopics;
import io.privacygateway.client.WorkloadFiles;
import io.privacygateway.client.WorkloadRegistrar;
import io.privacygateway.mechanisms.workload.CanonicalForm;
import io.privacygateway.mechanisms.workload.WorkloadSpec;
import io.privacygateway.schemas.registry.SchemaRegistryClient;
import io.privacygateway.topology.service.GatewayService;
import io.privacygateway.topology.GatewaySettings;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code privacy-gateway register}: resolves workload files (the planner picks {@code auto}) and publishes
 * them to the gateway's compacted workloads topic, with the connection settings of {@code gateway.yaml}.
 */
@Command(name = "register", mixinStandardHelpOptions = true,
        description = "Resolves workload files and publishes them to the gateway's workloads topic (versions only"
                + " move forward; re-registering an identical spec is a no-op).")
public final class RegisterCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    GatewayConnectionOptions connection = new GatewayConnectionOptions();

    @Option(names = "--workload", required = true, paramLabel = "FILE", description = "A workload file (repeatable).")
    List<Path> workloads;

    /**
     * Checks every workload file, then that the brokers and the registry answer within {@code --connect-timeout}
     * (else one line naming the address: exit code 1), then creates missing topics and publishes.
     */
    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        Duration connectTimeout = connection.connectTimeout();
        GatewaySettings s = GatewayConfigFile.load(connection.config).settings();
        List<WorkloadSpec> declared = new ArrayList<>();
        for (Path p : workloads) {
            declared.add(WorkloadFiles.load(p)); // every file is checked before anything is published
        }
        RunCommand.Preflight.kafka(s, connectTimeout);
        RunCommand.Preflight.registry(s, connectTimeout);
        GatewayService.ensureTopics(s); // the same topics the gateway creates, if it has not run yet
        Map<String, Object> kafka = new HashMap<>(s.kafkaProperties());
        kafka.put("bootstrap.servers", s.bootstrapServers());
        Map<String, Object> registryConfig = new HashMap<>(s.registryProperties());
        registryConfig.put("schema.registry.url", s.schemaRegistryUrl());
        SchemaRegistryClient registry = SchemaRegistryClient.fromConfigs(registryConfig);
        try (WorkloadRegistrar r = WorkloadRegistrar.create(kafka, registry, new GatewayTopics(s.gateway().topicPrefix()))) {
            for (WorkloadSpec d : declared) {
                WorkloadSpec resolved = r.register(d);
                out.printf("registered %s v%d: %s mode, mechanism %s%s, content hash %s%n", resolved.id(),
                        resolved.version(), resolved.mode().wireName(), resolved.mechanism().wireName(),
                        d.mechanism().equals(resolved.mechanism()) ? "" : " (chosen by the planner)",
                        CanonicalForm.contentHash(resolved));
            }
        }
        return 0;
    }
}
