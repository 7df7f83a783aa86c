package dev.relaycp.cli;

import static java.util.Objects.requireNonNull;

import org.apache.hadoop.conf.Configuration;
import picocli.CommandLine.Command;

/**
 * The top command; each job is a subcommand, which {@link RelayCpTool} adds. Holds the Hadoop
 * configuration they share.
 */
@Command(
    name = "relaycp",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = "Copies directory trees between Hadoop clusters through parallel relays.",
    footer = {
        "",
        "Hadoop generic options (-conf FILE, -D key=value, -fs URI) go before the command,",
        "as for any Hadoop tool; -D also works after it.",
        "",
        "Exit codes: 0 ok, 1 internal error, 2 usage, 3 bad input, 4 cluster or relay",
        "failure (retrying may help), 5 verification failed."
    })
public final class RelayCpCommand {
  private final Configuration configuration;

  public RelayCpCommand(Configuration configuration) {
    this.configuration = requireNonNull(configuration, "configuration is null");
  }

  /** The configuration ToolRunner built from the generic options; subcommands copy it. */
  public Configuration configuration() {
    return configuration;
  }
}
