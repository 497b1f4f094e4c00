package io.privacygateway.app.cli;

/**
 * A runtime failure the command has already described in one line (exit code {@value ExitCodes#FAILURE}): a broker or
 * the registry unreachable, the gateway stopped. {@code Main} prints the line, and the stack trace only with
 * {@code --verbose}.
 */
public final class RuntimeFailure extends RuntimeException {
    public RuntimeFailure(String oneLine, Throwable cause) {
        super(oneLine, cause);
    }
}
