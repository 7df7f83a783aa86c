package dev.relaycp.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.relaycp.fs.FileSystemOpener;
import dev.relaycp.testkit.DemoDataset;
import dev.relaycp.testkit.EmbeddedClusters;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Main} as Oozie 5's launcher runs a {@code <java>} action: with
 * {@code oozie.action.output.properties} set, main invoked by reflection in the launcher's
 * JVM; a return is success, an exception fails the action with its message.
 */
class OozieActionTest {
  static final long BLOCK = 256 * 1024;
  static EmbeddedClusters clusters;
  static int files;

  @TempDir Path temporary;

  @BeforeAll
  static void startClusters() throws IOException {
    clusters = EmbeddedClusters.start(1, BLOCK);
    FileSystem source = FileSystemOpener.of(new Configuration()).open(clusters.sourceUri("/"));
    files = DemoDataset.write(source, new org.apache.hadoop.fs.Path("/data"), BLOCK, 5, 3, 13)
        .size();
  }

  @AfterAll
  static void stopClusters() {
    if (clusters != null) {
      clusters.close();
    }
  }

  /** What Oozie's launcher makes of one run of the main class. */
  record Launch(boolean succeeded, String errorMessage, Map<String, String> actionData) {}

  /**
   * As LauncherAM.runActionMain: the output file named in a system property, main found and
   * invoked by reflection, the cause of an InvocationTargetException taken as the failure.
   */
  Launch launch(String... args) throws Exception {
    Path output = temporary.resolve("output.properties");
    Files.deleteIfExists(output);
    System.setProperty(OozieActionOutput.PROPERTY, output.toString());
    boolean succeeded;
    String errorMessage = null;
    try {
      Method main = Class.forName(Main.class.getName()).getMethod("main", String[].class);
      main.invoke(null, (Object) args);
      succeeded = true;
    } catch (InvocationTargetException e) {
      succeeded = false;
      errorMessage = e.getCause().getMessage();
    } finally {
      System.clearProperty(OozieActionOutput.PROPERTY);
    }
    Properties properties = new Properties();
    if (Files.exists(output)) {
      try (var in = Files.newBufferedReader(output)) {
        properties.load(in);
      }
    }
    Map<String, String> data = new TreeMap<>();
    properties.stringPropertyNames().forEach(name -> data.put(name, properties.getProperty(name)));
    return new Launch(succeeded, errorMessage, data);
  }

  @Test
  void aCopyReturnsAndLeavesItsSummaryForLaterActions() throws Exception {
    Launch launch = launch("copy", clusters.sourceUri("/data").toString(),
        clusters.destinationUri("/copy").toString(), "--local-relays", "1", "--no-progress",
        "--no-history");

    assertThat(launch.succeeded()).as(launch.errorMessage()).isTrue();
    assertThat(launch.actionData()).containsEntry("exitCode", "0")
        .containsEntry("reason", "ok").containsEntry("retryable", "false")
        .containsEntry("files", Integer.toString(files))
        .containsKeys("bytes", "seconds", "mbPerSecond");
    long bytes = FileSystemOpener.of(new Configuration()).open(clusters.destinationUri("/"))
        .getContentSummary(new org.apache.hadoop.fs.Path("/copy")).getLength();
    assertThat(launch.actionData().get("bytes")).isEqualTo(Long.toString(bytes));
    assertThat(Double.parseDouble(launch.actionData().get("mbPerSecond"))).isPositive();
  }

  @Test
  void badInputFailsTheActionWithRelaycpsMessageAndIsNotRetryable() throws Exception {
    Launch launch = launch("copy", clusters.sourceUri("/absent").toString(),
        clusters.destinationUri("/never").toString(), "--local-relays", "1", "--no-progress");

    assertThat(launch.succeeded()).isFalse();
    assertThat(launch.errorMessage()).startsWith("relaycp: source " + clusters.sourceUri("/absent"))
        .contains("does not exist; check the path").endsWith("(exit code 3)")
        .doesNotContain("\n");
    assertThat(launch.actionData()).containsEntry("exitCode", "3")
        .containsEntry("retryable", "false").doesNotContainKey("bytes");
    assertThat(launch.actionData().get("reason")).contains("does not exist; check the path");
  }

  @Test
  void anUnreachableClusterFailsTheActionAsRetryable() throws Exception {
    Path source = Files.createDirectories(temporary.resolve("source"));
    Files.writeString(source.resolve("a.txt"), "hello");
    Path secret = temporary.resolve("secret");
    Files.writeString(secret, "00112233445566778899aabbccddeeff");
    Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-------"));

    Launch launch = launch("copy", "-D", "ipc.client.connect.max.retries=0",
        "-D", "ipc.client.connect.timeout=2000", source.toUri().toString(),
        "hdfs://127.0.0.1:1/copy", "--relays", "127.0.0.1:9", "--secret-file",
        secret.toString(), "--no-progress");

    assertThat(launch.succeeded()).isFalse();
    assertThat(launch.errorMessage()).contains("127.0.0.1:1").endsWith("(exit code 4)");
    assertThat(launch.actionData()).containsEntry("exitCode", "4")
        .containsEntry("retryable", "true");
  }

  @Test
  void aUsageErrorFailsTheActionNamingTheOption() throws Exception {
    Launch launch = launch("copy", "hdfs://nn:8020/a", "hdfs://nn:8020/b", "--no-such-option");

    assertThat(launch.succeeded()).isFalse();
    assertThat(launch.errorMessage()).startsWith("relaycp: usage error: ")
        .contains("--no-such-option").endsWith("(exit code 2)");
    assertThat(launch.actionData()).containsEntry("exitCode", "2");
  }
}
