package dev.relaycp.provision;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.relaycp.cli.RelayCpCommand;
import dev.relaycp.cli.RelayCpTool;
import dev.relaycp.testkit.EmbeddedClusters;
import dev.relaycp.testkit.EmbeddedSite;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.ha.HAServiceProtocol;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.conf.HAUtil;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.MiniYARNCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * YARN relays under a ResourceManager pair, as production clusters run YARN: the sites'
 * configuration folders name the ResourceManagers by id ({@code yarn.resourcemanager.ha.rm-ids})
 * with no single address, the second of them active at first, and the pair keeps its
 * applications in a shared store, so that either can take over. The driver's YARN client, its
 * unmanaged ApplicationMaster and the NodeManagers find the active one through YARN's failover
 * proxy.
 */
class HighAvailabilityYarnRelaysIT {
  private static final int BLOCK = 256 * 1024;

  @TempDir static Path base;
  static EmbeddedClusters clusters;
  static MiniYARNCluster yarn;
  static byte[] data;

  @BeforeAll
  static void start() throws Exception {
    clusters = EmbeddedClusters.start(2, BLOCK);
    data = new byte[10 * BLOCK + 77];
    new Random(5).nextBytes(data);
    try (OutputStream out = clusters.source().getFileSystem()
        .create(new org.apache.hadoop.fs.Path("/data/blocks.bin"))) {
      out.write(data);
    }
    YarnConfiguration configuration = new YarnConfiguration();
    configuration.setBoolean(YarnConfiguration.RM_HA_ENABLED, true);
    // The NodeManagers reach the ResourceManagers by RPC through YARN's failover proxy, as on
    // a cluster (by default a MiniYARNCluster wires them to the first one in-process), which
    // needs every address given beforehand.
    configuration.setBoolean(YarnConfiguration.YARN_MINICLUSTER_FIXED_PORTS, true);
    configuration.setBoolean(YarnConfiguration.YARN_MINICLUSTER_USE_RPC, true);
    configuration.set(YarnConfiguration.RM_HA_IDS, "rm1,rm2");
    for (String id : List.of("rm1", "rm2")) {
      for (String key : YarnConfiguration.getServiceAddressConfKeys(configuration)) {
        configuration.set(HAUtil.addSuffix(key, id), "localhost:" + freePort());
      }
    }
    // No ZooKeeper here: the test makes a ResourceManager active as an administrator would.
    configuration.setBoolean(YarnConfiguration.AUTO_FAILOVER_ENABLED, false);
    configuration.setLong(YarnConfiguration.CLIENT_FAILOVER_SLEEPTIME_BASE_MS, 100);
    // What an HA pair keeps its applications in, so that one taking over knows them: here a
    // folder both share (a cluster's is ZooKeeper).
    configuration.setBoolean(YarnConfiguration.RECOVERY_ENABLED, true);
    configuration.set(YarnConfiguration.RM_STORE,
        "org.apache.hadoop.yarn.server.resourcemanager.recovery.FileSystemRMStateStore");
    configuration.set(YarnConfiguration.FS_RM_STATE_STORE_URI,
        base.resolve("rm-state").toUri().toString());
    configuration.setInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, 64);
    configuration.setBoolean(YarnConfiguration.NM_PMEM_CHECK_ENABLED, false);
    configuration.setBoolean(YarnConfiguration.NM_VMEM_CHECK_ENABLED, false);
    configuration.set(YarnConfiguration.NM_ADMIN_USER_ENV,
        "JAVA_HOME=" + System.getProperty("java.home"));
    configuration.setStrings(YarnConfiguration.YARN_APPLICATION_CLASSPATH,
        EmbeddedSite.classPathFrom(Path.of(System.getProperty("relaycp.hadoop.classpath")))
            .toArray(String[]::new));
    yarn = new MiniYARNCluster("relaycp-ha", 2, 2, 1, 1);
    yarn.init(configuration);
    yarn.start();
    // The cluster starts with its first ResourceManager active; the second takes over, so
    // that a client that tried only the first one listed would not find it.
    HAServiceProtocol.StateChangeRequestInfo byUser = new HAServiceProtocol.StateChangeRequestInfo(
        HAServiceProtocol.RequestSource.REQUEST_BY_USER);
    yarn.getResourceManager(0).getRMContext().getRMAdminService().transitionToStandby(byUser);
    yarn.getResourceManager(1).getRMContext().getRMAdminService().transitionToActive(byUser);
    assertThat(yarn.getActiveRMIndex()).isEqualTo(1);
    assertThat(yarn.waitForNodeManagersToConnect(60_000)).as("NodeManagers connected").isTrue();
    writeSiteFolder(base.resolve("src"), clusters.sourceUri("/"));
    writeSiteFolder(base.resolve("dst"), clusters.destinationUri("/"));
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  /** A site's configuration folder: both ResourceManagers by id, and its default file system. */
  private static void writeSiteFolder(Path folder, URI defaultFileSystem) throws Exception {
    Files.createDirectories(folder);
    Configuration site = new Configuration(yarn.getConfig());
    site.unset(YarnConfiguration.RM_ADDRESS);
    site.set(CommonConfigurationKeysPublic.FS_DEFAULT_NAME_KEY, defaultFileSystem.toString());
    assertThat(HAUtil.getRMHAIds(site)).hasSize(2);
    try (OutputStream out = Files.newOutputStream(folder.resolve("yarn-site.xml"))) {
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

  private record Result(int exitCode, String out, String err) {}

  private static Result copy(String target, String... options) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    List<String> arguments = new ArrayList<>(List.of("copy",
        clusters.sourceUri("/data").toString(), clusters.destinationUri(target).toString(),
        "--relays", "yarn", "--json", "--no-progress", "--no-history",
        "--src-conf", base.resolve("src").toString(),
        "--dst-conf", base.resolve("dst").toString(),
        "-D", YarnRelaySettings.JAR + "=" + System.getProperty("relaycp.product.jar"),
        "-D", YarnRelaySettings.MEMORY_MB + "=256",
        "-D", YarnRelaySettings.JAVA_OPTS + "=-Xmx160m",
        "-D", YarnRelaySettings.CLASS_DATA_ARCHIVE + "=false"));
    arguments.addAll(List.of(options));
    int exitCode = RelayCpTool.commandLine(new RelayCpCommand(new Configuration()),
        new PrintWriter(out, true), new PrintWriter(err, true))
        .execute(arguments.toArray(String[]::new));
    return new Result(exitCode, out.toString(), err.toString());
  }

  @Test
  void aCopyThroughYarnRelaysFindsTheActiveResourceManager() throws Exception {
    Result result = copy("/copy");

    assertVerified(result, "/copy");
  }

  @Test
  void aCopyDuringWhichTheResourceManagersFailOverEndsVerified() throws Exception {
    // About 10 s of copying at 256 KiB/s a relay, so that the failover falls within it.
    CompletableFuture<Result> copy = CompletableFuture.supplyAsync(() -> copy("/failed-over",
        "-D", "relaycp.relay.bytes-per-second-limit=262144"));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (!copying()) {
      assertThat(copy).as("the copy runs").isNotDone();
      assertThat(System.nanoTime()).as("the relays start").isLessThan(deadline);
      Thread.sleep(200);
    }
    int active = yarn.getActiveRMIndex();
    HAServiceProtocol.StateChangeRequestInfo byUser = new HAServiceProtocol.StateChangeRequestInfo(
        HAServiceProtocol.RequestSource.REQUEST_BY_USER);
    yarn.getResourceManager(active).getRMContext().getRMAdminService()
        .transitionToStandby(byUser);
    yarn.getResourceManager(1 - active).getRMContext().getRMAdminService()
        .transitionToActive(byUser);
    assertThat(copy).as("the copy outlived the failover's start").isNotDone();

    assertVerified(copy.get(180, TimeUnit.SECONDS), "/failed-over");
  }

  /**
   * Whether a copy has staged a block's bytes at the destination (its staging folder holds a
   * heartbeat from the start); this class runs one copy at a time.
   */
  private static boolean copying() throws IOException {
    try (FileSystem destination = FileSystem.newInstance(clusters.destinationUri("/"),
        new Configuration())) {
      var staging = destination.globStatus(new org.apache.hadoop.fs.Path("/.relaycp-staging-*"));
      long staged = 0;
      for (var folder : staging == null ? new org.apache.hadoop.fs.FileStatus[0] : staging) {
        staged += destination.getContentSummary(folder.getPath()).getLength();
      }
      return staged >= BLOCK;
    }
  }

  private static void assertVerified(Result result, String target) throws Exception {
    assertThat(result.exitCode()).as(result.err()).isZero();
    JsonNode summary = new ObjectMapper().readTree(result.out());
    assertThat(summary.get("verified").asBoolean()).isTrue();
    assertThat(summary.get("provisioner").asText()).isEqualTo("yarn");
    assertThat(summary.get("relaysStarted").get("src").asInt()).isPositive();
    try (FileSystem destination = FileSystem.newInstance(clusters.destinationUri("/"),
        new Configuration())) {
      try (var in = destination.open(new org.apache.hadoop.fs.Path(target, "blocks.bin"))) {
        assertThat(in.readAllBytes()).isEqualTo(data);
      }
    }
    try (YarnClient client = YarnClient.createYarnClient()) {
      client.init(new YarnConfiguration(yarn.getConfig()));
      client.start();
      List<ApplicationReport> applications = client.getApplications(
          Set.of(YarnSite.APPLICATION_TYPE)).stream()
          .filter(application -> application.getName().endsWith(target)).toList();
      assertThat(applications).as("both sites' applications, on the active ResourceManager")
          .hasSize(2).allMatch(application -> application.getYarnApplicationState()
              == YarnApplicationState.FINISHED);
    }
  }
}
