package dev.relaycp.provision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class YarnRelaysTest {
  @TempDir Path temporary;

  @Test
  void relaysGoToTheNodeManagersOfTheDatanodesWithTheMostBytesFirstThenToTheOthers() {
    List<String> placement = YarnRelays.placement(4, List.of("10.99.0.9", "127.0.0.1",
        "10.99.0.7"), List.of("localhost", "10.99.0.8", "10.99.0.9"));

    assertThat(placement).containsExactly("10.99.0.9", "localhost", "10.99.0.8", null);
    assertThat(YarnRelays.placement(2, List.of(), List.of("10.99.0.8", "10.99.0.9")))
        .containsExactly("10.99.0.8", "10.99.0.9");
  }

  @Test
  void eachNodeManagerIsAskedForOnceAtMost() {
    assertThat(YarnRelays.placement(2, List.of("127.0.0.1"), List.of("localhost", "127.0.0.1")))
        .containsExactly("localhost", null);
  }

  @Test
  void theProductJarMustBundlePicocli() throws IOException {
    Path plain = jar("plain.jar", "dev/relaycp/cli/Main.class");
    Path product = jar("product.jar", YarnRelays.PRODUCT_JAR_MARKER);

    assertThat(YarnRelays.productJar(Optional.of(product.toString())).toUri().getPath())
        .isEqualTo(product.toString());
    assertThatThrownBy(() -> YarnRelays.productJar(Optional.of(plain.toString())))
        .isInstanceOfSatisfying(RelayCpException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
        .hasMessageContaining("is not the product jar")
        .hasMessageContaining(YarnRelaySettings.JAR);
    assertThatThrownBy(() -> YarnRelays.productJar(Optional.of(temporary.toString())))
        .hasMessageContaining("is not a jar file");
  }

  @Test
  void settingsAreCheckedWhereTheyAreRead() {
    Configuration configuration = new Configuration(false);
    YarnRelaySettings defaults = YarnRelaySettings.from(configuration, Map.of());
    assertThat(defaults.memoryMegabytes()).isEqualTo(1024);
    assertThat(defaults.driverTimeoutSeconds()).isEqualTo(60);
    assertThat(defaults.queue()).isEqualTo("default");

    configuration.set(YarnRelaySettings.MEMORY_MB, "0");
    assertThatThrownBy(() -> YarnRelaySettings.from(configuration, Map.of()))
        .hasMessage(YarnRelaySettings.MEMORY_MB
            + " must be 1 or more, got 0; fix it in relaycp-site.xml or -D");
    configuration.set(YarnRelaySettings.MEMORY_MB, "lots");
    assertThatThrownBy(() -> YarnRelaySettings.from(configuration, Map.of()))
        .hasMessageContaining("must be a whole number, got lots");
    configuration.set(YarnRelaySettings.MEMORY_MB, "512");
    configuration.set(YarnRelaySettings.DRIVER_TIMEOUT, "3601");
    assertThatThrownBy(() -> YarnRelaySettings.from(configuration, Map.of()))
        .hasMessage(YarnRelaySettings.DRIVER_TIMEOUT
            + " must be 1 to 3600, got '3601'; fix it in relaycp-site.xml or -D");
  }

  @Test
  void aRelaysHeapFitsItsContainer() {
    Configuration configuration = new Configuration(false);
    assertThat(YarnRelaySettings.from(configuration, Map.of()).javaOptions())
        .as("the defaults: 768 MiB of 1024").isEqualTo(YarnRelaySettings.DEFAULT_JAVA_OPTS);
    assertThat(YarnRelaySettings.withHeapWithin(1024, "-XX:+UseSerialGC"))
        .as("no heap given: 80% of the container").isEqualTo("-Xmx819m -XX:+UseSerialGC");
    assertThat(YarnRelaySettings.withHeapWithin(256, "")).isEqualTo("-Xmx204m");
    assertThat(YarnRelaySettings.withHeapWithin(1024, "-XX:MaxRAMPercentage=70"))
        .as("a heap sized from the container's memory").isEqualTo("-XX:MaxRAMPercentage=70");
    assertThat(YarnRelaySettings.withHeapWithin(512, "-Xmx1g -Xmx256m"))
        .as("the last -Xmx is the JVM's").isEqualTo("-Xmx1g -Xmx256m");
    assertThat(YarnRelaySettings.withHeapWithin(1024, "-XX:MaxHeapSize=819m"))
        .isEqualTo("-XX:MaxHeapSize=819m");

    configuration.set(YarnRelaySettings.MEMORY_MB, "512");
    assertThatThrownBy(() -> YarnRelaySettings.from(configuration, Map.of()))
        .isInstanceOf(RelayCpException.class)
        .hasMessage(YarnRelaySettings.JAVA_OPTS + " gives each relay a heap of 768 MiB"
            + " (-Xmx768m), more than 80% of its container's 512 MiB ("
            + YarnRelaySettings.MEMORY_MB + "), and YARN stops a container that outgrows its"
            + " memory; set " + YarnRelaySettings.MEMORY_MB + " to 960 or more, or give a"
            + " smaller -Xmx, in relaycp-site.xml or by -D");
    assertThatThrownBy(() -> YarnRelaySettings.withHeapWithin(1024, "-XX:MaxHeapSize=2147483648"))
        .hasMessageContaining("a heap of 2048 MiB (-XX:MaxHeapSize=2147483648)")
        .hasMessageContaining("to 2560 or more");
    assertThatThrownBy(() -> YarnRelaySettings.withHeapWithin(1024, "-Xmxlots"))
        .hasMessage(YarnRelaySettings.JAVA_OPTS + " gives a heap that is not a size (as"
            + " -Xmx768m), got -Xmxlots; fix it in relaycp-site.xml or -D");
  }

  @Test
  void aStartFailureNamesTheResourceManagersAsTheSitesConfigurationGivesThem() {
    Configuration single = new Configuration(false);
    single.set(YarnConfiguration.RM_ADDRESS, "master.example.com:8032");
    assertThat(YarnSite.resourceManagers(single)).isEqualTo("master.example.com:8032");
    Configuration byHost = new Configuration();
    byHost.set(YarnConfiguration.RM_HOSTNAME, "master.example.com");
    assertThat(YarnSite.resourceManagers(new YarnConfiguration(byHost)))
        .isEqualTo("master.example.com:8032");
    assertThat(YarnSite.resourceManagers(new YarnConfiguration()))
        .isEqualTo("0.0.0.0:8032, YARN's default: no yarn-site.xml of the site's configuration"
            + " names one");

    Configuration pair = new Configuration(false);
    pair.setBoolean(YarnConfiguration.RM_HA_ENABLED, true);
    pair.set(YarnConfiguration.RM_HA_IDS, "rm1,rm2,rm3");
    pair.set(YarnConfiguration.RM_HOSTNAME + ".rm1", "master1.example.com");
    pair.set(YarnConfiguration.RM_ADDRESS + ".rm2", "master2.example.com:8050");
    assertThat(YarnSite.resourceManagers(pair)).isEqualTo("rm1 at master1.example.com:8032"
        + " or rm2 at master2.example.com:8050 or rm3 at no address given");
  }

  @Test
  void aContainersEndIsToldByWhatItsJvmWroteToStderr() {
    String refused = "[2026-12-05 10:04:47.563]Exception from container-launch.\n"
        + "Container id: container_1796465069242_0001_01_000007\nExit code: 1\n\n"
        + "[2026-12-05 10:04:47.566]Container exited with a non-zero exit code 1. Error file:"
        + " stderr.\nLast 4096 bytes of stderr :\nlog4j:WARN No appenders could be found.\n"
        + "Unrecognized VM option 'NoSuchOption'\n"
        + "Error: Could not create the Java Virtual Machine.\n"
        + "Error: A fatal exception has occurred. Program will exit.\n\n\n"
        + "[2026-12-05 10:04:47.567]Container exited with a non-zero exit code 1. Error file:"
        + " stderr.\nLast 4096 bytes of stderr :\nUnrecognized VM option 'NoSuchOption'\n"
        + "Error: Could not create the Java Virtual Machine.\n"
        + "Error: A fatal exception has occurred. Program will exit.\n";
    assertThat(YarnSite.containerEnd(1, refused)).isEqualTo("exit 1: Unrecognized VM option"
        + " 'NoSuchOption'; Error: Could not create the Java Virtual Machine.");

    String tooOld = "Exception from container-launch.\nLast 4096 bytes of stderr :\n"
        + "Error: LinkageError occurred while loading main class"
        + " dev.relaycp.cli.RelayContainerMain\n\tjava.lang.UnsupportedClassVersionError:"
        + " dev/relaycp/cli/RelayContainerMain has been compiled by a more recent version of the"
        + " Java Runtime (class file version 61.0), this version of the Java Runtime only"
        + " recognizes class file versions up to 55.0\n";
    assertThat(YarnSite.containerEnd(1, tooOld)).contains("LinkageError")
        .contains("class file version 61.0");

    String thrown = "Last 4096 bytes of stderr :\nException in thread \"main\""
        + " java.lang.IllegalStateException: no secret\n\tat dev.relaycp.cli.X.main(X.java:1)\n"
        + "\tat dev.relaycp.cli.Y.main(Y.java:2)\n";
    assertThat(YarnSite.containerEnd(1, thrown)).isEqualTo(
        "exit 1: Exception in thread \"main\" java.lang.IllegalStateException: no secret");

    assertThat(YarnSite.containerEnd(-105, "Container killed by the ApplicationMaster.\nmore"))
        .isEqualTo("exit -105: Container killed by the ApplicationMaster.");
    assertThat(YarnSite.containerEnd(0, null)).isEqualTo("exit 0");
  }

  private Path jar(String name, String... entries) throws IOException {
    Path jar = temporary.resolve(name);
    try (OutputStream file = Files.newOutputStream(jar);
        JarOutputStream out = new JarOutputStream(file)) {
      for (String entry : Arrays.asList(entries)) {
        out.putNextEntry(new JarEntry(entry));
        out.closeEntry();
      }
    }
    return jar;
  }

  /** The ResourceManagers' own words (Hadoop 3.5's CapacityScheduler and RMAppManager). */
  @Test
  void aQueueTheResourceManagerWillNeverTakeIsToldFromOneFullForNow() {
    assertThat(YarnSite.queueRefusal("Failed to submit application_1_0001 to YARN : Application"
        + " application_1_0001 submitted by user rootApplication application_1_0001 submitted"
        + " by user root to unknown queue: no-such-queue"))
        .contains("submitted by user root to unknown queue: no-such-queue");
    assertThat(YarnSite.queueRefusal("Application application_1_0002 submitted by user alice"
        + " to non-leaf queue : root")).contains(
            "submitted by user alice to non-leaf queue : root");
    assertThat(YarnSite.queueRefusal("User alice does not have permission to submit"
        + " application_1_0003 to queue etl")).isPresent();
    assertThat(YarnSite.queueRefusal("Queue etl is STOPPED. Cannot accept submission of"
        + " application: application_1_0004")).isPresent();
    assertThat(YarnSite.queueRefusal("Queue etl already has 10000 applications, cannot accept"
        + " submission of application: application_1_0005")).isEmpty();
    assertThat(YarnSite.queueRefusal("Maximum system application limit reached,cannot accept"
        + " submission of application: application_1_0006")).isEmpty();
    assertThat(YarnSite.queueRefusal(null)).isEmpty();
  }
}
