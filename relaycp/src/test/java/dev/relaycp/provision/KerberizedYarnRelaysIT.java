package dev.relaycp.provision;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.relaycp.testkit.DriverCommand;
import dev.relaycp.testkit.EmbeddedSite;
import dev.relaycp.transfer.KerberizedClusters;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.MiniYARNCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * YARN relays on kerberized clusters: a KDC, two kerberized HDFS clusters ({@link
 * KerberizedClusters}) and a kerberized ResourceManager with two NodeManagers serving both
 * sites; the driver logs in as alice from her keytab, as a user's scheduled copy would. What
 * relaycp's ApplicationMaster in the driver needs from YARN, YARN does not give a Kerberos
 * caller (see the test), and this shows the copy says so and leaves nothing behind. Kerberos
 * state is JVM-wide: this class runs in a fork of its own ({@code @Tag("kerberos")},
 * relaycp/pom.xml).
 */
@Tag("kerberos")
class KerberizedYarnRelaysIT {
  private static final Map<String, byte[]> FILES = new TreeMap<>(Map.of(
      "small.txt", "a line of text\n".getBytes(UTF_8),
      "nested/blocks.bin", bytes(3 * KerberizedClusters.BLOCK_SIZE + 4321)));

  @TempDir static Path base;
  static KerberizedClusters clusters;
  static MiniYARNCluster yarn;

  @BeforeAll
  static void start() throws Exception {
    clusters = KerberizedClusters.start(base.resolve("clusters"));
    clusters.asSuperuser(() -> {
      // A cluster's /tmp, where YARN applications stage their files, as real clusters have it.
      for (URI cluster : List.of(clusters.sourceUri("/"), clusters.destinationUri("/"))) {
        try (FileSystem files = FileSystem.newInstance(cluster, clusters.configuration())) {
          org.apache.hadoop.fs.Path tmp = new org.apache.hadoop.fs.Path("/tmp");
          files.mkdirs(tmp);
          files.setPermission(tmp, new FsPermission((short) 01777));
        }
      }
      try (FileSystem source = FileSystem.newInstance(clusters.sourceUri("/"),
          clusters.configuration())) {
        for (Map.Entry<String, byte[]> file : FILES.entrySet()) {
          try (FSDataOutputStream out = source.create(
              new org.apache.hadoop.fs.Path("/shared/data", file.getKey()))) {
            out.write(file.getValue());
          }
        }
      }
      return null;
    });
    // What every node of a real cluster has: its site files in HADOOP_CONF_DIR, which the
    // containers' class path names, and a krb5.conf (here MiniKdc's, named to each JVM).
    Path nodeConfiguration = base.resolve("node-conf");
    clusters.writeConfigurationDirectory(nodeConfiguration);
    List<String> containerClassPath = new ArrayList<>();
    containerClassPath.add(nodeConfiguration.toString());
    containerClassPath.addAll(EmbeddedSite.classPathFrom(
        Path.of(System.getProperty("relaycp.hadoop.classpath"))));

    YarnConfiguration configuration = new YarnConfiguration(clusters.configuration());
    String keytab = clusters.serviceKeytab().toString();
    configuration.set(YarnConfiguration.RM_PRINCIPAL, clusters.servicePrincipal());
    configuration.set(YarnConfiguration.RM_KEYTAB, keytab);
    configuration.set(YarnConfiguration.NM_PRINCIPAL, clusters.servicePrincipal());
    configuration.set(YarnConfiguration.NM_KEYTAB, keytab);
    // The web apps' SPNEGO filters are not what this test is about.
    configuration.setBoolean(
        YarnConfiguration.RM_WEBAPP_DELEGATION_TOKEN_AUTH_FILTER, false);
    configuration.setInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, 64);
    configuration.setBoolean(YarnConfiguration.NM_PMEM_CHECK_ENABLED, false);
    configuration.setBoolean(YarnConfiguration.NM_VMEM_CHECK_ENABLED, false);
    configuration.set(YarnConfiguration.NM_ADMIN_USER_ENV,
        "JAVA_HOME=" + System.getProperty("java.home"));
    configuration.setStrings(YarnConfiguration.YARN_APPLICATION_CLASSPATH,
        containerClassPath.toArray(String[]::new));
    yarn = new MiniYARNCluster("relaycp-kerberized", 2, 1, 1);
    yarn.init(configuration);
    yarn.start();
    assertThat(yarn.waitForNodeManagersToConnect(60_000)).as("NodeManagers connected").isTrue();
    writeSiteFolder(base.resolve("src"), clusters.sourceUri("/"));
    writeSiteFolder(base.resolve("dst"), clusters.destinationUri("/"));
  }

  /** A site's configuration folder for the driver: the clusters' keys, YARN's, its default FS. */
  private static void writeSiteFolder(Path folder, URI defaultFileSystem) throws IOException {
    Files.createDirectories(folder);
    Configuration site = new Configuration(yarn.getConfig());
    site.set(CommonConfigurationKeysPublic.FS_DEFAULT_NAME_KEY, defaultFileSystem.toString());
    try (OutputStream out = Files.newOutputStream(folder.resolve("core-site.xml"))) {
      site.writeXml(out);
    }
  }

  @AfterAll
  static void stop() {
    try {
      if (yarn != null) {
        yarn.stop();
      }
    } finally {
      if (clusters != null) {
        clusters.close();
      }
    }
  }

  /** What a driver run printed and how it ended. */
  private record Run(int exitCode, String out, List<String> errors, long seconds) {
    /** Relaycp's own line among the log's (a site still starting may log after it). */
    String relaycpLine() {
      return errors.stream().filter(line -> line.startsWith("relaycp: ")).reduce((first, more) -> {
        throw new AssertionError("two relaycp lines: " + first + " | " + more);
      }).orElseThrow(() -> new AssertionError("no relaycp line in " + errors));
    }
  }

  /**
   * relaycp with {@code arguments} in a JVM of its own, as a user runs it, logged in as alice
   * from her keytab: its Kerberos login is JVM-wide, and this JVM's clusters serve as hdfs. Its
   * configuration is the source site's, first on its class path, as with HADOOP_CONF_DIR set
   * to it.
   */
  private static Run runAsAlice(String name, List<String> arguments) throws Exception {
    Path temporaryFiles = Files.createDirectories(base.resolve(name + "-tmp"));
    List<String> command = DriverCommand.of(temporaryFiles,
        "-Djava.security.krb5.conf=" + clusters.krb5Conf());
    int classPath = command.indexOf("-cp") + 1;
    command.set(classPath, base.resolve("src") + java.io.File.pathSeparator
        + command.get(classPath));
    command.addAll(arguments);
    command.addAll(List.of(
        "--src-conf", base.resolve("src").toString(),
        "--dst-conf", base.resolve("dst").toString(),
        "--principal", clusters.principal("alice"),
        "--keytab", clusters.keytab("alice").toString(),
        "-D", YarnRelaySettings.JAR + "=" + System.getProperty("relaycp.product.jar"),
        "-D", YarnRelaySettings.MEMORY_MB + "=256",
        "-D", YarnRelaySettings.JAVA_OPTS + "=-Xmx160m -Djava.security.krb5.conf="
            + clusters.krb5Conf()));
    Path out = base.resolve(name + ".out");
    Path err = base.resolve(name + ".err");
    long started = System.nanoTime();
    Process driver = new ProcessBuilder(command).redirectOutput(out.toFile())
        .redirectError(err.toFile()).start();
    assertThat(driver.waitFor(240, TimeUnit.SECONDS)).as(name + " ends").isTrue();
    return new Run(driver.exitValue(), Files.readString(out), Files.readAllLines(err),
        TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started));
  }

  /** The line that refuses YARN relays under Kerberos, for either site. */
  private static String refusal() {
    return "relaycp: the (src|dst) cluster's ResourceManager gives the token of relaycp's"
        + " ApplicationMaster .* \\(alice\\), and this driver is alice@"
        + clusters.realm().replace(".", "\\.") + ", .* --relays HOST:PORT,\\.\\.\\."
        + " instead of --relays yarn";
  }

  /**
   * YARN gives an unmanaged ApplicationMaster's token only to a caller named as the
   * application's user, which a Kerberos caller (alice@REALM, against alice) never is: the copy
   * fails at once with a line naming that and the fix, exit 3, and leaves no application
   * running, nothing staged and nothing at the target.
   */
  @Test
  void onKerberizedYarnTheCopyRefusesYarnRelaysAtOnceAndLeavesNothing() throws Exception {
    Run copy = runAsAlice("copy", List.of("copy",
        clusters.sourceUri("/shared/data").toString(),
        clusters.destinationUri("/user/alice/copy").toString(),
        "--relays", "yarn", "--json", "--no-progress", "--no-history"));

    assertThat(copy.exitCode()).as(String.join("\n", copy.errors())).isEqualTo(3);
    assertThat(copy.seconds()).as("refused at once, not after the start timeout")
        .isLessThan(60);
    assertThat(copy.relaycpLine()).matches(refusal());
    assertThat(copy.out()).isEmpty();
    assertNothingLeft("relaycp hdfs://");
    clusters.asSuperuser(() -> {
      try (FileSystem destination = FileSystem.newInstance(clusters.destinationUri("/"),
          clusters.configuration())) {
        assertThat(destination.exists(new org.apache.hadoop.fs.Path("/user/alice/copy")))
            .isFalse();
        assertThat(destination.listStatus(new org.apache.hadoop.fs.Path("/user/alice")))
            .as("nothing staged beside the target").isEmpty();
      }
      return null;
    });
  }

  /** A relay pool is refused the same way, and writes no pool file. */
  @Test
  void onKerberizedYarnARelayPoolIsRefusedAtOnceAndWritesNoPoolFile() throws Exception {
    Path poolFile = base.resolve("pool.json");
    Run pool = runAsAlice("pool", List.of("relay-pool", "--pool-file", poolFile.toString(),
        "--for", "10m"));

    assertThat(pool.exitCode()).as(String.join("\n", pool.errors())).isEqualTo(3);
    assertThat(pool.seconds()).isLessThan(60);
    assertThat(pool.relaycpLine()).matches(refusal());
    assertThat(poolFile).doesNotExist();
    assertNothingLeft("relaycp relay pool ");
  }

  /**
   * No application named from {@code namePrefix} runs or holds a container, and no transfer
   * folder is left in alice's staging on either cluster (her relay jar cache stays).
   */
  private static void assertNothingLeft(String namePrefix) throws Exception {
    clusters.asSuperuser(() -> {
      for (URI cluster : List.of(clusters.sourceUri("/"), clusters.destinationUri("/"))) {
        try (FileSystem files = FileSystem.newInstance(cluster, clusters.configuration())) {
          org.apache.hadoop.fs.Path staging =
              new org.apache.hadoop.fs.Path("/tmp/relaycp-staging/alice");
          List<String> left = new ArrayList<>();
          if (files.exists(staging)) {
            for (var entry : files.listStatus(staging)) {
              if (!entry.getPath().getName().equals(RelayJarCache.FOLDER)) {
                left.add(entry.getPath().toString());
              }
            }
          }
          assertThat(left).as("transfer folders left on " + cluster).isEmpty();
        }
      }
      try (YarnClient client = YarnClient.createYarnClient()) {
        client.init(yarn.getConfig());
        client.start();
        List<ApplicationReport> applications = client.getApplications(
            java.util.Set.of(YarnSite.APPLICATION_TYPE)).stream()
            .filter(application -> application.getName().startsWith(namePrefix)).toList();
        assertThat(applications).as("both sites' applications were submitted").hasSize(2);
        for (ApplicationReport application : applications) {
          assertThat(application.getUser()).isEqualTo("alice");
          assertThat(application.getYarnApplicationState()).as(application.getName())
              .isIn(YarnApplicationState.FINISHED, YarnApplicationState.KILLED,
                  YarnApplicationState.FAILED);
        }
        assertThat(liveContainers(client, applications)).as("relay containers").isZero();
      }
      return null;
    });
  }

  private static int liveContainers(YarnClient client, List<ApplicationReport> applications)
      throws Exception {
    int live = 0;
    for (ApplicationReport application : applications) {
      for (var attempt : client.getApplicationAttempts(application.getApplicationId())) {
        live += client.getContainers(attempt.getApplicationAttemptId()).size();
      }
    }
    return live;
  }

  private static byte[] bytes(long length) {
    byte[] bytes = new byte[(int) length];
    new java.util.Random(7).nextBytes(bytes);
    return bytes;
  }
}
