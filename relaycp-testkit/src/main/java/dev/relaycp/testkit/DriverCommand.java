package dev.relaycp.testkit;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line of relaycp's driver in a JVM of its own, as a user starts it, with this
 * JVM's class path: for tests that kill the driver or start it more than once. Its temporary
 * files (the transfer secret, a relay jar) go to a folder the test owns, because a driver
 * killed with SIGKILL cannot remove them.
 */
public final class DriverCommand {
  private static final String MAIN_CLASS = "dev.relaycp.cli.Main";

  private DriverCommand() {}

  /**
   * {@code java [jvmOptions] -Djava.io.tmpdir=temporaryFiles -cp <this JVM's class path>
   * dev.relaycp.cli.Main}, as a mutable list for the caller to add relaycp's arguments to.
   */
  public static List<String> of(Path temporaryFiles, String... jvmOptions) {
    requireNonNull(temporaryFiles, "temporaryFiles is null");
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(List.of(jvmOptions));
    command.add("-Djava.io.tmpdir=" + temporaryFiles);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(MAIN_CLASS);
    return command;
  }
}
