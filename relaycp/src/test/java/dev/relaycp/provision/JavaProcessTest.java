package dev.relaycp.provision;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class JavaProcessTest {
  @Test
  void optionsAreTheSettingsWords() {
    assertThat(JavaProcess.options("  -Xmx768m   -XX:+UseSerialGC\t-Xshare:auto "))
        .containsExactly("-Xmx768m", "-XX:+UseSerialGC", "-Xshare:auto");
    assertThat(JavaProcess.options(" ")).isEmpty();
    assertThat(JavaProcess.options("")).isEmpty();
  }

  @Test
  void theLauncherIsThisJvmsJava() {
    assertThat(Path.of(JavaProcess.launcher()))
        .startsWith(Path.of(System.getProperty("java.home")))
        .matches(Files::isExecutable);
  }
}
