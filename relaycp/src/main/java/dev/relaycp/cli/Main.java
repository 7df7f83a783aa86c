package dev.relaycp.cli;

import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.ToolRunner;

/**
 * Entry point for {@code bin/relaycp}, {@code hadoop jar relaycp.jar} and an Oozie
 * {@code <java>} action.
 */
public final class Main {
  private Main() {}

  public static void main(String[] args) throws Exception {
    Configuration.addDefaultResource("relaycp-site.xml");
    String actionOutput = System.getProperty(OozieActionOutput.PROPERTY);
    if (actionOutput != null) {
      runAsOozieAction(args, Path.of(actionOutput));
      return;
    }
    System.exit(ToolRunner.run(new Configuration(), new RelayCpTool(), args));
  }

  /**
   * A run under Oozie's launcher, which sets {@link OozieActionOutput#PROPERTY} for every
   * java action. Oozie 5's LauncherAM calls this main in its own JVM: a return is success, a
   * thrown exception fails the action with the exception's message, and System.exit is
   * trapped and reported only by its code. So this writes the outcome for
   * {@code <capture-output/>}, returns on success and throws {@link ActionFailedException}
   * with relaycp's one-line message on failure.
   */
  static void runAsOozieAction(String[] args, Path output) throws Exception {
    RelayCpTool tool = new RelayCpTool();
    int exitCode = ToolRunner.run(new Configuration(), tool, args);
    OozieActionOutput.write(output, exitCode, tool.record());
    if (exitCode != ExitCodes.OK) {
      throw new ActionFailedException(exitCode, "relaycp: "
          + tool.record().failure().orElse("exited with code " + exitCode)
          + " (exit code " + exitCode + ")");
    }
  }
}
