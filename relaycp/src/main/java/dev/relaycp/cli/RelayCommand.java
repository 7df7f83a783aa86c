package dev.relaycp.cli;

import dev.relaycp.config.RelayKeys;
import dev.relaycp.plan.DataSize;
import dev.relaycp.provision.ContainerSecret;
import dev.relaycp.provision.ClassDataArchive;
import dev.relaycp.provision.ProvisionedRelay;
import dev.relaycp.provision.RelaySettingsVariable;
import dev.relaycp.provision.YarnRelaySettings;
import dev.relaycp.relay.RelayServer;
import dev.relaycp.relay.RelaySettings;
import dev.relaycp.relay.RelayTls;
import dev.relaycp.relay.RelayWarmUp;
import dev.relaycp.relay.TransferSecret;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code relaycp relay}: runs a relay daemon until stopped. */
@Command(
    name = "relay",
    mixinStandardHelpOptions = true,
    description = {
        "Runs a relay: reads chunks from the source FileSystem for a driver, and writes",
        "chunks it receives from other relays to the destination FileSystem. Every",
        "connection must prove the secret in --secret-file."
    })
public final class RelayCommand implements Callable<Integer> {
  private static final Logger LOG = LoggerFactory.getLogger(RelayCommand.class);

  @ParentCommand RelayCpCommand parent;
  @Spec CommandSpec spec;
  @Mixin HadoopOptions hadoop;
  @Mixin LoginOptions login;

  @Option(names = "--port", required = true, paramLabel = "N",
      description = "TCP port to listen on; 0 picks a free one (printed at start).")
  int port;

  @Option(names = "--bind", paramLabel = "ADDRESS", defaultValue = "0.0.0.0",
      description = "Address to listen on (default: ${DEFAULT-VALUE}).")
  String bind;

  @Option(names = "--secret-file", paramLabel = "FILE",
      description = "File holding the transfer secret (hex), shared with the driver.")
  Path secretFile;

  @Option(names = "--secret-from-credentials", hidden = true,
      description = {"Take the transfer secret from this process's Hadoop credentials, where",
          "the driver put it for relays it starts as YARN containers."})
  boolean secretFromCredentials;

  @Option(names = "--settings-from-environment", paramLabel = "VARIABLE", hidden = true,
      description = {"Apply the Hadoop configuration XML, base64, in this environment variable",
          "(how a driver passes its -D options to relays it starts as YARN containers)."})
  String settingsVariable;

  @Option(names = "--warm-up", paramLabel = "SIZE", defaultValue = "0",
      description = {"Before it listens, send SIZE bytes (e.g. 64MiB) through a private",
          "loopback relay of its own (the same reader and writer, in plaintext), between",
          "scratch files in java.io.tmpdir, then make one TLS handshake with itself, so that",
          "its first chunks do not run while the JIT compiles (for relays started for one",
          "copy). 0, the default, sends nothing."})
  String warmUp;

  @Option(names = "--announce", paramLabel = "DIR_URI", hidden = true,
      description = {"Once listening, make an empty file in this directory whose name holds",
          "the YARN container and host:port (how relays started through YARN tell their",
          "driver where they listen)."})
  String announce;

  @Option(names = "--driver-heartbeat", paramLabel = "FILE_URI", hidden = true,
      description = {"Stop once this file is gone or its modification time has not changed for",
          "relaycp.relay.driver-timeout-seconds: how relays a driver",
          "started follow it."})
  String driverHeartbeat;

  @Option(names = "--stop-on-stdin-eof", hidden = true,
      description = "Stop when standard input closes: how local relays follow their driver.")
  boolean stopOnStdinEof;

  @Override
  public Integer call() throws InterruptedException, IOException {
    long warmUpBytes = DataSize.parse(warmUp).bytes();
    if ((secretFile == null) == !secretFromCredentials) {
      throw new ParameterException(spec.commandLine(),
          "pass --secret-file FILE, the secret the driver was given");
    }
    Configuration configuration = hadoop.apply(parent.configuration());
    if (settingsVariable != null) {
      RelaySettingsVariable.apply(System.getenv(settingsVariable), settingsVariable,
          configuration);
    }
    login.apply(configuration);
    TransferSecret secret = secretFromCredentials
        ? ContainerSecret.fromCurrentUser()
        : SecretFile.read(secretFile, spec.commandLine().getErr());
    if (secretFromCredentials) {
      ContainerSecret.identityFromCurrentUser().ifPresent(RelayTls::adopt);
    }
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
      PrintWriter out = spec.commandLine().getOut();
      out.println("relaycp relay listening on " + bind + ":" + server.localAddress().getPort());
      out.flush();
      Runtime.getRuntime().addShutdownHook(new Thread(server::close, "relay-shutdown"));
      if (driverHeartbeat != null) {
        long timeoutSeconds = YarnRelaySettings.from(configuration, Map.of())
            .driverTimeoutSeconds();
        ProvisionedRelay.followDriver(configuration, driverHeartbeat,
            Duration.ofSeconds(timeoutSeconds), server::close);
      }
      if (announce != null) {
        String address = advertisedHost() + ":" + server.localAddress().getPort();
        ProvisionedRelay.announce(configuration, announce,
            System.getenv().getOrDefault("CONTAINER_ID", address.replace(':', '_')), address);
        ClassDataArchive.refreshInBackground();
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
    return ExitCodes.OK;
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
