package dev.relaycp.bench;

import dev.relaycp.cli.RelayCpTool;
import dev.relaycp.config.RelayKeys;
import dev.relaycp.provision.YarnRelaySettings;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.ToolRunner;
import picocli.CommandLine;

/**
 * Entry point for {@code bin/relaycp}: every relaycp command, plus {@code demo},
 * {@code demo-clusters} and {@code bench}, which need the embedded clusters and DistCp that the product jar leaves out.
 */
public final class BenchMain {
  private BenchMain() {}

  /** The system property bin/relaycp sets to the product jar (relaycp/target/relaycp-*.jar). */
  static final String PRODUCT_JAR_PROPERTY = "relaycp.product.jar";

  public static void main(String[] args) throws Exception {
    RelayKeys.addDefaultResources();
    Configuration configuration = new Configuration();
    // This launcher runs relaycp's plain classes; YARN relays need the product jar instead.
    String productJar = System.getProperty(PRODUCT_JAR_PROPERTY);
    if (productJar != null && configuration.get(YarnRelaySettings.JAR) == null) {
      configuration.set(YarnRelaySettings.JAR, productJar);
    }
    System.exit(ToolRunner.run(configuration, new RelayCpTool(BenchMain::addCommands), args));
  }

  /** Adds {@code demo}, {@code demo-clusters} and {@code bench} to relaycp's command line. */
  static void addCommands(CommandLine commandLine) {
    commandLine.addSubcommand(new DemoCommand());
    commandLine.addSubcommand(new DemoClustersCommand());
    commandLine.addSubcommand(new BenchCommand());
  }
}
