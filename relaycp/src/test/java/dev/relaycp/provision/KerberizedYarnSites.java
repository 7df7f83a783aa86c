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
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.client.ClientRMProxy;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.MiniYARNCluster;
import org.apache.hadoop.yarn.util.ConverterUtils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the tests of YARN relays on kerberized clusters share: a KDC, two kerberized HDFS
 * clusters ({@link KerberizedClusters}), a kerberized ResourceManager with two NodeManagers
 * serving both sites, each site's configuration folder for the driver, and drivers started as
 * users start them (alice from her keytab, or an Oozie launcher holding only her tokens). A
 * subclass's {@code @BeforeAll} calls {@link #startSites}. Kerberos state is JVM-wide: each
 * subclass runs in a fork of its own, as every integration test class does (relaycp/pom.xml).
 */
abstract class KerberizedYarnSites {
  @TempDir static Path base;
  static KerberizedClusters clusters;
  static MiniYARNCluster yarn;

  static final Map<String, byte[]> FILES = new TreeMap<>(Map.of(
      "small.txt", "a line of text\n".getBytes(UTF_8),
      "nested/blocks.bin", bytes(3 * KerberizedClusters.BLOCK_SIZE + 4321)));

  /**
   * Starts the KDC, both kerberized clusters (each of two NameNodes behind a nameservice where
   * {@code highlyAvailable}) with {@link #FILES} under {@code /shared/data} on the source, and
   * the kerberized YARN serving both sites; writes each site's configuration folder for the
   * driver ({@code base/src}, {@code base/dst}).
   */
  static void startSites(boolean highlyAvailable) throws Exception {
    clusters = highlyAvailable
        ? KerberizedClusters.startHighlyAvailable(base.resolve("clusters"))
        : KerberizedClusters.start(base.resolve("clusters"));
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
    // containers' class path names.
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
    // Every node of a kerberized cluster has a krb5.conf where Java looks; here every
    // container's JVM is told where MiniKdc's is.
    configuration.set(YarnConfiguration.NM_ADMIN_USER_ENV,
        "JAVA_HOME=" + System.getProperty("java.home")
            + ",JAVA_TOOL_OPTIONS=-Djava.security.krb5.conf=" + clusters.krb5Conf());
    configuration.setStrings(YarnConfiguration.YARN_APPLICATION_CLASSPATH,
        containerClassPath.toArray(String[]::new));
    // MiniYARNCluster works in a folder named after it (target/test/data/<name>), which it
    // empties as it starts: a name for each topology, as their test classes may run side by side.
    yarn = new MiniYARNCluster(highlyAvailable ? "relaycp-kerberized-ha" : "relaycp-kerberized",
        2, 1, 1);
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
  record Run(int exitCode, String out, List<String> errors) {}

  /**
   * relaycp with {@code arguments} started in a JVM of its own, as a user runs it, logged in as
   * alice from her keytab: its Kerberos login is JVM-wide, and this JVM's clusters serve as
   * hdfs. Its configuration is the source site's, first on its class path, as with
   * HADOOP_CONF_DIR set to it. Its output goes to {@code name}.out and .err in the base folder.
   */
  static Process startAsAlice(String name, List<String> arguments) throws Exception {
    List<String> login = List.of(
        "--principal", clusters.principal("alice"),
        "--keytab", clusters.keytab("alice").toString());
    return startDriver(name, arguments, login, Map.of());
  }

  /**
   * relaycp started as {@link #startAsAlice} does, but with no Kerberos login at all, only
   * alice's delegation tokens in the file {@code HADOOP_TOKEN_FILE_LOCATION} names: what an Oozie
   * launcher's {@code <java>} or {@code <shell>} action gives the program it runs.
   */
  static Process startWithTokens(String name, List<String> arguments, Path tokens)
      throws Exception {
    return startDriver(name, arguments, List.of(), Map.of(
        "HADOOP_TOKEN_FILE_LOCATION", tokens.toString(),
        // No ticket cache of this machine's to fall back on.
        "KRB5CCNAME", "FILE:" + base.resolve("no-ticket-cache")));
  }

  private static Process startDriver(String name, List<String> arguments, List<String> login,
      Map<String, String> environment) throws Exception {
    Path temporaryFiles = Files.createDirectories(base.resolve(name + "-tmp"));
    List<String> command = DriverCommand.of(temporaryFiles,
        "-Djava.security.krb5.conf=" + clusters.krb5Conf());
    int classPath = command.indexOf("-cp") + 1;
    command.set(classPath, base.resolve("src") + java.io.File.pathSeparator
        + command.get(classPath));
    command.addAll(arguments);
    command.addAll(login);
    command.addAll(List.of(
        "--src-conf", base.resolve("src").toString(),
        "--dst-conf", base.resolve("dst").toString(),
        "-D", YarnRelaySettings.JAR + "=" + System.getProperty("relaycp.product.jar"),
        "-D", YarnRelaySettings.MEMORY_MB + "=256",
        "-D", YarnRelaySettings.JAVA_OPTS + "=-Xmx160m"));
    ProcessBuilder driver = new ProcessBuilder(command)
        .redirectOutput(base.resolve(name + ".out").toFile())
        .redirectError(base.resolve(name + ".err").toFile());
    driver.environment().putAll(environment);
    return driver.start();
  }

  /** {@link #startAsAlice}, waited for. */
  static Run runAsAlice(String name, List<String> arguments) throws Exception {
    return waitFor(name, startAsAlice(name, arguments));
  }

  static Run waitFor(String name, Process driver) throws Exception {
    assertThat(driver.waitFor(240, TimeUnit.SECONDS)).as(name + " ends").isTrue();
    return new Run(driver.exitValue(), Files.readString(base.resolve(name + ".out")),
        Files.readAllLines(base.resolve(name + ".err")));
  }

  /** Every file of {@link #FILES} is under {@code target} on the destination, alice's. */
  static void assertCopiedAsAlice(String target) throws Exception {
    clusters.asSuperuser(() -> {
      try (FileSystem destination = FileSystem.newInstance(clusters.destinationUri("/"),
          clusters.configuration())) {
        for (Map.Entry<String, byte[]> file : FILES.entrySet()) {
          org.apache.hadoop.fs.Path copied =
              new org.apache.hadoop.fs.Path(target, file.getKey());
          try (var in = destination.open(copied)) {
            assertThat(in.readAllBytes()).as(file.getKey()).isEqualTo(file.getValue());
          }
          assertThat(destination.getFileStatus(copied).getOwner()).as(file.getKey())
              .isEqualTo("alice");
        }
      }
      return null;
    });
  }

  /**
   * Writes to {@code tokens} what an Oozie launcher holds for alice, and returns it: an HDFS
   * token for each cluster (taken with the ResourceManager as renewer, as Oozie takes them) and
   * one for the ResourceManager.
   */
  static Credentials writeLauncherTokens(Path tokens) throws Exception {
    return clusters.asUser("alice", () -> {
      Credentials credentials = new Credentials();
      String renewer = clusters.servicePrincipal();
      for (URI cluster : List.of(clusters.sourceUri("/"), clusters.destinationUri("/"))) {
        try (FileSystem files = FileSystem.newInstance(cluster, clusters.configuration())) {
          files.addDelegationTokens(renewer, credentials);
        }
      }
      try (YarnClient client = YarnClient.createYarnClient()) {
        client.init(yarn.getConfig());
        client.start();
        // The one ResourceManager here serves both sites; a launcher would hold its own
        // cluster's only (see examples/oozie/README.md).
        Text service = ClientRMProxy.getRMDelegationTokenService(yarn.getConfig());
        credentials.addToken(service, ConverterUtils.convertFromYarn(
            client.getRMDelegationToken(new Text(renewer)), service));
      }
      credentials.writeTokenStorageFile(
          new org.apache.hadoop.fs.Path(tokens.toUri()), clusters.configuration());
      return credentials;
    });
  }

  /**
   * No application whose name starts with {@code namePrefix} and ends with {@code nameEnd} runs
   * or holds a container, and no transfer folder is left in {@code stagingUser}'s staging on
   * either cluster (the relay jar cache stays).
   */
  static void assertNothingLeft(String namePrefix, String stagingUser, String nameEnd)
      throws Exception {
    assertNothingLeft(namePrefix, stagingUser, nameEnd, 2);
  }

  /** {@link #assertNothingLeft}, of a copy that started relays on {@code sites} sites. */
  static void assertNothingLeft(String namePrefix, String stagingUser, String nameEnd,
      int sites) throws Exception {
    clusters.asSuperuser(() -> {
      for (URI cluster : List.of(clusters.sourceUri("/"), clusters.destinationUri("/"))) {
        try (FileSystem files = FileSystem.newInstance(cluster, clusters.configuration())) {
          org.apache.hadoop.fs.Path staging =
              new org.apache.hadoop.fs.Path("/tmp/relaycp-staging", stagingUser);
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
            .filter(application -> application.getName().startsWith(namePrefix)
                && application.getName().endsWith(nameEnd))
            .toList();
        assertThat(applications).as("one application a site with relays YARN started")
            .hasSize(sites);
        for (ApplicationReport application : applications) {
          assertThat(application.getUser()).isEqualTo("alice");
          assertThat(application.getYarnApplicationState()).as(application.getName())
              .isIn(YarnApplicationState.FINISHED, YarnApplicationState.KILLED,
                  YarnApplicationState.FAILED);
        }
        // The ResourceManager stops an application's containers after it ends.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (liveContainers(client, applications) > 0 && System.nanoTime() < deadline) {
          Thread.sleep(250);
        }
        assertThat(liveContainers(client, applications)).as("containers").isZero();
      }
      return null;
    });
  }

  static int liveContainers(YarnClient client, List<ApplicationReport> applications)
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
