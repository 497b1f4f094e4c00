package io.privacygateway.app;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point of the {@code privacy-gateway} command line. */
@Command(name = "privacy-gateway", mixinStandardHelpOptions = true, version = "privacy-gateway 0.1.0",
        description = "A streaming privacy gateway: local and central differential privacy on Apache Kafka.",
        subcommands = {})
public final class Main implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The configured command line (also used by tests). */
    public static CommandLine commandLine() {
        return new CommandLine(new Main());
    }

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}
