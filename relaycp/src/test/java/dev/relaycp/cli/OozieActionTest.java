package dev.relaycp.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.relaycp.testkit.DemoDataset;
import dev.relaycp.testkit.EmbeddedClusters;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The main class run the way Oozie's launcher runs a {@code <java>} action with
 * {@code <capture-output/>}: the output file named in a system property, and main expected to
 * return on success (any System.exit fails the action) and to throw on failure.
 */
class OozieActionTest {
  static EmbeddedClusters clusters;
  @TempDir Path temporary;
  Path output;

  @BeforeAll
  static void start() throws Exception {
    clusters = EmbeddedClusters.start(1, 256 * 1024);
    DemoDataset.write(clusters.source().getFileSystem(), new org.apache.hadoop.fs.Path("/data"),
        256 * 1024, 6, 5, 3);
  }

  @AfterAll
  static void stop() {
    if (clusters != null) {
      clusters.close();
    }
  }

  @AfterEach
  void clearProperty() {
    System.clearProperty(OozieAction.OUTPUT_PROPERTY);
  }

  Properties captured() throws Exception {
    Properties properties = new Properties();
    try (InputStream in = Files.newInputStream(output)) {
      properties.load(in);
    }
    return properties;
  }

  @Test
  void aCopyReturnsFromMainAndWritesItsOutcomeForWfActionData() throws Exception {
    output = temporary.resolve("action-output.properties");
    System.setProperty(OozieAction.OUTPUT_PROPERTY, output.toString());

    Main.main(new String[] {"copy", clusters.sourceUri("/data").toString(),
        clusters.destinationUri("/nightly").toString(), "--local-relays", "1", "--no-progress",
        "--no-history"});

    Properties properties = captured();
    assertThat(properties.getProperty("exitCode")).isEqualTo("0");
    assertThat(Long.parseLong(properties.getProperty("bytes"))).isPositive();
    assertThat(Integer.parseInt(properties.getProperty("files"))).isGreaterThan(6);
    assertThat(Double.parseDouble(properties.getProperty("seconds"))).isPositive();
    assertThat(Double.parseDouble(properties.getProperty("mbPerSecond"))).isPositive();
    assertThat(properties.getProperty("bytesReused")).as("a fresh copy reuses nothing")
        .isEqualTo("0");
    assertThat(properties.getProperty("reason")).isEmpty();
    assertThat(clusters.destination().getFileSystem()
        .exists(new org.apache.hadoop.fs.Path("/nightly"))).isTrue();
  }

  @Test
  void aFailedCopyThrowsRelaycpsMessageAndStillWritesItsOutcome() throws Exception {
    output = temporary.resolve("failed-output.properties");
    System.setProperty(OozieAction.OUTPUT_PROPERTY, output.toString());

    Throwable failure = catchThrowable(() -> Main.main(new String[] {"copy",
        "hdfs://bad host:x/data", clusters.destinationUri("/never").toString(),
        "--local-relays", "1"}));

    assertThat(failure).isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("relaycp: SRC 'hdfs://bad host:x/data' is not a valid URI")
        .hasMessageEndingWith("(exit code 3)");
    Properties properties = captured();
    assertThat(properties.getProperty("exitCode")).isEqualTo("3");
    assertThat(properties.getProperty("reason")).startsWith("relaycp: SRC 'hdfs://bad host:x");
    assertThat(properties.getProperty("bytes")).isNull();
  }
}
