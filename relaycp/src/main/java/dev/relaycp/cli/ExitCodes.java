package dev.relaycp.cli;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import java.io.PrintWriter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IExitCodeExceptionMapper;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine;

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
  private static final Logger LOG = LoggerFactory.getLogger(ExitCodes.class);
  public static final int OK = 0;
  public static final int INTERNAL = 1;
  public static final int USAGE = 2;
  public static final int USER = 3;
  public static final int EXTERNAL = 4;
  public static final int VERIFICATION_FAILED = 5;

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
    return report(failure, commandLine.getErr(), "relaycp " + commandLine.getCommandName());
  }

  /**
   * Prints {@code failure}'s one-line message to {@code err} and returns its exit code: a
   * {@link RelayCpException}'s own message, or for anything else "internal error", with its
   * stack logged under {@code where} (what was running: a command, a container). Entry points
   * that picocli does not run (YARN's containers) report their failures through it too.
   */
  public static int report(Exception failure, PrintWriter err, String where) {
    int exitCode = exitCodeOf(failure);
    if (exitCode == INTERNAL) {
      LOG.error("Internal error in {}", where, failure);
    }
    err.println("relaycp: " + message(failure));
    err.flush();
    return exitCode;
  }

  @Override
  public int getExitCode(Throwable failure) {
    return exitCodeOf(failure);
  }

  private static int exitCodeOf(Throwable failure) {
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
