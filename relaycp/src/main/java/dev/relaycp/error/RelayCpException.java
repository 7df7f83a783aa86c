package dev.relaycp.error;

import static java.util.Objects.requireNonNull;

/**
 * A failure with its {@link ErrorCode}. The message is one line that names the problem and,
 * for user errors, the fix; it is what the CLI prints.
 */
public final class RelayCpException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final ErrorCode code;

  public RelayCpException(ErrorCode code, String message) {
    this(code, message, null);
  }

  public RelayCpException(ErrorCode code, String message, Throwable cause) {
    super(requireNonNull(message, "message is null"), cause);
    this.code = requireNonNull(code, "code is null");
  }

  public ErrorCode code() {
    return code;
  }
}
