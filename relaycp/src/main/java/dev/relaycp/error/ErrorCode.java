package dev.relaycp.error;

import static dev.relaycp.error.ErrorCategory.EXTERNAL;
import static dev.relaycp.error.ErrorCategory.INTERNAL;
import static dev.relaycp.error.ErrorCategory.USER;

/**
 * Every failure relaycp reports. Each code has a category and says whether retrying the same
 * operation can help; the CLI turns the category (and a few codes) into exit codes.
 */
public enum ErrorCode {
  INVALID_ARGUMENT(USER, false),
  MALFORMED_URI(USER, false),
  SOURCE_NOT_FOUND(USER, false),
  TARGET_EXISTS(USER, false),
  TARGET_CHANGED(USER, false),
  PERMISSION_DENIED(USER, false),
  UNSUPPORTED_FILESYSTEM(USER, false),
  CLUSTER_UNREACHABLE(EXTERNAL, true),
  RELAY_UNREACHABLE(EXTERNAL, true),
  RELAY_AUTHENTICATION_FAILED(USER, false),
  NO_ROUTES_LEFT(EXTERNAL, true),
  RELAY_START_FAILED(EXTERNAL, true),
  CORRUPT_FRAME(EXTERNAL, true),
  CHUNK_FAILED(EXTERNAL, true),
  IO_ERROR(EXTERNAL, true),
  VERIFICATION_FAILED(EXTERNAL, true),
  PROTOCOL_ERROR(INTERNAL, false),
  INTERRUPTED(EXTERNAL, true),
  COPY_RUNNING(EXTERNAL, true),
  INTERNAL_ERROR(INTERNAL, false);

  private final ErrorCategory category;
  private final boolean retryable;

  ErrorCode(ErrorCategory category, boolean retryable) {
    this.category = category;
    this.retryable = retryable;
  }

  public ErrorCategory category() {
    return category;
  }

  /** Whether the same operation, tried again unchanged, may succeed. */
  public boolean retryable() {
    return retryable;
  }
}
