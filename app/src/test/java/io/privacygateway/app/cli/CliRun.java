package io.privacygateway.app.cli;

import io.privacygateway.app.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** One command-line execution in a test: its exit code and what it printed on stdout and stderr. */
record CliRun(int exit, String out, String err) {
    /** Executes {@code args} on {@code cl} (on this thread), capturing its output. */
    static CliRun run(CommandLine cl, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int code = cl.execute(args);
        return new CliRun(code, out.toString(), err.toString());
    }

    /** Executes {@code args} on the tool's command line ({@link Main#commandLine()}). */
    static CliRun run(String... args) {
        return run(Main.commandLine(), args);
    }
}
