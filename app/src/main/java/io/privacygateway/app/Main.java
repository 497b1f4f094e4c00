package io.privacygateway.app;

import io.privacygateway.app.cli.AuditCommand;
import io.privacygateway.app.cli.BenchCommand;
import io.privacygateway.app.cli.DemoCommand;
import io.privacygateway.app.cli.PlanCommand;
import io.privacygateway.app.cli.RegisterCommand;
import io.privacygateway.app.cli.RunCommand;
import io.privacygateway.app.cli.SimulateCommand;
import io.privacygateway.mechanisms.workload.InvalidWorkloadException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point of the {@code privacy-gateway} command line. */
@Command(name = "privacy-gateway", mixinStandardHelpOptions = true, version = "privacy-gateway 0.1.0",
        description = "A streaming privacy gateway: local and central differential privacy on Apache Kafka.",
        subcommands = {DemoCommand.class, SimulateCommand.class, PlanCommand.class, AuditCommand.class,
            BenchCommand.class, RunCommand.class, RegisterCommand.class})
public final class Main implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The configured command line (also used by tests). */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Main());
        cl.setExecutionExceptionHandler((ex, cmd, parseResult) -> {
            if (ex instanceof InvalidWorkloadException || ex instanceof IllegalArgumentException
                    || ex instanceof IllegalStateException) {
                cmd.getErr().println("privacy-gateway: error: " + ex.getMessage());
                return 2;
            }
            if (ex instanceof java.nio.file.NoSuchFileException nf) {
                cmd.getErr().println("privacy-gateway: error: no such file: " + nf.getFile());
                return 2;
            }
            throw ex;
        });
        return cl;
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
