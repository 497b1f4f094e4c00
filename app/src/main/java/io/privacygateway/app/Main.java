package io.privacygateway.app;

import io.privacygateway.app.cli.AuditCommand;
import io.privacygateway.app.cli.EnrollCommand;
import io.privacygateway.app.cli.ExitCodes;
import io.privacygateway.app.cli.IngestCommand;
import io.privacygateway.app.cli.PlanCommand;
import io.privacygateway.app.cli.RegisterCommand;
import io.privacygateway.app.cli.RunCommand;
import io.privacygateway.app.cli.RuntimeFailure;
import io.privacygateway.app.cli.SimulateCommand;
import io.privacygateway.app.cli.ToolCommand;
import io.privacygateway.app.metrics.Failures;
import io.privacygateway.mechanisms.workload.InvalidWorkloadException;
import io.privacygateway.schemas.registry.SchemaRegistryException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.config.ConfigException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine;

/**
 * Entry point of the {@code privacy-gateway} command line.
 *
 * <p><b>Exit codes</b> (every command; listed in every {@code --help}): {@value #OK} success; {@value #FAILURE}
 * runtime failure (a broker or the schema registry unreachable or failing, the gateway stopped): one line on
 * standard error naming what failed, and the stack trace only with {@code --verbose}; {@value #USAGE} usage or
 * configuration error (an unknown option, a bad value, a configuration or workload file error naming the field).
 */
@Command(name = "privacy-gateway", mixinStandardHelpOptions = true, version = "privacy-gateway 0.1.0",
        description = "A streaming privacy gateway: local and central differential privacy on Apache Kafka.",
        subcommands = {SimulateCommand.class, PlanCommand.class, AuditCommand.class, RunCommand.class,
            RegisterCommand.class, EnrollCommand.class, IngestCommand.class})
public final class Main implements Runnable {
    /** Success ({@link ExitCodes#OK}). */
    public static final int OK = ExitCodes.OK;
    /** A runtime failure: something the command needed failed or could not be reached. */
    public static final int FAILURE = ExitCodes.FAILURE;
    /** A usage or configuration error. */
    public static final int USAGE = ExitCodes.USAGE;

    /** The exit code list printed by every command's {@code --help}. */
    static final Map<String, String> EXIT_CODES = exitCodes();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--verbose", scope = ScopeType.INHERIT,
            description = "On a failure, print the stack trace after the one-line message.")
    boolean verbose;

    public static void main(String[] args) {
        try {
            LogSettings.apply(System.getenv()); // before the first logger: level and format of every command
        } catch (IllegalArgumentException e) {
            System.err.println("privacy-gateway: error: " + e.getMessage());
            System.exit(USAGE);
        }
        System.exit(commandLine().execute(args));
    }

    /**
     * The configured command line (also used by tests): the production commands, plus every {@link ToolCommand}
     * found on the class path ({@code demo}, {@code bench}).
     */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Main());
        List<ToolCommand> tools = new ArrayList<>();
        ServiceLoader.load(ToolCommand.class).forEach(tools::add);
        tools.sort(Comparator.comparing(t -> t.getClass().getName()));
        for (ToolCommand tool : tools) {
            cl.addSubcommand(tool);
        }
        documentExitCodes(cl);
        cl.setExecutionExceptionHandler((ex, cmd, parseResult) -> {
            int code = exitCode(ex);
            PrintWriter err = cmd.getErr();
            err.println("privacy-gateway: error: " + message(ex));
            if (verbose(parseResult)) {
                ex.printStackTrace(err);
            }
            err.flush();
            return code;
        });
        return cl;
    }

    /**
     * The exit code of a command that failed with {@code ex}: {@value #USAGE} for configuration and usage errors
     * (invalid workloads and settings, bad option values, missing files, Kafka client configuration errors, states
     * of the deployment that refuse the request), {@value #FAILURE} for everything else — and for an
     * {@link IllegalStateException} that was caused by an I/O, Kafka or registry failure.
     */
    static int exitCode(Throwable ex) {
        Throwable t = Failures.unwrap(ex);
        if (t instanceof RuntimeFailure) {
            return FAILURE;
        }
        if (t instanceof InvalidWorkloadException || t instanceof IllegalArgumentException
                || t instanceof NoSuchFileException
                || Failures.causedBy(t, ConfigException.class)) {
            return USAGE;
        }
        if (t instanceof IllegalStateException) {
            boolean infrastructure = t.getCause() != null && (Failures.causedBy(t.getCause(), IOException.class)
                    || Failures.causedBy(t.getCause(), KafkaException.class)
                    || Failures.causedBy(t.getCause(), TimeoutException.class)
                    || Failures.causedBy(t.getCause(), SchemaRegistryException.class));
            return infrastructure ? FAILURE : USAGE;
        }
        return FAILURE;
    }

    private static String message(Throwable ex) {
        Throwable t = Failures.unwrap(ex);
        if (t instanceof NoSuchFileException nf) {
            return "no such file: " + nf.getFile();
        }
        if (t instanceof RuntimeFailure) {
            return t.getMessage();
        }
        return Failures.oneLine(t);
    }

    private static boolean verbose(CommandLine.ParseResult pr) {
        for (CommandLine.ParseResult p = pr; p != null; p = p.subcommand()) {
            if (p.hasMatchedOption("--verbose")) {
                return true;
            }
        }
        return false;
    }

    private static Map<String, String> exitCodes() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(Integer.toString(OK), "success");
        m.put(Integer.toString(FAILURE), "runtime failure: a broker or the schema registry unreachable or failing,"
                + " or the gateway stopped (one line on stderr; --verbose adds the stack trace)");
        m.put(Integer.toString(USAGE), "usage or configuration error (the message names the option or the field)");
        return Collections.unmodifiableMap(m);
    }

    /**
     * Adds the common exit code list to the help of this command and of every subcommand, keeping the codes a
     * command documents itself (e.g. {@code audit}'s 3).
     */
    private static void documentExitCodes(CommandLine cl) {
        var usage = cl.getCommandSpec().usageMessage();
        Map<String, String> codes = new LinkedHashMap<>(EXIT_CODES);
        usage.exitCodeList().forEach(codes::put);
        usage.exitCodeListHeading("%nExit codes:%n").exitCodeList(codes);
        cl.getSubcommands().values().forEach(Main::documentExitCodes);
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
