package dev.relaycp.relay;

/** The first byte of every frame: what the payload holds. Codes are part of the wire format. */
public enum FrameType {
  /** Relay to client: a random nonce the client must prove knowledge of the secret against. */
  CHALLENGE(1),
  /** Client to relay: HMAC-SHA256 of the nonce under the transfer's secret. */
  PROOF(2),
  /** Relay to client: the proof was right; requests may follow. */
  AUTHENTICATED(3),
  /**
   * First request on an authenticated connection, driver to reader and reader to writer: whose
   * transfer the orders that follow belong to, where they may read and write, and the caller's
   * credentials.
   */
  TRANSFER(5),
  /** Driver to reader relay: read a byte range and send it to a writer relay. */
  SEND_CHUNK(10),
  /** Reader relay to writer relay: the header of a chunk whose DATA frames follow. */
  WRITE_CHUNK(11),
  /** Reader relay to writer relay: bytes of the current chunk. */
  DATA(12),
  /** Reader relay to writer relay: bytes of the current chunk, Snappy-compressed. */
  COMPRESSED_DATA(17),
  /** Reader relay to writer relay: the current chunk is complete. */
  END_OF_CHUNK(13),
  /** Writer relay to reader relay: the chunk is durably written. */
  CHUNK_WRITTEN(14),
  /** Reader relay to driver: the chunk went through the whole route. */
  CHUNK_DONE(15),
  /** Either direction: a chunk failed; carries an error code and a message. */
  CHUNK_FAILED(16),
  /** Either direction: the sender is alive and has nothing else to send; empty. */
  KEEP_ALIVE(20);

  private static final FrameType[] BY_CODE = new FrameType[256];

  static {
    for (FrameType type : values()) {
      BY_CODE[type.code] = type;
    }
  }

  private final int code;

  FrameType(int code) {
    this.code = code;
  }

  public int code() {
    return code;
  }

  /** The type with this code, or null when the code is not one of ours. */
  public static FrameType fromCode(int code) {
    return code >= 0 && code < BY_CODE.length ? BY_CODE[code] : null;
  }
}
