package dev.relaycp.cli;

import dev.relaycp.plan.DataSize;
import dev.relaycp.relay.RelayTls;
import dev.relaycp.relay.TransferSecret;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
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

  @Option(names = "--secret-file", required = true, paramLabel = "FILE",
      description = "File holding the transfer secret (hex), shared with the driver.")
  Path secretFile;

  @Option(names = "--tls-identity-file", paramLabel = "FILE",
      description = "File holding the driver's TLS key and certificate (PEM), which this relay"
          + " shows instead of making its own: RELAYCP_TLS_IDENTITY_FILE in a spawn command's"
          + " environment. Saves the relay a few tenths of a CPU-second as it starts.")
  Path tlsIdentityFile;

  @Option(names = "--warm-up", paramLabel = "SIZE", defaultValue = "0",
      description = "Before it listens, send SIZE bytes (e.g. 64MiB) through a private loopback"
          + " relay of its own (the same reader and writer, in plaintext), between scratch files"
          + " in java.io.tmpdir, then make one TLS handshake with itself, so that its first"
          + " chunks do not run while the JIT compiles (for relays started for one copy). 0, the"
          + " default, sends nothing.")
  String warmUp;

  @Option(names = "--driver-heartbeat", paramLabel = "FILE_URI", hidden = true,
      description = "Stop once this file is gone or its modification time has not changed for"
          + " relaycp.relay.driver-timeout-seconds: how relays a driver started follow it.")
  String driverHeartbeat;

  @Option(names = "--stop-on-stdin-eof", hidden = true,
      description = "Stop when standard input closes: how local relays follow their driver.")
  boolean stopOnStdinEof;

  @Override
  public Integer call() throws InterruptedException, IOException {
    long warmUpBytes = DataSize.parse(warmUp).bytes();
    Configuration configuration = hadoop.apply(parent.configuration());
    login.apply(configuration);
    TransferSecret secret = SecretFile.read(secretFile, spec.commandLine().getErr());
    if (tlsIdentityFile != null) {
      RelayTls.adopt(SecretFile.readIdentity(tlsIdentityFile, spec.commandLine().getErr()));
    }
    new RelayProcess(bind, port, warmUpBytes, Optional.ofNullable(driverHeartbeat),
        Optional.empty(), Optional.empty(), stopOnStdinEof)
        .serve(secret, configuration, spec.commandLine().getOut());
    return ExitCodes.OK;
  }
}
