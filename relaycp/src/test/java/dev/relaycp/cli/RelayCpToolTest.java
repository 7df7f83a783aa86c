package dev.relaycp.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Which commands the tool's command line holds for the arguments it is run with. */
class RelayCpToolTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private CommandLine commandLineFor(String... args) {
    RelayCpTool tool = new RelayCpTool(new PrintWriter(err, true));
    tool.setConf(new Configuration(false));
    return tool.commandLineFor(args, new PrintWriter(out, true));
  }

  @Test
  void everyCommandIsThereForAnythingButARelay() {
    assertThat(commandLineFor("copy", "hdfs://a/x", "hdfs://b/y").getSubcommands().keySet())
        .containsExactly("copy", "relay", "plan", "probe", "gc", "clean",
            "relay-class-data", "relay-pool", "help");
    assertThat(commandLineFor().getSubcommands()).hasSize(9);
  }

  @Test
  void aRelayGetsItsOwnCommandAloneAndStillChecksItsOptions() {
    CommandLine relay = commandLineFor("relay", "--secret-file", "/no/such/file");

    assertThat(relay.getSubcommands().keySet()).containsExactly("relay");
    int code = relay.execute("relay", "--secret-file", "/no/such/file");
    assertThat(code).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("Missing required option: '--port=N'");
  }

  @Test
  void aRelaysHelpIsItsOwn() {
    CommandLine relay = commandLineFor("relay", "--help");

    assertThat(relay.execute("relay", "--help")).isZero();
    assertThat(out.toString()).contains("Usage: relaycp relay").contains("--secret-file");
  }

  /**
   * picocli wraps each line of a description to the help's width on its own, so an option
   * described by several lines of source text shows ragged lines; one paragraph wraps evenly.
   */
  @Test
  void everyOptionIsDescribedInOneParagraph() {
    for (CommandLine command : commandLineFor().getSubcommands().values()) {
      for (CommandLine.Model.OptionSpec option : command.getCommandSpec().options()) {
        assertThat(option.description()).as(command.getCommandName() + " " + option.longestName())
            .hasSizeLessThanOrEqualTo(1);
      }
    }
  }

  /** Each line of a command's description is printed whole, not broken at the help's width. */
  @Test
  void everyCommandsDescriptionLinesFitTheHelpsWidth() {
    CommandLine relaycp = commandLineFor();
    for (CommandLine command : relaycp.getSubcommands().values()) {
      if (command.getCommand() instanceof CommandLine.HelpCommand) {
        continue;
      }
      assertThat(command.getUsageHelpWidth()).isEqualTo(RelayCpTool.USAGE_HELP_WIDTH);
      for (String line : command.getCommandSpec().usageMessage().description()) {
        assertThat(line.length()).as(command.getCommandName() + ": " + line)
            .isLessThanOrEqualTo(RelayCpTool.USAGE_HELP_WIDTH);
      }
      String help = command.getUsageMessage(CommandLine.Help.Ansi.OFF);
      for (String line : command.getCommandSpec().usageMessage().description()) {
        assertThat(help).as(command.getCommandName() + " help").contains(line);
      }
    }
  }
}
