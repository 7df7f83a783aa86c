package dev.relaycp.cli;

import static java.util.Objects.requireNonNull;

import java.io.PrintWriter;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.util.Tool;
import picocli.CommandLine;

/**
 * relaycp as a Hadoop {@link Tool}: {@code ToolRunner} has already applied the generic options
 * ({@code -conf}, {@code -D}, {@code -fs}) to the configuration when {@link #run} is called.
 */
public final class RelayCpTool extends Configured implements Tool {
  private final Consumer<CommandLine> extraCommands;

  public RelayCpTool() {
    this(commandLine -> { });
  }

  /** A tool whose command line {@code extraCommands} adds subcommands to (the demo's). */
  public RelayCpTool(Consumer<CommandLine> extraCommands) {
    this.extraCommands = requireNonNull(extraCommands, "extraCommands is null");
  }

  @Override
  public int run(String[] args) {
    CommandLine commandLine = commandLine(new RelayCpCommand(getConf()),
        new PrintWriter(System.out, true), new PrintWriter(System.err, true));
    extraCommands.accept(commandLine);
    return commandLine.execute(args);
  }

  /** The command line with relaycp's exit-code mapping and the given output streams. */
  public static CommandLine commandLine(RelayCpCommand command, PrintWriter out,
      PrintWriter err) {
    CommandLine commandLine = new CommandLine(command);
    commandLine.setOut(out);
    commandLine.setErr(err);
    commandLine.setExecutionExceptionHandler(new ExitCodes());
    commandLine.setExitCodeExceptionMapper(new ExitCodes());
    return commandLine;
  }
}
