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
  private final RunRecord record = new RunRecord();

  public RelayCpTool() {
    this(commandLine -> { });
  }

  /** A tool whose command line {@code extraCommands} adds subcommands to (the demo's). */
  public RelayCpTool(Consumer<CommandLine> extraCommands) {
    this.extraCommands = requireNonNull(extraCommands, "extraCommands is null");
  }

  @Override
  public int run(String[] args) {
    return commandLine(new RelayCpCommand(getConf(), record), new PrintWriter(System.out, true),
        new PrintWriter(System.err, true), extraCommands).execute(args);
  }

  /** The outcome of the last {@link #run}: a copy's summary, a failure's message. */
  public RunRecord record() {
    return record;
  }

  /** The command line with relaycp's exit-code mapping and the given output streams. */
  public static CommandLine commandLine(RelayCpCommand command, PrintWriter out,
      PrintWriter err) {
    return commandLine(command, out, err, commandLine -> { });
  }

  /**
   * The same, with the subcommands {@code extraCommands} adds; they are added first, since
   * picocli gives the streams and handlers only to the subcommands present when set.
   */
  public static CommandLine commandLine(RelayCpCommand command, PrintWriter out,
      PrintWriter err, Consumer<CommandLine> extraCommands) {
    CommandLine commandLine = new CommandLine(command);
    extraCommands.accept(commandLine);
    commandLine.setOut(out);
    commandLine.setErr(err);
    ExitCodes exitCodes = new ExitCodes(command.record());
    commandLine.setExecutionExceptionHandler(exitCodes);
    commandLine.setExitCodeExceptionMapper(exitCodes);
    CommandLine.IParameterExceptionHandler usage = commandLine.getParameterExceptionHandler();
    commandLine.setParameterExceptionHandler((failure, args) -> {
      command.record().failed("usage error: " + failure.getMessage());
      return usage.handleParseException(failure, args);
    });
    return commandLine;
  }
}
