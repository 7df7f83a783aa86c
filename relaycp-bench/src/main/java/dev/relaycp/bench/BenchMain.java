package dev.relaycp.bench;

import dev.relaycp.cli.RelayCpTool;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.ToolRunner;

/**
 * Entry point for {@code bin/relaycp}: every relaycp command, plus {@code demo} and
 * {@code bench}, which need the embedded clusters and DistCp that the product jar leaves out.
 */
public final class BenchMain {
  private BenchMain() {}

  public static void main(String[] args) throws Exception {
    Configuration.addDefaultResource("relaycp-site.xml");
    System.exit(ToolRunner.run(new Configuration(), new RelayCpTool(commandLine -> {
      commandLine.addSubcommand(new DemoCommand());
      commandLine.addSubcommand(new BenchCommand());
    }), args));
  }
}
