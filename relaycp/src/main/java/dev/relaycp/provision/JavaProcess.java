package dev.relaycp.provision;

import static java.util.Objects.requireNonNull;

import java.nio.file.Path;
import java.util.List;

/** What a JVM relaycp starts beside itself runs: this JVM's launcher, and options as words. */
public final class JavaProcess {
  private JavaProcess() {}

  /**
   * This JVM's {@code java} launcher: a class-data archive fits only the JVM build that made
   * it, and a relay started beside the driver runs the driver's Java.
   */
  public static String launcher() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /** JVM options written as one setting (e.g. {@code relaycp.relay.java-opts}), as words. */
  public static List<String> options(String text) {
    requireNonNull(text, "text is null");
    return text.isBlank() ? List.of() : List.of(text.trim().split("\\s+"));
  }
}
