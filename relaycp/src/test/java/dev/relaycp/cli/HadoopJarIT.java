package dev.relaycp.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.relaycp.testkit.DemoDataset;
import dev.relaycp.testkit.EmbeddedClusters;
import dev.relaycp.testkit.EmbeddedSite;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The product jar as `hadoop jar` runs it: {@code org.apache.hadoop.util.RunJar} on a Hadoop
 * installation's class path and nothing else (no HADOOP_CLASSPATH), in a JVM of its own.
 */
class HadoopJarIT {
  private static final long BLOCK = 256 * 1024;
  static EmbeddedClusters clusters;

  @TempDir Path temporary;

  @BeforeAll
  static void startClusters() throws IOException {
    clusters = EmbeddedClusters.start(1, BLOCK);
    DemoDataset.write(FileSystem.get(clusters.sourceUri("/"), new Configuration()),
        new org.apache.hadoop.fs.Path("/data"), BLOCK, 20, 6, 7L);
  }

  @AfterAll
  static void stopClusters() {
    clusters.close();
  }

  record Run(int exitCode, String out, String err) {}

  private Run hadoopJar(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", String.join(File.pathSeparator, hadoopClassPath()),
        "org.apache.hadoop.util.RunJar", System.getProperty("relaycp.product.jar")));
    command.addAll(List.of(args));
    Path out = temporary.resolve("out.txt");
    Path err = temporary.resolve("err.txt");
    Process process = new ProcessBuilder(command)
        .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    assertThat(process.waitFor(180, TimeUnit.SECONDS)).as("hadoop jar finished").isTrue();
    return new Run(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }

  static List<String> hadoopClassPath() throws IOException {
    return EmbeddedSite.classPathFrom(Path.of(System.getProperty("relaycp.hadoop.classpath")));
  }

  @Test
  void theClassPathIsHadoopsAlone() throws IOException {
    assertThat(hadoopClassPath()).isNotEmpty()
        .allMatch(entry -> entry.endsWith(".jar"))
        .noneMatch(entry -> entry.contains("picocli") || entry.contains("progressbar")
            || entry.contains("relaycp"));
  }

  @Test
  void versionRunsUnderRunJar() throws Exception {
    Run run = hadoopJar("--version");

    assertThat(run.exitCode()).as(run.err()).isZero();
    assertThat(run.out()).contains("relaycp 0.1.0-SNAPSHOT").contains("Hadoop 3.5.0");
  }

  @Test
  void copyRunsUnderRunJarAndVerifiesEveryFile() throws Exception {
    Run run = hadoopJar("copy", clusters.sourceUri("/data").toString(),
        clusters.destinationUri("/copy").toString(), "--local-relays", "1", "--json",
        "--no-history");

    assertThat(run.exitCode()).as(run.err()).isZero();
    JsonNode summary = new ObjectMapper().readTree(run.out());
    assertThat(summary.get("files").asInt()).isEqualTo(summary.get("verification").size())
        .isGreaterThan(20);
    assertThat(summary.get("verified").asBoolean()).isTrue();
    assertThat(summary.get("provisioner").asText()).isEqualTo("local");
  }
}
