package dev.relaycp.cli;

import static java.util.Objects.requireNonNull;

import dev.relaycp.config.RelayKeys;
import dev.relaycp.provision.ClassDataArchive;
import dev.relaycp.provision.ProvisionedRelay;
import dev.relaycp.provision.YarnRelaySettings;
import dev.relaycp.relay.RelayServer;
import dev.relaycp.relay.RelaySettings;
import dev.relaycp.relay.RelayWarmUp;
import dev.relaycp.relay.TransferSecret;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A relay daemon's life once its settings are known, shared by {@code relaycp relay} (started
 * by hand, by a spawned host or as a local relay) and {@link RelayContainerMain} (started by
 * YARN): warm up if asked, listen, say where on standard output, follow the driver's heartbeat
 * and announce the address where given, and serve until closed.
 *
 * @param bind the address to listen on
 * @param port the port; 0 picks a free one
 * @param warmUpBytes bytes sent through a private loopback relay before listening; 0 for none
 * @param driverHeartbeat the heartbeat file to follow, stopping once it is gone or stale
 * @param announce the folder to announce this relay's address in, named after
 *     {@code announceAs} (how relays YARN starts tell their driver where they listen)
 * @param announceAs the announcement's name: the YARN container's id
 * @param stopOnStdinEof stop once standard input closes (local relays)
 */
record RelayProcess(String bind, int port, long warmUpBytes, Optional<String> driverHeartbeat,
    Optional<String> announce, Optional<String> announceAs, boolean stopOnStdinEof) {
  private static final Logger LOG = LoggerFactory.getLogger(RelayProcess.class);

  RelayProcess {
    requireNonNull(bind, "bind is null");
    requireNonNull(driverHeartbeat, "driverHeartbeat is null");
    requireNonNull(announce, "announce is null");
    requireNonNull(announceAs, "announceAs is null");
    if (warmUpBytes < 0) {
      throw new IllegalArgumentException("warmUpBytes is negative: " + warmUpBytes);
    }
  }

  /** A relay's settings from its configuration; a bad value is a user error naming its key. */
  static RelaySettings relaySettings(String bind, int port, TransferSecret secret,
      Configuration configuration) {
    return new RelaySettings(bind, port, secret, configuration,
        RelayKeys.BYTES_PER_SECOND_LIMIT.from(configuration),
        RelayKeys.DATA_FRAME_BYTES.intFrom(configuration),
        TimeUnit.SECONDS.toMillis(RelayKeys.HANDSHAKE_TIMEOUT_SECONDS.from(configuration)),
        RelayKeys.PARALLEL_STREAMS.intFrom(configuration),
        TimeUnit.SECONDS.toMillis(RelayKeys.SILENCE_TIMEOUT_SECONDS.from(configuration)));
  }

  /**
   * Runs the relay with {@code secret} and {@code configuration} until it is closed (by the
   * driver's end, the end of standard input or a signal).
   */
  void serve(TransferSecret secret, Configuration configuration, PrintWriter out)
      throws IOException, InterruptedException {
    RelaySettings settings = relaySettings(bind, port, secret, configuration);
    if (warmUpBytes > 0) {
      RelayWarmUp.Result warmed = RelayWarmUp.run(settings, warmUpBytes,
          Path.of(System.getProperty("java.io.tmpdir")));
      LOG.info("Warmed up with {} bytes in {} ms", warmed.bytesWritten(),
          warmed.took().toMillis());
    }
    try (RelayServer server = RelayServer.start(settings)) {
      if (warmUpBytes > 0) {
        RelayWarmUp.handshakeWithItself(server, settings.secret());
      }
      out.println("relaycp relay listening on " + bind + ":" + server.localAddress().getPort());
      out.flush();
      Runtime.getRuntime().addShutdownHook(new Thread(server::close, "relay-shutdown"));
      if (driverHeartbeat.isPresent()) {
        long timeoutSeconds = YarnRelaySettings.from(configuration, Map.of())
            .driverTimeoutSeconds();
        ProvisionedRelay.followDriver(configuration, driverHeartbeat.get(),
            Duration.ofSeconds(timeoutSeconds), server::close);
      }
      if (announce.isPresent()) {
        String address = advertisedHost() + ":" + server.localAddress().getPort();
        String name = announceAs.orElse(address.replace(':', '_'));
        ProvisionedRelay.announce(configuration, announce.get(), name, address);
        ClassDataArchive.refreshInBackground(
            () -> ProvisionedRelay.markBusy(configuration, announce.get(), name));
      }
      if (stopOnStdinEof) {
        Thread watcher = new Thread(() -> {
          waitForEndOfInput(System.in);
          server.close();
        }, "relay-stdin-watch");
        watcher.setDaemon(true);
        watcher.start();
      }
      server.awaitClose();
    }
  }

  /** The host drivers reach this relay at: the NodeManager's host name under YARN. */
  private String advertisedHost() throws IOException {
    String nodeManagerHost = System.getenv("NM_HOST");
    if (nodeManagerHost != null && !nodeManagerHost.isBlank()) {
      return nodeManagerHost;
    }
    if (!"0.0.0.0".equals(bind) && !"::".equals(bind)) {
      return bind;
    }
    return InetAddress.getLocalHost().getCanonicalHostName();
  }

  private static void waitForEndOfInput(InputStream input) {
    byte[] discard = new byte[256];
    try {
      while (input.read(discard) >= 0) {
        // Input carries nothing; only its end matters.
      }
    } catch (IOException e) {
      // A broken pipe is an end of input too.
    }
  }
}
