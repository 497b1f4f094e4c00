package io.privacygateway.app.cli;

/**
 * The exit codes of every command (docs/cli.md): the commands return them and {@code Main} maps failures onto them.
 * They live with the commands so that a command never imports the entry point that dispatches to it.
 */
public final class ExitCodes {
    /** Success. */
    public static final int OK = 0;
    /** A runtime failure: something the command needed failed or could not be reached. */
    public static final int FAILURE = 1;
    /** A usage or configuration error. */
    public static final int USAGE = 2;

    private ExitCodes() {}
}
