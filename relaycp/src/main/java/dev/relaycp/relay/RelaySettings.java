package dev.relaycp.relay;

import static java.util.Objects.requireNonNull;

import dev.relaycp.config.RelayKeys;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;

/**
 * How a relay daemon runs.
 *
 * @param bindHost the address to listen on ({@code 0.0.0.0} for all)
 * @param port the TCP port; 0 picks a free one
 * @param secret the transfer secret every connection must prove
 * @param configuration Hadoop configuration for reaching the source and destination
 * @param bytesPerSecondLimit the most the relay sends per second to writer relays, over all its
 *     connections together; 0 for no limit
 * @param dataFrameBytes the payload size of DATA frames
 * @param authenticationTimeoutMillis how long a new connection has to prove the secret
 * @param parallelStreams how many chunks one driver connection may have streaming at once
 * @param silenceTimeoutMillis how long a peer may send nothing, not even a keep-alive, before
 *     its connection is taken for dead
 */
public record RelaySettings(
    String bindHost,
    int port,
    TransferSecret secret,
    Configuration configuration,
    long bytesPerSecondLimit,
    int dataFrameBytes,
    long authenticationTimeoutMillis,
    int parallelStreams,
    long silenceTimeoutMillis) {

  public static final int DEFAULT_PARALLEL_STREAMS = 16;
  public static final int DEFAULT_DATA_FRAME_BYTES = 256 * 1024;
  public static final long DEFAULT_AUTHENTICATION_TIMEOUT_MILLIS =
      RelayKeys.HANDSHAKE_TIMEOUT_SECONDS.defaultValue() * 1_000;
  public static final long DEFAULT_SILENCE_TIMEOUT_MILLIS = 30_000;

  public RelaySettings {
    requireNonNull(bindHost, "bindHost is null");
    requireNonNull(secret, "secret is null");
    requireNonNull(configuration, "configuration is null");
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port must be 0..65535, got " + port);
    }
    if (bytesPerSecondLimit < 0) {
      throw new IllegalArgumentException(
          "bytesPerSecondLimit must not be negative, got " + bytesPerSecondLimit);
    }
    if (dataFrameBytes < 1 || dataFrameBytes > FrameCodec.MAX_PAYLOAD_BYTES) {
      throw new IllegalArgumentException("dataFrameBytes must be 1.." + FrameCodec.MAX_PAYLOAD_BYTES
          + ", got " + dataFrameBytes);
    }
    if (parallelStreams < 1) {
      throw new IllegalArgumentException(
          "parallelStreams must be 1 or more, got " + parallelStreams);
    }
    KeepAliveHandler.checkSilence(silenceTimeoutMillis);
    if (authenticationTimeoutMillis < 1) {
      throw new IllegalArgumentException(
          "authenticationTimeoutMillis must be positive, got " + authenticationTimeoutMillis);
    }
  }

  /** Settings with the default frame size and handshake timeout and no bandwidth limit. */
  public static RelaySettings of(
      String bindHost, int port, TransferSecret secret, Configuration configuration) {
    return new RelaySettings(bindHost, port, secret, configuration, 0,
        DEFAULT_DATA_FRAME_BYTES, DEFAULT_AUTHENTICATION_TIMEOUT_MILLIS,
        DEFAULT_PARALLEL_STREAMS, DEFAULT_SILENCE_TIMEOUT_MILLIS);
  }

  /**
   * The ports to listen on where {@link #port} is 0: {@code relaycp.relay.port-range} of the
   * configuration; empty for any free port.
   */
  public Optional<PortRange> portRange() {
    return PortRange.from(configuration);
  }

  /** Whether connections run in TLS: {@code relaycp.relay.tls} of the configuration. */
  public boolean tls() {
    return RelayKeys.RELAY_TLS.from(configuration);
  }

  public RelaySettings withBytesPerSecondLimit(long limit) {
    return new RelaySettings(bindHost, port, secret, configuration, limit, dataFrameBytes,
        authenticationTimeoutMillis, parallelStreams, silenceTimeoutMillis);
  }
}
