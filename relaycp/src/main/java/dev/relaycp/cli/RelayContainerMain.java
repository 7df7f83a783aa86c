package dev.relaycp.cli;

import dev.relaycp.config.RelayKeys;
import dev.relaycp.fs.HadoopLogin;
import dev.relaycp.provision.ContainerSecret;
import dev.relaycp.provision.RelaySettingsVariable;
import dev.relaycp.relay.RelayTls;
import dev.relaycp.relay.TransferSecret;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;

/**
 * The entry point of a relay that YARN starts for a copy:
 * {@code RelayContainerMain ANNOUNCE_FOLDER_URI HEARTBEAT_FILE_URI}. It listens on a free port
 * of every address, announces itself in the folder under its {@code CONTAINER_ID}, and stops
 * once the driver's heartbeat file is gone or stale. Its transfer secret (and the driver's TLS
 * key and certificate, where the relays run TLS) are in the container's Hadoop credentials,
 * and its settings in {@value RelaySettingsVariable#NAME}, as the driver's {@code YarnSite}
 * puts them there.
 *
 * <p>It goes without ToolRunner and picocli: nobody types this command line, and a relay is
 * started on every datanode of both clusters for every copy. picocli's model of the relay's
 * command took 2.7-4.0% of a relay container's CPU samples in its first 14 s
 * (bench/results/2026-11-27-relay-start-profile/), and none since
 * (bench/results/2026-11-28-yarn-start-overlap/).
 */
public final class RelayContainerMain {
  private RelayContainerMain() {}

  public static void main(String[] arguments) throws IOException, InterruptedException {
    System.exit(run(arguments, System.getenv(), new PrintWriter(System.out, true),
        new PrintWriter(System.err, true)));
  }

  /**
   * A container's configuration, the relay's or its ApplicationMaster's: relaycp's defaults,
   * the node's site files, the driver's settings from {@value RelaySettingsVariable#NAME}, and
   * Hadoop's login as the container holds it (its credentials' tokens on a kerberized
   * cluster).
   */
  static Configuration configuration(Map<String, String> environment) {
    RelayKeys.addDefaultResources();
    Configuration configuration = new Configuration();
    RelaySettingsVariable.apply(environment.get(RelaySettingsVariable.NAME),
        RelaySettingsVariable.NAME, configuration);
    HadoopLogin.apply(configuration, Optional.empty(), Optional.empty());
    return configuration;
  }

  /** Runs the relay until it stops; returns its exit code ({@link ExitCodes}). */
  static int run(String[] arguments, Map<String, String> environment, PrintWriter out,
      PrintWriter err) throws IOException, InterruptedException {
    if (arguments.length != 2) {
      err.println("relaycp: a relay container takes 2 arguments, the folder to announce itself"
          + " in and the driver's heartbeat file, and got " + arguments.length + "; relaycp"
          + " starts it through YARN. To start a relay by hand, run `relaycp relay --port N"
          + " --secret-file FILE`");
      err.flush();
      return ExitCodes.USAGE;
    }
    try {
      Configuration configuration = configuration(environment);
      TransferSecret secret = ContainerSecret.fromCurrentUser();
      ContainerSecret.identityFromCurrentUser().ifPresent(RelayTls::adopt);
      new RelayProcess("0.0.0.0", 0, 0, Optional.of(arguments[1]), Optional.of(arguments[0]),
          Optional.ofNullable(environment.get("CONTAINER_ID")), false)
          .serve(secret, configuration, out);
      return ExitCodes.OK;
    } catch (RuntimeException e) {
      return ExitCodes.report(e, err, "a relay container");
    }
  }
}
