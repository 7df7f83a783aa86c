package dev.relaycp.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.relaycp.testkit.DemoDataset;
import dev.relaycp.testkit.EmbeddedClusters;
import dev.relaycp.testkit.EmbeddedSite;
import dev.relaycp.provision.spawn.Ec2HostSpawner;
import dev.relaycp.provision.spawn.Ec2Settings;
import dev.relaycp.provision.spawn.MotoServer;
import dev.relaycp.provision.spawn.SpawnContext;
import dev.relaycp.provision.spawn.SpawnedHost;
import dev.relaycp.relay.TransferSecret;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
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

  /**
   * RunJar's switch (HADOOP-15477) that runs the jar where it is instead of unpacking it into a
   * temporary folder first.
   */
  private static final String SKIP_UNJAR_VARIABLE = "HADOOP_CLIENT_SKIP_UNJAR";
  private static final Map<String, String> SKIP_UNJAR = Map.of(SKIP_UNJAR_VARIABLE, "true");

  private Run hadoopJar(String... args) throws IOException, InterruptedException {
    return hadoopJar(Map.of(), args);
  }

  private Run hadoopJar(Map<String, String> environment, String... args)
      throws IOException, InterruptedException {
    return hadoopJar(Path.of(System.getProperty("relaycp.product.jar")), environment, args);
  }

  private Run hadoopJar(Path jar, Map<String, String> environment, String... args)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", String.join(File.pathSeparator, hadoopClassPath()),
        "org.apache.hadoop.util.RunJar", jar.toString()));
    command.addAll(List.of(args));
    Path out = temporary.resolve("out.txt");
    Path err = temporary.resolve("err.txt");
    ProcessBuilder builder = new ProcessBuilder(command)
        .redirectOutput(out.toFile()).redirectError(err.toFile());
    builder.environment().putAll(environment);
    Process process = builder.start();
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

  /**
   * The relay jar YARN containers run, taken out of the product jar: small, without the AWS
   * SDK, and every command of the product still loads from it (picocli builds them all).
   */
  @Test
  void theRelayJarInsideTheProductRunsAllCommandsWithoutTheAwsSdk() throws Exception {
    Path relayJar = temporary.resolve("relaycp-relay.jar");
    try (JarFile product = new JarFile(System.getProperty("relaycp.product.jar"))) {
      Files.copy(product.getInputStream(product.getEntry("relaycp-relay.jar")), relayJar);
    }
    try (JarFile jar = new JarFile(relayJar.toFile())) {
      assertThat(jar.stream().map(JarEntry::getName))
          .anyMatch(name -> name.equals("dev/relaycp/shaded/picocli/CommandLine.class"))
          .noneMatch(name -> name.startsWith("dev/relaycp/shaded/software/"));
    }
    assertThat(Files.size(relayJar)).isLessThan(5L << 20);

    Run help = hadoopJar(relayJar, Map.of(), "--help");
    assertThat(help.exitCode()).as(help.err()).isZero();
    assertThat(help.out()).contains("relay").contains("copy").contains("gc");
    Run relayHelp = hadoopJar(relayJar, Map.of(), "relay", "--help");
    assertThat(relayHelp.exitCode()).as(relayHelp.err()).isZero();
    assertThat(relayHelp.out()).contains("--secret-file");
  }

  @Test
  void copyRunsUnderRunJarAndVerifiesEveryFile() throws Exception {
    // As the README has it run: without RunJar unpacking the jar's ~19,000 files first.
    Run run = hadoopJar(SKIP_UNJAR, "copy", clusters.sourceUri("/data").toString(),
        clusters.destinationUri("/copy").toString(), "--local-relays", "1", "--json",
        "--no-history");

    assertThat(run.exitCode()).as(run.err()).isZero();
    JsonNode summary = new ObjectMapper().readTree(run.out());
    assertThat(summary.get("files").asInt()).isEqualTo(summary.get("verification").size())
        .isGreaterThan(20);
    assertThat(summary.get("verified").asBoolean()).isTrue();
    assertThat(summary.get("provisioner").asText()).isEqualTo("local");
  }

  /**
   * The class-data archive for spawned hosts' images, made as the README has it (under RunJar,
   * the jar run in place), and a relay started from the argument file it writes: relaycp's own
   * classes and Hadoop's are mapped from the archive, and the relay listens.
   */
  @Test
  void relayClassDataMakesAnArchiveThatARelayStartsFrom() throws Exception {
    Path folder = temporary.resolve("image");
    Run made = hadoopJar(SKIP_UNJAR, "relay-class-data", folder.toString(),
        "--java-options", "-Xmx256m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC");

    assertThat(made.exitCode()).as(made.err()).isZero();
    Path options = folder.resolve("relay.java-options");
    assertThat(made.out()).contains("relay command: ").contains(" @" + options);
    assertThat(folder.resolve("relay.jsa")).isNotEmptyFile();
    try (var entries = Files.list(folder)) {
      assertThat(entries.map(entry -> entry.getFileName().toString()))
          .containsExactlyInAnyOrder("relay.jsa", "relay.java-options");
    }

    Path secretFile = temporary.resolve("relay-secret");
    TransferSecret.generate().writeTo(secretFile);
    Path classes = temporary.resolve("classes.log");
    Path out = temporary.resolve("relay-out.txt");
    Process relay = new ProcessBuilder(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xlog:class+load=info:file=" + classes, "@" + options,
        "relay", "--port", "0", "--bind", "127.0.0.1", "--secret-file", secretFile.toString(),
        "--stop-on-stdin-eof")
        .redirectErrorStream(true).redirectOutput(out.toFile()).start();
    relay.getOutputStream().close();
    assertThat(relay.waitFor(120, TimeUnit.SECONDS)).as("relay ended").isTrue();

    String output = Files.readString(out, StandardCharsets.UTF_8);
    assertThat(relay.exitValue()).as(output).isZero();
    assertThat(output).contains("relaycp relay listening on 127.0.0.1:");
    assertThat(Files.readAllLines(classes, StandardCharsets.UTF_8))
        .anyMatch(line -> line.contains(" dev.relaycp.relay.RelayServer source: shared objects"
            + " file (top)"))
        .anyMatch(line -> line.contains(" org.apache.hadoop.conf.Configuration source: shared"
            + " objects file (top)"));
  }

  @Test
  void theAwsSdkIsInsideAndRelocated() throws IOException {
    try (JarFile jar = new JarFile(System.getProperty("relaycp.product.jar"))) {
      List<String> names = jar.stream().map(JarEntry::getName).toList();
      assertThat(names).contains(
          "dev/relaycp/shaded/software/amazon/awssdk/services/ec2/Ec2Client.class",
          "dev/relaycp/shaded/software/amazon/awssdk/services/ssm/SsmClient.class",
          "dev/relaycp/provision/spawn/relay-user-data.sh");
      // Netty is the cluster's own; only its OpenSSL binding (netty-tcnative, which Hadoop
      // does not ship) is inside, unrelocated, with BoringSSL for Linux alone.
      assertThat(names).noneMatch(name -> name.startsWith("software/")
          || name.startsWith("org/reactivestreams/")
          || name.startsWith("io/netty/") && !name.endsWith("/")
              && !name.startsWith("io/netty/internal/tcnative/"));
      assertThat(names).contains("io/netty/internal/tcnative/SSL.class",
          "META-INF/native/libnetty_tcnative_linux_x86_64.so",
          "META-INF/native/libnetty_tcnative_linux_aarch_64.so");
      assertThat(names).noneMatch(name -> name.startsWith("META-INF/native/")
          && (name.contains("osx") || name.contains("windows")));
    }
  }

  @Test
  void gcUnderRunJarReachesEc2AndSsmThroughTheShadedSdk() throws Exception {
    try (MotoServer moto = MotoServer.start()) {
      Configuration configuration = moto.spawnConfiguration();
      TransferSecret secret = TransferSecret.generate();
      Path secretFile = temporary.resolve("secret");
      secret.writeTo(secretFile);
      SpawnContext context = new SpawnContext("killed-driver", secret, secretFile,
          Duration.ofSeconds(60), Instant.now().minus(Duration.ofMinutes(1)),
          Map.of("src", "hdfs://nn-a/hb", "dst", "hdfs://nn-b/hb"), Optional.empty());
      // Spawned and dropped, as by a driver killed outright.
      SpawnedHost left = Ec2HostSpawner.open(Ec2Settings.from(configuration), context,
          moto.clients(), Clock.systemUTC()).spawn(context.slot("src", 0));

      Run run = hadoopJar(Map.of(SKIP_UNJAR_VARIABLE, "true",
          "AWS_ACCESS_KEY_ID", MotoServer.ACCESS_KEY,
              "AWS_SECRET_ACCESS_KEY", MotoServer.SECRET_KEY),
          "gc", "--region", MotoServer.SOURCE_REGION,
          "-D", Ec2Settings.ENDPOINT + "=" + moto.endpoint());

      assertThat(run.exitCode()).as(run.err()).isZero();
      assertThat(run.out().lines()).containsExactly(
          "terminated instance  us-west-2  " + left.handle() + " transfer=killed-driver expires="
              + context.expiresAt() + " state=running",
          "deleted   parameter us-west-2  /relaycp/transfers/killed-driver/secret"
              + " transfer=killed-driver expires=" + context.expiresAt());
    }
  }
}
