package dev.relaycp.provision;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.relaycp.config.RelayKeys;
import dev.relaycp.relay.TransferSecret;
import dev.relaycp.testkit.DriverCommand;
import dev.relaycp.testkit.EmbeddedSite;
import dev.relaycp.transfer.KerberizedClusters;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenIdentifier;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.security.token.TokenIdentifier;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.client.ClientRMProxy;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.MiniYARNCluster;
import org.apache.hadoop.yarn.util.ConverterUtils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * YARN relays on kerberized clusters: a KDC, two kerberized HDFS clusters ({@link
 * KerberizedClusters}) and a kerberized ResourceManager with two NodeManagers serving both
 * sites; the driver logs in as alice from her keytab, as a user's scheduled copy would, and
 * each site's ApplicationMaster runs in a container that hands its token on to the driver
 * (YARN gives an unmanaged one's to no Kerberos caller). Kerberos state is JVM-wide: this
 * class runs in a fork of its own ({@code @Tag("kerberos")}, relaycp/pom.xml).
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
  private record Run(int exitCode, String out, List<String> errors) {}

  /**
   * relaycp with {@code arguments} started in a JVM of its own, as a user runs it, logged in as
   * alice from her keytab: its Kerberos login is JVM-wide, and this JVM's clusters serve as
   * hdfs. Its configuration is the source site's, first on its class path, as with
   * HADOOP_CONF_DIR set to it. Its output goes to {@code name}.out and .err in the base folder.
   */
  private static Process startAsAlice(String name, List<String> arguments) throws Exception {
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
  private static Process startWithTokens(String name, List<String> arguments, Path tokens)
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
  private static Run runAsAlice(String name, List<String> arguments) throws Exception {
    return waitFor(name, startAsAlice(name, arguments));
  }

  private static Run waitFor(String name, Process driver) throws Exception {
    assertThat(driver.waitFor(240, TimeUnit.SECONDS)).as(name + " ends").isTrue();
    return new Run(driver.exitValue(), Files.readString(base.resolve(name + ".out")),
        Files.readAllLines(base.resolve(name + ".err")));
  }

  /**
   * alice copies through YARN relays on both sites: YARN gives an unmanaged ApplicationMaster's
   * token to no Kerberos caller (alice@REALM is not the application's user, alice), so each
   * site's ApplicationMaster runs in a container that hands its token on to the driver. The
   * relay containers hold no Kerberos login, only the tokens in their launch credentials, and
   * the files they write are alice's; nothing is left running or staged.
   */
  @Test
  void aliceCopiesThroughYarnRelaysOnKerberizedYarnAndTheCopiesAreHers() throws Exception {
    Run copy = runAsAlice("copy", List.of("copy",
        clusters.sourceUri("/shared/data").toString(),
        clusters.destinationUri("/user/alice/copy").toString(),
        "--relays", "yarn", "--json", "--no-progress", "--no-history"));

    assertThat(copy.exitCode()).as(String.join("\n", copy.errors())).isZero();
    JsonNode summary = new ObjectMapper().readTree(copy.out());
    assertThat(summary.get("verified").asBoolean()).isTrue();
    assertThat(summary.get("provisioner").asText()).isEqualTo("yarn");
    assertThat(summary.get("files").asInt()).isEqualTo(FILES.size());
    assertThat(summary.get("relaysStarted").get("src").asInt()).isPositive();
    assertThat(summary.get("relaysStarted").get("dst").asInt()).isPositive();
    assertCopiedAsAlice("/user/alice/copy");
    assertNothingLeft("relaycp hdfs://", "alice", "/user/alice/copy");
  }

  /** Every file of {@link #FILES} is under {@code target} on the destination, alice's. */
  private static void assertCopiedAsAlice(String target) throws Exception {
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
  private static Credentials writeLauncherTokens(Path tokens) throws Exception {
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
   * A driver that holds delegation tokens and no Kerberos login, as an Oozie launcher's action
   * does, copies through YARN relays: each site's ApplicationMaster container gets the HDFS
   * token the driver holds (taken with the ResourceManager as renewer, as Oozie takes them),
   * since asking for a new one needs a Kerberos login, and YARN leaves that token valid when the
   * applications end: it is the launcher's, for what its workflow does next.
   */
  @Test
  void aDriverHoldingOnlyTokensCopiesThroughYarnRelaysAndItsTokensOutliveTheCopy()
      throws Exception {
    Path tokens = base.resolve("launcher.tokens");
    Credentials launcher = writeLauncherTokens(tokens);
    assertThat(launcher.numberOfTokens()).as("two clusters' tokens and YARN's").isEqualTo(3);

    Run copy = waitFor("launcher", startWithTokens("launcher", List.of("copy",
        clusters.sourceUri("/shared/data").toString(),
        clusters.destinationUri("/user/alice/launcher").toString(),
        "--relays", "yarn", "--json", "--no-progress", "--no-history"), tokens));

    assertThat(copy.exitCode()).as(String.join("\n", copy.errors())).isZero();
    JsonNode summary = new ObjectMapper().readTree(copy.out());
    assertThat(summary.get("verified").asBoolean()).isTrue();
    assertThat(summary.get("provisioner").asText()).isEqualTo("yarn");
    assertCopiedAsAlice("/user/alice/launcher");
    // A launcher's process runs as its container's user, not as alice by name: its staging
    // folder is that user's.
    assertNothingLeft(
        "relaycp hdfs://", System.getProperty("user.name"), "/user/alice/launcher");
    // The tokens still work once YARN has ended both applications, for as long as YARN takes
    // to cancel an ended application's tokens (it hands them to a thread of its own).
    clusters.asSuperuser(() -> {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
      do {
        for (Token<? extends TokenIdentifier> token : launcher.getAllTokens()) {
          if (token.getKind().equals(DelegationTokenIdentifier.HDFS_DELEGATION_KIND)) {
            assertThat(token.renew(clusters.configuration()))
                .as(token.getService().toString()).isGreaterThan(System.currentTimeMillis());
          }
        }
        Thread.sleep(500);
      } while (System.nanoTime() < deadline);
      return null;
    });
  }

  /**
   * A launcher's driver (tokens only) lets YARN start relays on one cluster and copies through
   * relays that run already on the other, as a service logged in as itself (the relay processes
   * here log in as the clusters' service principal): the relays act for alice with the tokens
   * the driver hands them, the files are hers, and one application only was submitted.
   */
  @Test
  void aDriverHoldingOnlyTokensCopiesThroughYarnRelaysIntoRelaysRunningOnTheOtherCluster()
      throws Exception {
    writeLauncherTokens(base.resolve("across.tokens"));
    Path secretFile = base.resolve("across.secret");
    TransferSecret.generate().writeTo(secretFile);
    Map<String, String> properties = new LinkedHashMap<>();
    for (String key : List.of(
        CommonConfigurationKeysPublic.HADOOP_SECURITY_AUTHENTICATION,
        CommonConfigurationKeysPublic.HADOOP_SECURITY_AUTH_TO_LOCAL,
        DFSConfigKeys.DFS_NAMENODE_KERBEROS_PRINCIPAL_KEY,
        DFSConfigKeys.DFS_DATA_TRANSFER_PROTECTION_KEY)) {
      properties.put(key, clusters.configuration().get(key));
    }
    properties.put(RelayKeys.RELAY_JAVA_OPTS.key(),
        "-Djava.security.krb5.conf=" + clusters.krb5Conf());
    try (LocalRelayProcesses running = LocalRelayProcesses.start(1, secretFile, properties,
        List.of("--principal", clusters.servicePrincipal(),
            "--keytab", clusters.serviceKeytab().toString()), Optional.empty())) {
      String writer = running.routes().get(0).writer().toString();

      Run copy = waitFor("across", startWithTokens("across", List.of("copy",
          clusters.sourceUri("/shared/data").toString(),
          clusters.destinationUri("/user/alice/across").toString(),
          "--relays", "yarn", "--dst-relays", writer, "--secret-file", secretFile.toString(),
          "--json", "--no-progress", "--no-history"), base.resolve("across.tokens")));

      assertThat(copy.exitCode()).as(String.join("\n", copy.errors())).isZero();
      JsonNode summary = new ObjectMapper().readTree(copy.out());
      assertThat(summary.get("verified").asBoolean()).isTrue();
      assertThat(summary.get("relaysStarted").get("src").asInt()).isPositive();
      assertThat(summary.get("relaysStarted").get("dst").asInt()).isZero();
      assertCopiedAsAlice("/user/alice/across");
      assertNothingLeft(
          "relaycp hdfs://", System.getProperty("user.name"), "/user/alice/across", 1);
    }
  }

  /**
   * A driver killed outright: its ApplicationMaster containers, like its relays, stop once its
   * heartbeat is stale for the driver timeout, and YARN ends the applications with them; no
   * container is left.
   */
  @Test
  void afterTheDriverIsKilledNoContainerOutlivesTheDriverTimeout() throws Exception {
    Process driver = startAsAlice("killed", List.of("copy",
        clusters.sourceUri("/shared/data").toString(),
        clusters.destinationUri("/user/alice/killed").toString(),
        "--relays", "yarn", "--no-progress", "--no-history",
        "-D", YarnRelaySettings.DRIVER_TIMEOUT + "=10",
        "-D", "relaycp.relay.parallel-streams=1",
        "-D", "relaycp.relay.bytes-per-second-limit=65536"));
    clusters.asSuperuser(() -> {
      try (YarnClient client = YarnClient.createYarnClient()) {
        client.init(yarn.getConfig());
        client.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        List<ApplicationReport> applications = copiesTo(client, "/user/alice/killed");
        // Both sites' ApplicationMaster containers and a relay of each.
        while (liveContainers(client, applications) < 4) {
          assertThat(driver.isAlive()).as(Files.readString(base.resolve("killed.err")))
              .isTrue();
          assertThat(System.nanoTime()).as("the relays run").isLessThan(deadline);
          Thread.sleep(200);
          applications = copiesTo(client, "/user/alice/killed");
        }
        driver.destroyForcibly().waitFor();

        deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (liveContainers(client, applications) > 0 && System.nanoTime() < deadline) {
          Thread.sleep(500);
        }
        assertThat(liveContainers(client, applications))
            .as("containers of the killed driver's applications").isZero();
        for (ApplicationReport application : copiesTo(client, "/user/alice/killed")) {
          assertThat(application.getYarnApplicationState()).as(application.getName())
              .isIn(YarnApplicationState.FAILED, YarnApplicationState.KILLED,
                  YarnApplicationState.FINISHED);
        }
      }
      return null;
    });
  }

  /** The relay applications of copies into {@code target} on the destination. */
  private static List<ApplicationReport> copiesTo(YarnClient client, String target)
      throws Exception {
    return client.getApplications(java.util.Set.of(YarnSite.APPLICATION_TYPE)).stream()
        .filter(application -> application.getName().endsWith(target))
        .toList();
  }

  /**
   * A relay pool on kerberized YARN: its containers come up through ApplicationMaster
   * containers as a copy's do, a copy through the pool verifies, and removing the pool file
   * ends the pool and leaves nothing running or staged.
   */
  @Test
  void aRelayPoolOnKerberizedYarnServesACopyAndEndsWhenItsFileIsRemoved() throws Exception {
    Path poolFile = base.resolve("pool.json");
    Process pool = startAsAlice("pool", List.of("relay-pool", "--pool-file",
        poolFile.toString(), "--for", "10m"));
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (!Files.exists(poolFile)) {
        assertThat(pool.isAlive()).as(Files.readString(base.resolve("pool.err"))).isTrue();
        assertThat(System.nanoTime()).as("the pool file is written").isLessThan(deadline);
        Thread.sleep(200);
      }
      Run copy = runAsAlice("pool-copy", List.of("copy",
          clusters.sourceUri("/shared/data").toString(),
          clusters.destinationUri("/user/alice/pool-copy").toString(),
          "--relay-pool", poolFile.toString(), "--json", "--no-progress", "--no-history"));

      assertThat(copy.exitCode()).as(String.join("\n", copy.errors())).isZero();
      JsonNode summary = new ObjectMapper().readTree(copy.out());
      assertThat(summary.get("verified").asBoolean()).isTrue();
      assertThat(summary.get("provisioner").asText()).isEqualTo("yarn-pool");
      assertThat(summary.get("files").asInt()).isEqualTo(FILES.size());
    } finally {
      Files.deleteIfExists(poolFile);
    }
    assertThat(pool.waitFor(60, TimeUnit.SECONDS)).as("the pool ends").isTrue();
    assertThat(pool.exitValue()).as(Files.readString(base.resolve("pool.err"))).isZero();
    assertNothingLeft("relaycp relay pool ", "alice", "");
  }

  /**
   * No application whose name starts with {@code namePrefix} and ends with {@code nameEnd} runs
   * or holds a container, and no transfer folder is left in {@code stagingUser}'s staging on
   * either cluster (the relay jar cache stays).
   */
  private static void assertNothingLeft(String namePrefix, String stagingUser, String nameEnd)
      throws Exception {
    assertNothingLeft(namePrefix, stagingUser, nameEnd, 2);
  }

  /** {@link #assertNothingLeft}, of a copy that started relays on {@code sites} sites. */
  private static void assertNothingLeft(String namePrefix, String stagingUser, String nameEnd,
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
