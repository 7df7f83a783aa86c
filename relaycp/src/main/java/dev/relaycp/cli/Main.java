package dev.relaycp.cli;

import dev.relaycp.config.RelayKeys;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.ToolRunner;

/** Entry point for {@code bin/relaycp} and {@code hadoop jar relaycp.jar}. */
public final class Main {
  private Main() {}

  public static void main(String[] args) throws Exception {
    RelayKeys.addDefaultResources();
    if (OozieAction.requested()) {
      // Under Oozie's launcher any System.exit fails the action: return, or throw.
      OozieAction.run(args);
      return;
    }
    System.exit(ToolRunner.run(new Configuration(), new RelayCpTool(), args));
  }
}
