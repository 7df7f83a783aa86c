package dev.relaycp.relay;

import static java.util.Objects.requireNonNull;

import dev.relaycp.error.ErrorCode;
import java.io.IOException;

/** The incoming bytes of a chunk could not be delivered whole: corrupt, short, or cut off. */
final class ChunkStreamException extends IOException {
  private static final long serialVersionUID = 1L;

  private final ErrorCode code;

  ChunkStreamException(ErrorCode code, String message) {
    super(message);
    this.code = requireNonNull(code, "code is null");
  }

  ErrorCode code() {
    return code;
  }
}
