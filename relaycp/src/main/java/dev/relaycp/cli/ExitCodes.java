package dev.relaycp.cli;

import static java.util.Objects.requireNonNull;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IExitCodeExceptionMapper;
import picocli.CommandLine.ParseResult;

/**
 * The one place failures become exit codes and one-line messages.
 *
 * <pre>
 * 0  success: every file copied and verified
 * 1  internal error: a bug in relaycp; the message says what, the log has the stack
 * 2  usage error: unknown option, missing argument (picocli's own message and usage)
 * 3  user error: bad input such as a missing source, an existing target, a malformed URI
 * 4  external error: a cluster or relay unreachable or failing; retrying may help
 * 5  verification failed: a copy did not match its source's checksum; nothing committed
 * </pre>
 */
public final class ExitCodes implements IExecutionExceptionHandler, IExitCodeExceptionMapper {
  public static final int OK = 0;
  public static final int INTERNAL = 1;
  public static final int USAGE = 2;
  public static final int USER = 3;
  public static final int EXTERNAL = 4;
  public static final int VERIFICATION_FAILED = 5;

  private final RunRecord record;

  public ExitCodes() {
    this(new RunRecord());
  }

  /** Exit codes that also leave each failure's one-line message in {@code record}. */
  public ExitCodes(RunRecord record) {
    this.record = requireNonNull(record, "record is null");
  }

  /**
   * Whether a scheduler should run a command that exited with {@code exitCode} again: only
   * for an external error (a cluster or relay unreachable or failing). Bad input, a usage
   * error, a failed verification or a bug fail the same way again.
   */
  public static boolean retryable(int exitCode) {
    return exitCode == EXTERNAL;
  }

  public static int of(ErrorCode code) {
    if (code == ErrorCode.VERIFICATION_FAILED) {
      return VERIFICATION_FAILED;
    }
    return switch (code.category()) {
      case USER -> USER;
      case EXTERNAL -> EXTERNAL;
      case INTERNAL -> INTERNAL;
    };
  }

  @Override
  public int handleExecutionException(Exception failure, CommandLine commandLine,
      ParseResult parseResult) {
    String message = message(failure);
    record.failed(message);
    commandLine.getErr().println("relaycp: " + message);
    commandLine.getErr().flush();
    return getExitCode(failure);
  }

  @Override
  public int getExitCode(Throwable failure) {
    if (failure instanceof RelayCpException relay) {
      return of(relay.code());
    }
    if (failure instanceof CommandLine.ParameterException) {
      return USAGE;
    }
    return INTERNAL;
  }

  private static String message(Exception failure) {
    if (failure instanceof RelayCpException) {
      return failure.getMessage();
    }
    return "internal error: " + failure + " (please report it with the log)";
  }
}
