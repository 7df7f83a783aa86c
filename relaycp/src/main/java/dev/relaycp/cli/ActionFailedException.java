package dev.relaycp.cli;

/**
 * A run under a workflow engine's launcher that failed: thrown out of {@link Main#main} where
 * a plain run would exit, so that the engine fails the action with relaycp's one-line message
 * (Oozie 5's launcher reports a thrown exception's message, but for {@code System.exit(n)}
 * only "exit code [n]").
 */
public final class ActionFailedException extends RuntimeException {
  private final int exitCode;

  public ActionFailedException(int exitCode, String message) {
    super(message);
    if (exitCode == ExitCodes.OK) {
      throw new IllegalArgumentException("a failed action has a non-zero exit code, got 0");
    }
    this.exitCode = exitCode;
  }

  /** The exit code relaycp would have exited with (see {@link ExitCodes}). */
  public int exitCode() {
    return exitCode;
  }
}
