package dev.relaycp.cli;

import static java.util.Objects.requireNonNull;

import java.io.PrintWriter;
import java.util.List;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.util.Tool;
import picocli.CommandLine;
import picocli.CommandLine.HelpCommand;

/**
 * relaycp as a Hadoop {@link Tool}: {@code ToolRunner} has already applied the generic options
 * ({@code -conf}, {@code -D}, {@code -fs}) to the configuration when {@link #run} is called.
 */
public final class RelayCpTool extends Configured implements Tool {
  /** relaycp's commands, in the order its help lists them. */
  private static final List<Class<?>> COMMANDS = List.of(CopyCommand.class, RelayCommand.class,
      PlanCommand.class, ProbeCommand.class, GcCommand.class, CleanCommand.class,
      RelayClassDataCommand.class, RelayPoolCommand.class, HelpCommand.class);
  private static final String RELAY = "relay";
  /** The columns of a command's help, which its description's lines are written to fit. */
  static final int USAGE_HELP_WIDTH = 100;
  private final Consumer<CommandLine> extraCommands;
  private final PrintWriter err;

  public RelayCpTool() {
    this(commandLine -> { });
  }

  /** A tool whose messages go to {@code err} instead of standard error. */
  RelayCpTool(PrintWriter err) {
    this.extraCommands = commandLine -> { };
    this.err = requireNonNull(err, "err is null");
  }

  /** A tool whose command line {@code extraCommands} adds subcommands to (the demo's). */
  public RelayCpTool(Consumer<CommandLine> extraCommands) {
    this.extraCommands = requireNonNull(extraCommands, "extraCommands is null");
    this.err = new PrintWriter(System.err, true);
  }

  /**
   * Runs the command {@code args} name. {@code relay} gets a command line of its own command
   * alone: a copy through YARN starts a relay on every datanode, on nodes that may be busy, and
   * picocli's model of every command (their options, mixins and help) took 5-8% of a relay's
   * start-up CPU (bench/results/2026-11-27-relay-start-profile/).
   */
  @Override
  public int run(String[] args) {
    return commandLineFor(args, new PrintWriter(System.out, true)).execute(args);
  }

  /** The command line {@link #run} executes {@code args} with. */
  CommandLine commandLineFor(String[] args, PrintWriter out) {
    RelayCpCommand command = new RelayCpCommand(getConf());
    if (args.length > 0 && RELAY.equals(args[0])) {
      return commandLine(command, out, err, List.of(RelayCommand.class), line -> { });
    }
    return commandLine(command, out, err, COMMANDS, extraCommands);
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
    return commandLine(command, out, err, COMMANDS, extraCommands);
  }

  private static CommandLine commandLine(RelayCpCommand command, PrintWriter out,
      PrintWriter err, List<Class<?>> commands, Consumer<CommandLine> extraCommands) {
    CommandLine commandLine = new CommandLine(command);
    for (Class<?> subcommand : commands) {
      commandLine.addSubcommand(subcommand);
    }
    extraCommands.accept(commandLine);
    // The commands' descriptions are written a line an element, up to 100 columns: at
    // picocli's 80 each longer line would break in two.
    commandLine.setUsageHelpWidth(USAGE_HELP_WIDTH);
    commandLine.setOut(out);
    commandLine.setErr(err);
    commandLine.setExecutionExceptionHandler(new ExitCodes());
    commandLine.setExitCodeExceptionMapper(new ExitCodes());
    return commandLine;
  }
}
