package dev.relaycp.config;

/**
 * The settings of relays, read alike by a relay and by the copy that starts relays (which
 * checks them before it starts any). Defaults are the ones conf/relaycp-site.xml documents.
 */
public final class RelayKeys {
  /** The most bytes per second each stream a relay sends may carry; 0 for no limit. */
  public static final SizeSetting BYTES_PER_SECOND_LIMIT =
      new SizeSetting("relaycp.relay.bytes-per-second-limit", 0, 0);
  /** Payload bytes of each DATA frame. */
  public static final WholeNumberSetting DATA_FRAME_BYTES =
      new WholeNumberSetting("relaycp.relay.data-frame-bytes", 256 * 1024, 1, 1 << 20);
  /** Chunks a reader relay streams at once for one driver. */
  public static final WholeNumberSetting PARALLEL_STREAMS =
      new WholeNumberSetting("relaycp.relay.parallel-streams", 16, 1, 1024);
  /** Seconds a peer may send nothing, not even a keep-alive, before it is taken for dead. */
  public static final WholeNumberSetting SILENCE_TIMEOUT_SECONDS =
      new WholeNumberSetting("relaycp.relay.silence-timeout-seconds", 30, 3, 86_400);

  private RelayKeys() {}
}
