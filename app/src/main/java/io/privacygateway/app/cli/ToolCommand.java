package io.privacygateway.app.cli;

/**
 * A subcommand that lives outside the production command line and joins it when its module is on the class path
 * ({@code demo} from the {@code demo} module, {@code bench} from the {@code benchmarks} module): the production
 * distribution ({@code run}, {@code register}, {@code plan}, {@code simulate}, {@code audit}) carries no broker, no
 * simulator and no benchmark code. Implementations are picocli {@code @Command} classes with a public no-argument
 * constructor, listed in {@code META-INF/services/io.privacygateway.app.cli.ToolCommand}.
 */
public interface ToolCommand {}
