package dev.relaycp.provision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.relaycp.cli.RelayCpCommand;
import dev.relaycp.cli.RelayCpTool;
import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.fs.BestEffortDelete;
import dev.relaycp.fs.ReplacedFile;
import dev.relaycp.relay.PortRange;
import dev.relaycp.relay.RelayServer;
import dev.relaycp.relay.RelaySettings;
import dev.relaycp.relay.TransferSecret;
import dev.relaycp.testkit.DemoDataset;
import dev.relaycp.testkit.DriverCommand;
import dev.relaycp.testkit.EmbeddedHdfs;
import dev.relaycp.testkit.EmbeddedSite;
import dev.relaycp.testkit.EmbeddedSites;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.log4j.AppenderSkeleton;
import org.apache.log4j.Level;
import org.apache.log4j.Logger;
import org.apache.log4j.spi.LoggingEvent;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerReport;
import org.apache.hadoop.yarn.api.records.SignalContainerCommand;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Relays as YARN containers: a MiniDFSCluster and a MiniYARNCluster per site, the product
 * jar localized into real container processes that run on a Hadoop installation's class
 * path, and the driver as a user runs it (the CLI, or a JVM of its own to be killed).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class YarnRelaysIT {
  private static final long BLOCK = 256 * 1024;
  private static final int NODES = 2;
  private static final String TYPE = YarnSite.APPLICATION_TYPE;
  static EmbeddedSites sites;
  static EmbeddedSite source;
  static EmbeddedSite destination;
  static Path configurations;

  @TempDir Path temporary;

  @BeforeAll
  static void startSites() throws IOException {
    List<String> hadoop = EmbeddedSite.classPathFrom(
        Path.of(System.getProperty("relaycp.hadoop.classpath")));
    sites = EmbeddedSites.start(NODES, BLOCK, hadoop);
    source = sites.source();
    destination = sites.destination();
    configurations = Files.createTempDirectory("relaycp-yarn-it-conf-");
    source.writeConfigurationFolder(configurations.resolve("src"));
    destination.writeConfigurationFolder(configurations.resolve("dst"));
    FileSystem sourceFiles =
        FileSystem.get(source.uri("/"), EmbeddedHdfs.clientConfiguration());
    DemoDataset.write(sourceFiles, new org.apache.hadoop.fs.Path("/demo"), BLOCK, 30, 12, 11L);
    // 24 MiB in 96 blocks: long enough, at a limited rate, to lose a relay in the middle and
    // have work left for its replacement.
    try (FSDataOutputStream out = sourceFiles.create(new org.apache.hadoop.fs.Path("/big/a.bin"),
        true, 4096, (short) 1, BLOCK)) {
      byte[] block = new byte[(int) BLOCK];
      for (int index = 0; index < 96; index++) {
        java.util.Arrays.fill(block, (byte) index);
        out.write(block);
      }
    }
  }

  /** Keeps the warnings logged to the loggers it is added to. */
  private static final class Warnings extends AppenderSkeleton {
    private final List<String> messages = new CopyOnWriteArrayList<>();

    @Override
    protected void append(LoggingEvent event) {
      if (event.getLevel().isGreaterOrEqual(Level.WARN)) {
        messages.add(event.getRenderedMessage());
      }
    }

    List<String> messages() {
      return List.copyOf(messages);
    }

    @Override
    public void close() {}

    @Override
    public boolean requiresLayout() {
      return false;
    }
  }

  @AfterAll
  static void stopSites() {
    try {
      sites.close();
    } finally {
      FileUtil.fullyDelete(configurations.toFile());
    }
  }

  record Result(int exitCode, String out, String err) {
    JsonNode json() throws IOException {
      return new ObjectMapper().readTree(out);
    }
  }

  /** {@code copy SRC DST} through YARN relays on both sites, as these tests run it. */
  private static List<String> copyArguments(String sourcePath, String target) {
    return new ArrayList<>(List.of("copy", source.uri(sourcePath).toString(),
        destination.uri(target).toString(), "--relays", "yarn",
        "--src-conf", configurations.resolve("src").toString(),
        "--dst-conf", configurations.resolve("dst").toString(),
        "-D", YarnRelaySettings.JAR + "=" + System.getProperty("relaycp.product.jar"),
        "-D", YarnRelaySettings.MEMORY_MB + "=256",
        "-D", YarnRelaySettings.JAVA_OPTS + "=-Xmx160m",
        "--no-progress", "--no-history"));
  }

  private static Result copy(String sourcePath, String target, String... options) {
    List<String> args = copyArguments(sourcePath, target);
    args.add("--json");
    args.addAll(List.of(options));
    return run(args);
  }

  /** relaycp run in this JVM with {@code args}, as a user's command line. */
  private static Result run(List<String> args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = RelayCpTool.commandLine(new RelayCpCommand(new Configuration()),
        new PrintWriter(out, true), new PrintWriter(err, true)).execute(args.toArray(String[]::new));
    return new Result(code, out.toString(), err.toString());
  }

  private static void awaitNoRelayContainers(long seconds) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (System.nanoTime() < deadline) {
      if (source.liveContainers(TYPE).isEmpty() && destination.liveContainers(TYPE).isEmpty()) {
        return;
      }
      Thread.sleep(250);
    }
    assertThat(source.liveContainers(TYPE)).as("source relay containers").isEmpty();
    assertThat(destination.liveContainers(TYPE)).as("destination relay containers").isEmpty();
  }

  private static List<ContainerReport> awaitRelayContainers(EmbeddedSite site, int count)
      throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    List<ContainerReport> live = site.liveContainers(TYPE);
    while (live.size() < count && System.nanoTime() < deadline) {
      Thread.sleep(200);
      live = site.liveContainers(TYPE);
    }
    assertThat(live).as(site.name() + " relay containers").hasSizeGreaterThanOrEqualTo(count);
    return live;
  }

  /**
   * Waits until {@code count} relays announced themselves in the site's staging folder, and
   * returns the container ids of those that have.
   */
  private static List<String> awaitAnnouncedRelays(EmbeddedSite site, int count)
      throws Exception {
    FileSystem files = FileSystem.get(site.uri("/"), new Configuration());
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (System.nanoTime() < deadline) {
      var found = files.globStatus(
          new org.apache.hadoop.fs.Path("/tmp/relaycp-staging/*/*/relays/container_*"));
      // Each relay's announcement is named CONTAINER_ID@HOST%3APORT; beside it a relay making
      // its node's class-data archive says so in CONTAINER_ID!busy, which is no announcement.
      List<String> announced = found == null ? List.of() : java.util.Arrays.stream(found)
          .map(status -> status.getPath().getName())
          .filter(name -> name.indexOf('@') > 0)
          .map(name -> name.substring(0, name.indexOf('@')))
          .toList();
      if (announced.size() >= count) {
        return announced;
      }
      Thread.sleep(200);
    }
    throw new AssertionError(site.name() + ": fewer than " + count + " relays announced");
  }

  /** The source relays announced, once at least one is and each can have a partner. */
  private static List<String> awaitSourceRelaysWithPartners() throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (System.nanoTime() < deadline) {
      List<String> sources = awaitAnnouncedRelays(source, 1);
      if (awaitAnnouncedRelays(destination, 1).size() >= sources.size()) {
        // The driver pairs what it sees within a quarter second: a source relay announced
        // after this listing, and before a destination relay for it, could take the partner
        // of one listed. So the same sources, each with a partner, for a whole second.
        Thread.sleep(1_000);
        List<String> again = awaitAnnouncedRelays(source, 1);
        if (again.equals(sources) && awaitAnnouncedRelays(destination, 1).size() >= again.size()) {
          return sources;
        }
      }
      Thread.sleep(200);
    }
    throw new AssertionError("fewer destination relays than source relays announced");
  }

  /** Kills the source site's relay containers {@code containers}, as a node's loss would. */
  private static void killSourceRelays(java.util.Collection<String> containers)
      throws Exception {
    try (YarnClient client = YarnClient.createYarnClient()) {
      client.init(source.configuration());
      client.start();
      for (String container : containers) {
        client.signalToContainer(ContainerId.fromString(container),
            SignalContainerCommand.FORCEFUL_SHUTDOWN);
      }
    }
  }

  /**
   * Waits until a copy has staged {@code bytes} at {@code site} (its staging folder beside the
   * target, at the root), while {@code copy} runs.
   */
  private static void awaitStagedBytes(EmbeddedSite site, long bytes,
      CompletableFuture<Result> copy) throws Exception {
    FileSystem files = FileSystem.get(site.uri("/"), new Configuration());
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (System.nanoTime() < deadline) {
      assertThat(copy).as("the copy runs until it has staged " + bytes + " bytes").isNotDone();
      var staging = files.globStatus(new org.apache.hadoop.fs.Path("/.relaycp-staging-*"));
      long staged = 0;
      for (var folder : staging == null ? new org.apache.hadoop.fs.FileStatus[0] : staging) {
        staged += files.getContentSummary(folder.getPath()).getLength();
      }
      if (staged >= bytes) {
        return;
      }
      Thread.sleep(100);
    }
    throw new AssertionError("the copy staged fewer than " + bytes + " bytes in 120 s");
  }

  /**
   * What is left of the copies in the relays' staging folder of {@code site}, for messages:
   * everything but the relay jar kept for the next copy.
   */
  /** Removes what {@link #staged} lists. */
  private static void removeStaging(EmbeddedSite site) throws IOException {
    FileSystem files = FileSystem.get(site.uri("/"), new Configuration());
    for (String left : staged(site)) {
      files.delete(new org.apache.hadoop.fs.Path(left), true);
    }
  }

  private static List<String> staged(EmbeddedSite site) throws IOException {
    FileSystem files = FileSystem.get(site.uri("/"), new Configuration());
    org.apache.hadoop.fs.Path staging = new org.apache.hadoop.fs.Path("/tmp/relaycp-staging");
    List<String> left = new ArrayList<>();
    if (!files.exists(staging)) {
      return left;
    }
    for (var user : files.listStatus(staging)) {
      for (var entry : files.listStatus(user.getPath())) {
        if (!entry.getPath().getName().equals(RelayJarCache.FOLDER)) {
          left.add(entry.getPath().toUri().getPath());
        }
      }
    }
    return left;
  }

  /** What {@link #staged} finds on the source and the destination, together. */
  private static List<String> stagedOnBothSites() throws IOException {
    List<String> staged = new ArrayList<>(staged(source));
    staged.addAll(staged(destination));
    return staged;
  }

  /** The relay jars kept in {@code site}'s staging folder for later copies. */
  private static List<String> cachedJars(EmbeddedSite site) throws IOException {
    FileSystem files = FileSystem.get(site.uri("/"), new Configuration());
    var found = files.globStatus(new org.apache.hadoop.fs.Path(
        "/tmp/relaycp-staging/*/" + RelayJarCache.FOLDER + "/*"));
    List<String> jars = new ArrayList<>();
    for (var status : found == null ? new org.apache.hadoop.fs.FileStatus[0] : found) {
      jars.add(status.getPath().getName() + "@" + status.getModificationTime());
    }
    return jars;
  }

  /**
   * A transfer folder as a driver killed two days ago left it, in {@code site}'s staging:
   * nothing ran there to remove it.
   */
  private static org.apache.hadoop.fs.Path leaveStaleTransferFolder(EmbeddedSite site)
      throws IOException {
    FileSystem files = FileSystem.get(site.uri("/"), new Configuration());
    String user = UserGroupInformation.getCurrentUser().getShortUserName();
    org.apache.hadoop.fs.Path folder = new org.apache.hadoop.fs.Path(
        "/tmp/relaycp-staging/" + user + "/" + UUID.randomUUID());
    org.apache.hadoop.fs.Path heartbeat = new org.apache.hadoop.fs.Path(folder, "heartbeat");
    files.mkdirs(new org.apache.hadoop.fs.Path(folder, "relays"));
    files.create(heartbeat, true).close();
    long twoDaysAgo = System.currentTimeMillis() - TimeUnit.DAYS.toMillis(2);
    files.setTimes(heartbeat, twoDaysAgo, -1);
    files.setTimes(folder, twoDaysAgo, -1);
    return folder;
  }

  /**
   * The first copy on these NodeManagers: its relays make their node's class-data archive,
   * which takes longer than this small copy, so the driver keeps them until it is made. A
   * transfer folder a killed driver left on each site is removed as well.
   */
  @Test
  @Order(1)
  void copiesThroughYarnRelaysOnBothSitesAndLeavesNothingRunning() throws Exception {
    leaveStaleTransferFolder(source);
    leaveStaleTransferFolder(destination);
    Result result = copy("/demo", "/copy-demo",
        "-D", YarnRelaySettings.CLASS_DATA_WAIT + "=120");
    List<String> jarsAfterOneCopy = cachedJars(source);

    assertThat(result.exitCode()).as(result.err()).isZero();
    JsonNode summary = result.json();
    assertThat(summary.get("verified").asBoolean()).isTrue();
    assertThat(summary.get("provisioner").asText()).isEqualTo("yarn");
    assertThat(summary.get("relaysStarted").get("src").asInt()).isEqualTo(NODES);
    assertThat(summary.get("relaysStarted").get("dst").asInt()).isEqualTo(NODES);
    // The copy starts on the first pair; a small copy may end before the second pair is up.
    assertThat(summary.get("routes").asInt()).isBetween(1, NODES);
    assertThat(summary.get("localReadFraction").asDouble()).isGreaterThanOrEqualTo(0.9);
    awaitNoRelayContainers(30);
    assertThat(staged(source)).as("source staging left").isEmpty();
    assertThat(staged(destination)).as("destination staging left").isEmpty();
    assertThat(jarsAfterOneCopy).as("the relay jar, kept for the next copy").hasSize(1);
    assertThat(cachedJars(destination)).hasSize(1);
    // Every NodeManager here is "localhost", so a site's two relays may run on one of them,
    // which then has the one archive both made.
    for (EmbeddedSite site : List.of(source, destination)) {
      List<String> kept = site.filesIn("relaycp-class-data").stream()
          .map(file -> file.getFileName().toString()).toList();
      assertThat(kept).as(site.name() + " nodes' class-data archives, made while the driver"
          + " kept the relays").filteredOn(name -> name.endsWith(".jsa")).isNotEmpty()
          .allMatch(name -> name.startsWith("relay-"));
      assertThat(kept).as("no dump cut off mid-way").noneMatch(name -> name.contains(".part-"));
    }
    // Each relay logs into its container's syslog (ContainerLogConfigurator), in YARN's layout.
    for (EmbeddedSite site : List.of(source, destination)) {
      List<String> announced = new ArrayList<>();
      for (Path syslog : site.containerLogs("syslog")) {
        Files.readAllLines(syslog).stream().filter(line -> line.contains("Announced "))
            .forEach(announced::add);
      }
      assertThat(announced).as(site.name() + " relays' announcements in their syslog")
          .hasSizeGreaterThanOrEqualTo(NODES)
          .allMatch(line -> line.matches("\\d{4}-\\d\\d-\\d\\d [0-9:,]+ INFO \\[main\\]"
              + " dev\\.relaycp\\.provision\\.ProvisionedRelay: Announced .*"));
    }

    Result again = copy("/demo", "/copy-demo-again");

    assertThat(again.exitCode()).as(again.err()).isZero();
    assertThat(cachedJars(source)).as("the same jar, not staged again")
        .isEqualTo(jarsAfterOneCopy);
  }

  @Test
  void aCopyWhoseListingFailsReleasesTheRelaysItBeganBeforeItReturns() throws Exception {
    // The applications begin while the source is listed; a source that does not exist ends
    // the copy before it asks for the relays.
    Result result = copy("/no-such-tree", "/copy-of-nothing");

    assertThat(result.exitCode()).isNotZero();
    assertThat(result.err()).contains("/no-such-tree");
    assertThat(staged(source)).as("source staging left when the copy returned").isEmpty();
    assertThat(staged(destination)).as("destination staging left when the copy returned")
        .isEmpty();
    awaitNoRelayContainers(30);
  }

  /**
   * The destination's staging cannot be made (the folder it goes in is at its namespace quota),
   * which fails the copy just after its listing, while the relays it began during the listing
   * still start: their start is interrupted, and they are closed from the interrupted thread,
   * where every call to a ResourceManager or file system fails at once unless the interrupt is
   * set aside. The applications must end at once, not when the ResourceManager gives up on
   * their ApplicationMasters ten minutes later.
   */
  @Test
  void aCopyThatFailsWhileItsRelaysStartEndsBothApplicationsBeforeItReturns() throws Exception {
    DistributedFileSystem destinationFiles =
        (DistributedFileSystem) FileSystem.get(destination.uri("/"), new Configuration());
    org.apache.hadoop.fs.Path full = new org.apache.hadoop.fs.Path("/full-folder");
    destinationFiles.mkdirs(full);
    destinationFiles.setQuota(full, 1, HdfsConstants.QUOTA_DONT_SET);
    Warnings warnings = new Warnings();
    List<Logger> watched = List.of(Logger.getLogger(YarnSite.class),
        Logger.getLogger(BestEffortDelete.class));
    watched.forEach(logger -> logger.addAppender(warnings));
    Result result;
    try {
      result = copy("/demo", "/full-folder/copy");
    } finally {
      watched.forEach(logger -> logger.removeAppender(warnings));
    }

    assertThat(result.exitCode()).as(result.err()).isNotZero();
    // An interrupted call may still have reached its server, so the end state alone cannot
    // tell; what the close could not do, it says.
    assertThat(warnings.messages()).as("what closing the relays could not do").isEmpty();
    assertThat(result.err()).containsIgnoringCase("quota");
    assertThat(source.liveApplications(TYPE)).as("source applications left running").isEmpty();
    assertThat(destination.liveApplications(TYPE)).as("destination applications left running")
        .isEmpty();
    assertThat(staged(source)).as("source staging left when the copy returned").isEmpty();
    assertThat(staged(destination)).as("destination staging left when the copy returned")
        .isEmpty();
    awaitNoRelayContainers(30);
  }

  /**
   * Relay containers whose JVM cannot start (here an option it refuses; on a cluster, as often
   * a Java older than the jar's) fail the copy once every one has ended and none may replace
   * it, with what the JVM said, not when the start timeout runs out ("no relay container
   * announced itself ... within 900 s"); nothing is left running, staged or written.
   */
  @Test
  void relaysWhoseJvmCannotStartFailTheCopyAtOnceWithWhatTheJvmSaid() throws Exception {
    List<String> stagedBefore = stagedOnBothSites();
    long started = System.nanoTime();
    Result result = copy("/demo", "/copy-never-started",
        "-D", YarnRelaySettings.START_TIMEOUT + "=900",
        "-D", YarnRelaySettings.JAVA_OPTS + "=-Xmx160m -XX:+NoSuchRelayOption");
    long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);

    assertThat(result.exitCode()).as(result.err()).isEqualTo(4);
    assertThat(result.err().strip()).startsWith("relaycp: no relay container announced itself")
        .contains("containers all ended first, the last with exit 1:")
        .contains("Unrecognized VM option 'NoSuchRelayOption'")
        .contains("yarn logs -applicationId").doesNotContain("\n");
    assertThat(seconds).as("returned before the start timeout ran out").isLessThan(600);
    assertNothingLeftOf("/copy-never-started", stagedBefore);
    assertThat(FileSystem.get(destination.uri("/"), new Configuration())
        .exists(new org.apache.hadoop.fs.Path("/copy-never-started"))).isFalse();
  }

  /**
   * No application of the copy into {@code target} runs on either site and no staging folder
   * but those in {@code stagedBefore} is left: other tests' copies (a killed driver's, whose
   * application YARN ends only later) may still be there, whatever order the tests run in.
   */
  private static void assertNothingLeftOf(String target, List<String> stagedBefore)
      throws Exception {
    for (EmbeddedSite site : List.of(source, destination)) {
      assertThat(site.liveApplications(TYPE)).as(site.name() + " applications left running")
          .noneMatch(application -> application.getName().endsWith(target));
      assertThat(staged(site)).as(site.name() + " staging left")
          .allMatch(stagedBefore::contains);
    }
  }

  /**
   * Relay containers larger than the cluster's largest are a request YARN can never grant: a
   * user error (exit 3) that names the settings to change, not a start failure worth a retry;
   * nothing is left.
   */
  @Test
  void relayContainersLargerThanTheClusterAllowsAreAUserErrorNamingTheSetting()
      throws Exception {
    List<String> stagedBefore = stagedOnBothSites();
    Result result = copy("/demo", "/copy-too-large",
        "-D", YarnRelaySettings.MEMORY_MB + "=100000");

    assertThat(result.exitCode()).as(result.err()).isEqualTo(3);
    assertThat(result.err().strip()).startsWith("relaycp: the ")
        .contains("ResourceManager refused the relay containers asked for")
        .contains("maximum allowed allocation")
        .contains("ask for what it allows with " + YarnRelaySettings.MEMORY_MB)
        .doesNotContain("\n");
    assertNothingLeftOf("/copy-too-large", stagedBefore);
  }

  /**
   * A queue the cluster does not have is a user error (exit 3) naming the setting, not a start
   * failure worth a retry; nothing is left.
   */
  @Test
  void aQueueTheClusterDoesNotHaveIsAUserErrorNamingTheSetting() throws Exception {
    List<String> stagedBefore = stagedOnBothSites();
    Result result = copy("/demo", "/copy-no-such-queue",
        "-D", YarnRelaySettings.QUEUE + "=no-such-queue");

    assertThat(result.exitCode()).as(result.err()).isEqualTo(3);
    assertThat(result.err().strip()).startsWith("relaycp: the ")
        .contains("no-such-queue").contains(YarnRelaySettings.QUEUE).doesNotContain("\n");
    assertNothingLeftOf("/copy-no-such-queue", stagedBefore);
    assertThat(FileSystem.get(destination.uri("/"), new Configuration())
        .exists(new org.apache.hadoop.fs.Path("/copy-no-such-queue"))).isFalse();
  }

  /**
   * relaycp.relay.port-range, as a firewall between datacenters asks: every relay container of
   * the copy listens on a port of the range (each says where in its syslog as it announces
   * itself); a value that is no range is refused before anything starts.
   */
  @Test
  void relayContainersListenOnPortsOfTheRangeGiven() throws Exception {
    int first;
    try (ServerSocket probe = new ServerSocket(0)) {
      first = Math.min(probe.getLocalPort(), 65_000);
    }
    PortRange range = new PortRange(first, first + 39);
    Result result = copy("/demo", "/copy-port-range",
        "-D", "relaycp.relay.port-range=" + range);

    assertThat(result.exitCode()).as(result.err()).isZero();
    assertThat(result.json().get("verified").asBoolean()).isTrue();
    for (EmbeddedSite site : List.of(source, destination)) {
      List<String> applications = everSubmittedIds(site, "/copy-port-range");
      assertThat(applications).as(site.name() + " applications").hasSize(1);
      List<Integer> ports = new ArrayList<>();
      for (Path syslog : site.containerLogs("syslog")) {
        if (syslog.toString().contains(applications.get(0))) {
          Files.readAllLines(syslog).stream()
              .map(ANNOUNCED::matcher).filter(Matcher::find)
              .forEach(found -> ports.add(Integer.parseInt(found.group(1))));
        }
      }
      assertThat(ports).as(site.name() + " relays' ports").isNotEmpty()
          .allMatch(range::contains);
    }

    Result refused = copy("/demo", "/copy-no-range", "-D", "relaycp.relay.port-range=50100-");

    assertThat(refused.exitCode()).as(refused.err()).isEqualTo(3);
    assertThat(refused.err().strip()).isEqualTo("relaycp: relaycp.relay.port-range must be"
        + " FIRST-LAST (ports 1 to 65535, e.g. 50100-50199) or one port, got '50100-'");
    assertThat(everSubmittedIds(source, "/copy-no-range")).isEmpty();
    assertThat(everSubmittedIds(destination, "/copy-no-range")).isEmpty();
  }

  private static final Pattern ANNOUNCED = Pattern.compile("Announced [^ ]+:(\\d+) as ");

  /** The ids of the relaycp applications ever submitted on {@code site} for {@code target}. */
  private static List<String> everSubmittedIds(EmbeddedSite site, String target)
      throws Exception {
    try (YarnClient client = YarnClient.createYarnClient()) {
      client.init(site.configuration());
      client.start();
      return client.getApplications(Set.of(TYPE)).stream()
          .filter(report -> report.getName().endsWith(target))
          .map(report -> report.getApplicationId().toString()).toList();
    }
  }

  /**
   * One site's relays run already (started by hand, as on a cluster whose YARN the driver may
   * not use) and YARN starts the other's: the copy pairs the containers with the running relays
   * both ways round, verifies, starts nothing on the running relays' cluster, and leaves those
   * relays running, as they were, while ending its own containers.
   */
  @Test
  void yarnRelaysOnOneSiteCopyThroughRelaysRunningOnTheOther() throws Exception {
    TransferSecret secret = TransferSecret.generate();
    Path secretFile = temporary.resolve("secret");
    secret.writeTo(secretFile);
    List<RelayServer> running = new ArrayList<>();
    try {
      String addresses = startRunningRelays(secret, running);
      List<String> stagedBefore = stagedOnBothSites();

      Result intoRunning = copyAcross("/demo", "/copy-into-running", "yarn", addresses,
          secretFile);

      assertThat(intoRunning.exitCode()).as(intoRunning.err()).isZero();
      JsonNode summary = intoRunning.json();
      assertThat(summary.get("verified").asBoolean()).isTrue();
      assertThat(summary.get("provisioner").asText()).isEqualTo("yarn");
      assertThat(summary.get("relaysStarted").get("src").asInt()).isEqualTo(NODES);
      assertThat(summary.get("relaysStarted").get("dst").asInt()).isZero();
      assertThat(running.stream().mapToLong(relay -> relay.counters().chunksWritten()).sum())
          .as("chunks the running destination relays wrote").isPositive();
      assertThat(everSubmittedIds(destination, "/copy-into-running"))
          .as("applications on the destination, whose relays run already").isEmpty();
      assertNothingLeftOf("/copy-into-running", stagedBefore);

      Result fromRunning = copyAcross("/demo", "/copy-from-running", addresses, "yarn",
          secretFile);

      assertThat(fromRunning.exitCode()).as(fromRunning.err()).isZero();
      summary = fromRunning.json();
      assertThat(summary.get("verified").asBoolean()).isTrue();
      assertThat(summary.get("relaysStarted").get("src").asInt()).isZero();
      assertThat(summary.get("relaysStarted").get("dst").asInt()).isEqualTo(NODES);
      assertThat(running.stream().mapToLong(relay -> relay.counters().chunksRead()).sum())
          .as("chunks the running source relays read").isPositive();
      assertThat(everSubmittedIds(source, "/copy-from-running"))
          .as("applications on the source, whose relays run already").isEmpty();
      assertNothingLeftOf("/copy-from-running", stagedBefore);

      // Named with another secret than theirs, the running relays refuse YARN's: the copy
      // fails saying so, as the user's to fix (exit 3), and nothing is written.
      Path otherSecret = temporary.resolve("other-secret");
      TransferSecret.generate().writeTo(otherSecret);
      Result refused = copyAcross("/demo", "/copy-wrong-secret", "yarn", addresses,
          otherSecret);

      assertThat(refused.exitCode()).as(refused.err()).isEqualTo(3);
      assertThat(refused.err().strip()).startsWith("relaycp: every route failed")
          .containsPattern("writer relay 127\\.0\\.0\\.1:\\d+ refused the reader relay at ")
          .contains("different secrets").doesNotContain("\n");
      assertNothingLeftOf("/copy-wrong-secret", stagedBefore);
      assertThat(FileSystem.get(destination.uri("/"), new Configuration())
          .exists(new org.apache.hadoop.fs.Path("/copy-wrong-secret"))).isFalse();
      awaitNoRelayContainers(30);
      for (RelayServer relay : running) {
        try (Socket connection = new Socket()) {
          connection.connect(relay.localAddress(), 5_000);
        }
      }
    } finally {
      running.forEach(RelayServer::close);
    }
  }

  /**
   * A running relay named across from YARN's that nobody runs (a wrong port, a host down):
   * the copy fails saying which relay it could not reach, once the reader relays have given up
   * on it and not when the stall deadline runs out (here 300 s), and leaves no container,
   * staging folder or file behind.
   */
  @Test
  void aRunningRelayThatIsNotThereFailsTheCopyAndLeavesNothing() throws Exception {
    Path secretFile = temporary.resolve("secret");
    TransferSecret.generate().writeTo(secretFile);
    int closed;
    try (ServerSocket probe = new ServerSocket(0)) {
      closed = probe.getLocalPort();
    }
    List<String> stagedBefore = stagedOnBothSites();

    long started = System.nanoTime();
    List<String> args = copyArguments("/demo", "/copy-into-nobody");
    args.addAll(List.of("--dst-relays", "127.0.0.1:" + closed,
        "--secret-file", secretFile.toString(), "-D", "relaycp.copy.stall-seconds=300"));
    Result result = run(args);
    long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);

    assertThat(result.exitCode()).as(result.err()).isEqualTo(4);
    assertThat(result.err().strip()).startsWith("relaycp: every route failed")
        .contains("cannot reach writer relay 127.0.0.1:" + closed + " (Connection refused")
        .doesNotContain("\n");
    assertThat(seconds).as("failed before the stall deadline").isLessThan(200);
    assertNothingLeftOf("/copy-into-nobody", stagedBefore);
    awaitNoRelayContainers(30);
    assertThat(FileSystem.get(destination.uri("/"), new Configuration())
        .exists(new org.apache.hadoop.fs.Path("/copy-into-nobody"))).isFalse();
  }

  /**
   * {@code copy SRC DST} with {@code relays} as --relays and {@code destinationRelays} as
   * --dst-relays, one of them yarn, and the running relays' secret.
   */
  /**
   * Starts {@link #NODES} relays in this JVM with {@code secret}, as relays started by hand,
   * into {@code running} (which the caller closes); returns their addresses for --relays.
   */
  private static String startRunningRelays(TransferSecret secret, List<RelayServer> running) {
    for (int relay = 0; relay < NODES; relay++) {
      running.add(RelayServer.start(
          RelaySettings.of("127.0.0.1", 0, secret, EmbeddedHdfs.clientConfiguration())));
    }
    return String.join(",", running.stream()
        .map(relay -> "127.0.0.1:" + relay.localAddress().getPort()).toList());
  }

  private static Result copyAcross(String sourcePath, String target, String relays,
      String destinationRelays, Path secretFile, String... more) {
    List<String> args = copyArguments(sourcePath, target);
    args.set(args.indexOf("--relays") + 1, relays);
    args.addAll(List.of("--dst-relays", destinationRelays,
        "--secret-file", secretFile.toString(), "--json"));
    args.addAll(List.of(more));
    return run(args);
  }

  /**
   * A running relay across from YARN's that stops in the middle of a copy: its route drops,
   * and the container it served, which YARN still runs, pairs with the other running relay
   * instead of idling for the rest of the copy, which verifies.
   */
  @Test
  void aContainerWhoseRunningPartnerStopsPairsWithAnotherRunningRelay() throws Exception {
    TransferSecret secret = TransferSecret.generate();
    Path secretFile = temporary.resolve("secret");
    secret.writeTo(secretFile);
    List<RelayServer> running = new ArrayList<>();
    try {
      String addresses = startRunningRelays(secret, running);
      CompletableFuture<Result> copying = CompletableFuture.supplyAsync(() -> copyAcross(
          "/big", "/copy-partner-stops", "yarn", addresses, secretFile,
          "-D", "relaycp.relay.parallel-streams=1",
          "-D", "relaycp.relay.bytes-per-second-limit=1048576"));
      RelayServer stopping = running.get(0);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (stopping.counters().chunksWritten() == 0) {
        assertThat(copying).as("the copy runs until the first running relay wrote a chunk")
            .isNotDone();
        assertThat(System.nanoTime()).as("a chunk written by the first running relay")
            .isLessThan(deadline);
        Thread.sleep(50);
      }
      stopping.close();
      long writtenByTheOther = running.get(1).counters().chunksWritten();

      Result result = copying.get(240, TimeUnit.SECONDS);

      assertThat(result.exitCode()).as(result.err()).isZero();
      JsonNode summary = result.json();
      assertThat(summary.get("verified").asBoolean()).isTrue();
      assertThat(summary.get("routesDropped").asInt()).isGreaterThanOrEqualTo(1);
      assertThat(summary.get("relaysStarted").get("src").asInt())
          .as("no container replaced: the one that lost its partner still ran").isEqualTo(NODES);
      assertThat(summary.get("routes").asInt())
          .as("the first routes, and the orphaned container's with the other running relay")
          .isEqualTo(NODES + 1);
      assertThat(running.get(1).counters().chunksWritten()).isGreaterThan(writtenByTheOther);
      awaitNoRelayContainers(30);
    } finally {
      running.forEach(RelayServer::close);
    }
  }

  /**
   * The driver opens DST with --dst-conf's settings, as the destination's relays open it: a
   * destination whose client configuration writes CRC32 under a CRC32C source is refused
   * before anything moves. (The driver used this process's configuration, so the copy went
   * ahead.)
   */
  @Test
  void theDriverOpensTheDestinationWithItsConfigurationFolder() throws Exception {
    Path crc32 = configurations.resolve("dst-crc32");
    Files.createDirectories(crc32);
    Configuration writesCrc32 = new Configuration(destination.configuration());
    writesCrc32.set("dfs.checksum.type", "CRC32");
    try (OutputStream out = Files.newOutputStream(crc32.resolve("hdfs-site.xml"))) {
      writesCrc32.writeXml(out);
    }
    List<String> args = copyArguments("/demo", "/copy-with-crc32-conf");
    args.set(args.indexOf("--dst-conf") + 1, crc32.toString());

    Result result = run(args);

    assertThat(result.exitCode()).as(result.err()).isEqualTo(3);
    assertThat(result.err())
        .contains("DST writes COMPOSITE-CRC32 checksums but SRC's are COMPOSITE-CRC32C");
    assertThat(FileSystem.get(destination.uri("/"), new Configuration()).exists(
        new org.apache.hadoop.fs.Path("/copy-with-crc32-conf"))).isFalse();
    awaitNoApplication(name -> name.endsWith("/copy-with-crc32-conf"), "left", source,
        destination);
    awaitNoRelayContainers(30);
    assertThat(staged(source)).as("source staging left").isEmpty();
    assertThat(staged(destination)).as("destination staging left").isEmpty();
  }

  private static Set<String> readers(RelayPool pool) {
    Set<String> readers = new java.util.TreeSet<>();
    pool.routes().forEach(route -> readers.add(route.reader().toString()));
    return readers;
  }

  /** The ids of {@code site}'s live relay containers. */
  private static Set<String> relayContainers(EmbeddedSite site) throws Exception {
    Set<String> ids = new java.util.TreeSet<>();
    for (ContainerReport container : site.liveContainers(TYPE)) {
      ids.add(container.getContainerId().toString());
    }
    return ids;
  }

  /**
   * A relay pool's containers serve copies, two at once and one after: both verify over the
   * pool's relays and no container starts for either; a relay killed is replaced and the pool
   * file names its replacement, which the next copy uses; a copy that loses every source relay
   * of the pool at once goes on over their replacements; removing the pool file ends both
   * applications.
   */
  @Test
  void aRelayPoolServesCopiesAtOnceAndInARowUntilItsFileIsRemoved() throws Exception {
    Path poolFile = temporary.resolve("pool.json");
    String jar = YarnRelaySettings.JAR + "=" + System.getProperty("relaycp.product.jar");
    List<String> arguments = poolArguments(poolFile.toString());
    arguments.addAll(List.of("-D", "relaycp.relay.bytes-per-second-limit=1048576"));
    CompletableFuture<Result> pool = CompletableFuture.supplyAsync(() -> run(arguments));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (!Files.exists(poolFile)) {
      assertThat(pool).as("the pool runs until its file is written").isNotDone();
      assertThat(System.nanoTime()).as("the pool file is written").isLessThan(deadline);
      Thread.sleep(100);
    }
    try {
      RelayPool described = RelayPool.read(local(poolFile), java.time.Instant.now());
      assertThat(described.routes()).hasSize(NODES);
      assertThat(described.applications()).containsOnlyKeys("src", "dst");
      Set<String> sourceContainers = relayContainers(source);
      Set<String> destinationContainers = relayContainers(destination);
      assertThat(sourceContainers).hasSize(NODES);

      // Two drivers at once, each registering its own transfer with the same relays.
      List<CompletableFuture<Result>> running = new ArrayList<>();
      for (String target : List.of("/pool-copy-1", "/pool-copy-2")) {
        running.add(CompletableFuture.supplyAsync(() -> run(List.of("copy",
            source.uri("/demo").toString(), destination.uri(target).toString(),
            "--relay-pool", poolFile.toString(), "-D", jar, "--json", "--no-progress",
            "--no-history"))));
      }
      List<Result> copies = new ArrayList<>();
      for (CompletableFuture<Result> copy : running) {
        copies.add(copy.get(240, TimeUnit.SECONDS));
      }

      for (Result copy : copies) {
        assertThat(copy.exitCode()).as(copy.err()).isZero();
        assertThat(copy.json().get("verified").asBoolean()).isTrue();
        assertThat(copy.json().get("provisioner").asText()).isEqualTo("yarn-pool");
        assertThat(copy.json().get("routes").asInt()).isEqualTo(NODES);
      }
      assertThat(relayContainers(source)).as("the same source containers served both copies")
          .isEqualTo(sourceContainers);
      assertThat(relayContainers(destination)).isEqualTo(destinationContainers);
      assertThat(pool).as("the pool still runs").isNotDone();

      // A relay of the pool that dies is replaced, and the file names its replacement.
      Set<String> readers = readers(described);
      killSourceRelays(List.of(sourceContainers.iterator().next()));
      RelayPool replaced = described;
      while (readers(replaced).equals(readers) || replaced.routes().size() < NODES) {
        assertThat(System.nanoTime()).as("the pool file names a replacement relay")
            .isLessThan(deadline + TimeUnit.SECONDS.toNanos(120));
        Thread.sleep(250);
        replaced = RelayPool.read(local(poolFile), java.time.Instant.now());
      }
      assertThat(readers(replaced)).as("one reader replaced, the other kept")
          .hasSize(NODES).containsAnyElementsOf(readers);
      Result afterLoss = run(List.of("copy", source.uri("/demo").toString(),
          destination.uri("/pool-copy-3").toString(), "--relay-pool", poolFile.toString(),
          "-D", jar, "--json", "--no-progress", "--no-history"));
      assertThat(afterLoss.exitCode()).as(afterLoss.err()).isZero();
      assertThat(afterLoss.json().get("verified").asBoolean()).isTrue();
      assertThat(afterLoss.json().get("routesDropped").asInt()).isZero();

      // Every source relay lost in the middle of a copy: the copy takes the routes the pool
      // names for their replacements.
      Set<String> lostAtOnce = relayContainers(source);
      CompletableFuture<Result> big = CompletableFuture.supplyAsync(() -> run(List.of("copy",
          source.uri("/big").toString(), destination.uri("/pool-copy-big").toString(),
          "--relay-pool", poolFile.toString(), "-D", jar, "-D", "relaycp.relay.parallel-streams=1",
          "--json", "--no-progress", "--no-history")));
      awaitStagedBytes(destination, 1 << 20, big);
      killSourceRelays(lostAtOnce);
      Result afterAllLost = big.get(240, TimeUnit.SECONDS);
      assertThat(afterAllLost.exitCode()).as(afterAllLost.err()).isZero();
      assertThat(afterAllLost.json().get("verified").asBoolean()).isTrue();
      assertThat(afterAllLost.json().get("routesDropped").asInt()).isGreaterThanOrEqualTo(NODES);
      assertThat(afterAllLost.json().get("routes").asInt()).isGreaterThan(NODES);
      assertThat(relayContainers(source)).doesNotContainAnyElementsOf(lostAtOnce);
    } finally {
      Files.deleteIfExists(poolFile);
    }

    assertPoolEnded(pool, poolFile.toString());
  }

  /** {@code relay-pool} with its file at {@code poolFile}, for ten minutes, small containers. */
  private static List<String> poolArguments(String poolFile) {
    return new ArrayList<>(List.of("relay-pool", "--pool-file", poolFile,
        "--src-conf", configurations.resolve("src").toString(),
        "--dst-conf", configurations.resolve("dst").toString(), "--for", "10m",
        "-D", YarnRelaySettings.JAR + "=" + System.getProperty("relaycp.product.jar"),
        "-D", YarnRelaySettings.MEMORY_MB + "=256",
        "-D", YarnRelaySettings.JAVA_OPTS + "=-Xmx160m"));
  }

  /**
   * The pool ended on its own once its file was gone, with both applications and no staging
   * left.
   */
  private static void assertPoolEnded(CompletableFuture<Result> pool, String poolFile)
      throws Exception {
    Result ended = pool.get(60, TimeUnit.SECONDS);

    assertThat(ended.exitCode()).as(ended.err()).isZero();
    assertThat(ended.out()).contains("relay pool up: " + NODES + " routes")
        .contains(poolFile + " was removed: stopping the relay pool");
    awaitNoRelayContainers(30);
    assertThat(staged(source)).as("source staging left").isEmpty();
    assertThat(staged(destination)).as("destination staging left").isEmpty();
  }

  /**
   * A pool whose file is on HDFS, where a workflow's steps on other machines read it: the file
   * is its owner's only there, a copy naming it verifies over the pool's containers, and
   * {@code relay-pool --stop} (which a teardown on another machine runs) removes it there,
   * returns once the pool has ended both applications, and leaves nothing running or staged.
   */
  @Test
  void aRelayPoolWhoseFileIsOnHdfsServesACopyAndEndsOnStop() throws Exception {
    FileSystem sourceFiles = FileSystem.get(source.uri("/"), EmbeddedHdfs.clientConfiguration());
    org.apache.hadoop.fs.Path folder = new org.apache.hadoop.fs.Path("/pools");
    sourceFiles.mkdirs(folder);
    org.apache.hadoop.fs.Path onHdfs = new org.apache.hadoop.fs.Path(folder, "relays.pool");
    String poolFile = source.uri(onHdfs.toString()).toString();
    String jar = YarnRelaySettings.JAR + "=" + System.getProperty("relaycp.product.jar");
    CompletableFuture<Result> pool =
        CompletableFuture.supplyAsync(() -> run(poolArguments(poolFile)));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (!sourceFiles.exists(onHdfs)) {
      assertThat(pool).as("the pool runs until its file is written").isNotDone();
      assertThat(System.nanoTime()).as("the pool file is written").isLessThan(deadline);
      Thread.sleep(100);
    }
    try {
      assertThat(sourceFiles.getFileStatus(onHdfs).getPermission())
          .isEqualTo(new org.apache.hadoop.fs.permission.FsPermission((short) 0600));
      assertThat(sourceFiles.listStatus(folder)).as("the pool file alone, no part left")
          .hasSize(1);

      Result copy = run(List.of("copy", source.uri("/demo").toString(),
          destination.uri("/pool-on-hdfs").toString(), "--relay-pool", poolFile, "-D", jar,
          "--json", "--no-progress", "--no-history"));

      assertThat(copy.exitCode()).as(copy.err()).isZero();
      assertThat(copy.json().get("verified").asBoolean()).isTrue();
      assertThat(copy.json().get("provisioner").asText()).isEqualTo("yarn-pool");
      assertThat(copy.json().get("routes").asInt()).isEqualTo(NODES);
      assertThat(pool).as("the pool still runs").isNotDone();

      Result stopped = run(List.of("relay-pool", "--stop", "--pool-file", poolFile,
          "--src-conf", configurations.resolve("src").toString(),
          "--dst-conf", configurations.resolve("dst").toString()));

      assertThat(stopped.exitCode()).as(stopped.err()).isZero();
      assertThat(stopped.out()).contains("the relay pool ended its applications");
      assertThat(sourceFiles.exists(onHdfs)).isFalse();
      assertThat(source.liveApplications(TYPE)).as("source applications").isEmpty();
      assertThat(destination.liveApplications(TYPE)).as("destination applications").isEmpty();
      Result again = run(List.of("relay-pool", "--stop", "--pool-file", poolFile));
      assertThat(again.exitCode()).as(again.err()).isZero();
      assertThat(again.out()).contains("no relay pool runs with " + poolFile);
    } finally {
      sourceFiles.delete(onHdfs, false);
    }

    assertPoolEnded(pool, poolFile);
  }

  /**
   * A pool whose process hangs (stopped with SIGSTOP, as a machine that froze) does not end its
   * applications when its file is removed: {@code relay-pool --stop} kills them after its
   * timeout, and their containers end with them.
   */
  @Test
  void stoppingAPoolWhoseProcessHangsKillsItsApplications() throws Exception {
    Path poolFile = temporary.resolve("hung.pool");
    Path temporaryFiles = Files.createDirectories(temporary.resolve("pool-tmp"));
    List<String> command = DriverCommand.of(temporaryFiles);
    command.addAll(poolArguments(poolFile.toString()));
    File log = temporary.resolve("pool.log").toFile();
    Process pool = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log)
        .start();
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (!Files.exists(poolFile)) {
        assertThat(pool.isAlive()).as(Files.readString(log.toPath())).isTrue();
        assertThat(System.nanoTime()).as("the pool file is written").isLessThan(deadline);
        Thread.sleep(100);
      }
      assertThat(new ProcessBuilder("kill", "-STOP", Long.toString(pool.pid())).start()
          .waitFor()).as("SIGSTOP to the pool").isZero();

      Result stopped = run(List.of("relay-pool", "--stop", "--pool-file", poolFile.toString(),
          "--stop-timeout", "3s", "--src-conf", configurations.resolve("src").toString(),
          "--dst-conf", configurations.resolve("dst").toString()));

      assertThat(stopped.exitCode()).as(stopped.err()).isZero();
      assertThat(stopped.out()).contains("killed the relay pool's applications",
          "still running after --stop-timeout 3s",
          "removed the staging folders the relay pool left");
      assertThat(poolFile).doesNotExist();
      assertThat(source.liveApplications(TYPE)).as("source applications").isEmpty();
      assertThat(destination.liveApplications(TYPE)).as("destination applications").isEmpty();
      assertThat(stagedOnBothSites()).as("staging folders left").isEmpty();
      awaitNoRelayContainers(30);
    } finally {
      pool.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
      // Where the stop failed, what it should have removed.
      removeStaging(source);
      removeStaging(destination);
    }
  }

  @Test
  void aRelayContainerKilledMidCopyIsReplacedAndTheCopyVerifies() throws Exception {
    CompletableFuture<Result> running = CompletableFuture.supplyAsync(() -> copy("/big",
        "/copy-big", "-D", "relaycp.relay.parallel-streams=1",
        "-D", "relaycp.relay.bytes-per-second-limit=1048576"));
    // A source relay announced while as many destination relays are, for a second, is a
    // route's reader (the driver pairs new relays within a quarter second), and the copy
    // starts on the first route at once: killed then, it holds work. A fixed wait after both
    // sites' relays were all up let the copy end first on a busy machine, where the second
    // relays came up seconds after the first.
    List<String> announced = awaitSourceRelaysWithPartners();
    assertThat(running).as("the copy runs when a relay is killed").isNotDone();
    killSourceRelays(List.of(announced.get(0)));
    Result result = running.get(240, TimeUnit.SECONDS);

    assertThat(result.exitCode()).as(result.err()).isZero();
    JsonNode summary = result.json();
    assertThat(summary.get("verified").asBoolean()).isTrue();
    assertThat(summary.get("routesDropped").asInt()).isGreaterThanOrEqualTo(1);
    assertThat(summary.get("relaysStarted").get("src").asInt()).isEqualTo(NODES + 1);
    // Both first pairs were up before the kill, whichever started the copy.
    assertThat(summary.get("routes").asInt()).isGreaterThanOrEqualTo(NODES);
    for (JsonNode route : summary.get("routeRates")) {
      assertThat(route.get("joinedSeconds").asDouble()).isPositive();
    }
    awaitNoRelayContainers(30);
  }

  /**
   * Every source relay killed at once: every route drops before YARN has reported a container
   * ended, and the copy waits for the replacements it then asks for instead of failing with no
   * route left.
   */
  @Test
  void everySourceRelayKilledAtOnceIsReplacedAndTheCopyVerifies() throws Exception {
    CompletableFuture<Result> running = CompletableFuture.supplyAsync(() -> copy("/big",
        "/copy-big-all-lost", "-D", "relaycp.relay.parallel-streams=1",
        "-D", "relaycp.relay.bytes-per-second-limit=1048576"));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    List<String> announced = awaitSourceRelaysWithPartners();
    while (announced.size() < NODES && System.nanoTime() < deadline) {
      announced = awaitSourceRelaysWithPartners();
    }
    assertThat(announced).as("source relays, each with a partner").hasSize(NODES);
    assertThat(running).as("the copy runs when its source relays are killed").isNotDone();
    killSourceRelays(announced);
    Result result = running.get(240, TimeUnit.SECONDS);

    assertThat(result.exitCode()).as(result.err()).isZero();
    JsonNode summary = result.json();
    assertThat(summary.get("verified").asBoolean()).isTrue();
    assertThat(summary.get("routesDropped").asInt()).isGreaterThanOrEqualTo(NODES);
    assertThat(summary.get("relaysStarted").get("src").asInt()).isEqualTo(2 * NODES);
    assertThat(summary.get("routes").asInt()).isGreaterThan(NODES);
    awaitNoRelayContainers(30);
  }

  /**
   * The driver as a user starts it, in a JVM of its own, logging to {@code log}. Its temporary
   * files (the secret, the relay jar) go to this test's folder: a driver killed with SIGKILL
   * cannot remove them.
   */
  private Process startDriver(String target, long driverTimeoutSeconds, File log)
      throws IOException {
    Path temporaryFiles = Files.createDirectories(temporary.resolve("driver-tmp"));
    List<String> command = DriverCommand.of(temporaryFiles);
    command.addAll(copyArguments("/big", target));
    command.addAll(List.of(
        "-D", YarnRelaySettings.DRIVER_TIMEOUT + "=" + driverTimeoutSeconds,
        "-D", "relaycp.relay.parallel-streams=1",
        "-D", "relaycp.relay.bytes-per-second-limit=262144"));
    return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log).start();
  }

  @Test
  void aDriverStoppedBySigtermEndsItsRelaysAtOnce() throws Exception {
    File log = temporary.resolve("driver.log").toFile();
    Process driver = startDriver("/copy-terminated", 60, log);
    try {
      awaitRelayContainers(source, NODES);
      awaitRelayContainers(destination, NODES);
      awaitAnnouncedRelays(source, NODES);
      assertThat(driver.isAlive()).as(Files.readString(log.toPath())).isTrue();
      driver.destroy();
      assertThat(driver.waitFor(60, TimeUnit.SECONDS)).as("the driver stopped").isTrue();
    } finally {
      driver.destroyForcibly();
    }
    long stopped = System.nanoTime();

    awaitNoRelayContainers(30);
    assertThat((System.nanoTime() - stopped) / 1e9).as("seconds until the relays stopped")
        .isLessThan(30);
    assertThat(staged(source)).as("source staging left").isEmpty();
    assertThat(staged(destination)).as("destination staging left").isEmpty();
  }

  /** The live relaycp applications of {@code site} whose name {@code name} accepts. */
  private static List<ApplicationReport> applications(EmbeddedSite site, Predicate<String> name)
      throws Exception {
    return site.liveApplications(TYPE).stream()
        .filter(report -> name.test(report.getName())).toList();
  }

  /**
   * Waits up to 30 s in all until none of {@code sites} has a live relaycp application whose
   * name {@code name} accepts, then asserts it.
   */
  private static void awaitNoApplication(Predicate<String> name, String what,
      EmbeddedSite... sites) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    for (EmbeddedSite site : sites) {
      while (!applications(site, name).isEmpty() && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
      assertThat(applications(site, name)).as(site.name() + " applications " + what).isEmpty();
    }
  }

  private static boolean submitted(YarnClient client, String target) throws Exception {
    return client.getApplications(Set.of(TYPE)).stream()
        .anyMatch(report -> report.getName().endsWith(target));
  }

  /**
   * SIGTERM as soon as either site's ResourceManager has the copy's application, while the
   * driver is still registering them: both applications end with the driver, not when the
   * ResourceManagers expire their ApplicationMasters (ten minutes), and nothing is staged.
   */
  @Test
  void aDriverStoppedWhileItsApplicationsRegisterLeavesNoApplicationRunning() throws Exception {
    String target = "/copy-stopped-while-registering";
    File log = temporary.resolve("driver.log").toFile();
    Process driver = startDriver(target, 60, log);
    // One client a site, made before the driver submits, so the signal follows the
    // submission by a poll of a few milliseconds.
    try (YarnClient sourceClient = YarnClient.createYarnClient();
        YarnClient destinationClient = YarnClient.createYarnClient()) {
      sourceClient.init(source.configuration());
      sourceClient.start();
      destinationClient.init(destination.configuration());
      destinationClient.start();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      while (!submitted(sourceClient, target) && !submitted(destinationClient, target)) {
        assertThat(System.nanoTime()).as("the driver submitted an application")
            .isLessThan(deadline);
        assertThat(driver.isAlive()).as(Files.readString(log.toPath())).isTrue();
        Thread.sleep(5);
      }
      driver.destroy();
      assertThat(driver.waitFor(60, TimeUnit.SECONDS)).as("the driver stopped").isTrue();
    } finally {
      driver.destroyForcibly();
    }

    awaitNoApplication(name -> name.endsWith(target), "copying to " + target + " left",
        source, destination);
    awaitNoRelayContainers(30);
    assertThat(staged(source)).as("source staging left").isEmpty();
    assertThat(staged(destination)).as("destination staging left").isEmpty();
  }

  @Test
  void afterTheDriverIsKilledNoRelayContainerOutlivesTheDriverTimeout() throws Exception {
    long timeoutSeconds = 6;
    File log = temporary.resolve("driver.log").toFile();
    Process driver = startDriver("/copy-killed", timeoutSeconds, log);
    try {
      awaitRelayContainers(source, NODES);
      awaitRelayContainers(destination, NODES);
      Thread.sleep(2_000);
      assertThat(driver.isAlive()).as(Files.readString(log.toPath())).isTrue();
    } finally {
      driver.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }
    long killed = System.nanoTime();

    awaitNoRelayContainers(timeoutSeconds + 40);
    assertThat((System.nanoTime() - killed) / 1e9).as("seconds until the relays stopped")
        .isGreaterThanOrEqualTo(timeoutSeconds - 3);
    assertThat(staged(source)).as("source staging left").isEmpty();
    assertThat(staged(destination)).as("destination staging left").isEmpty();
  }

  private static RelayJar relayJar() {
    return YarnRelays.relayJar(YarnRelays.productJar(
        Optional.of(System.getProperty("relaycp.product.jar"))));
  }

  /**
   * Ctrl-C while a site's relays start: Hadoop runs the start's shutdown hook, which kills the
   * application already submitted, and the start makes nothing after it (no staging folder),
   * failing as stopped.
   */
  @Test
  void aShutdownWhileASiteStartsKillsItsApplicationAndNothingMoreIsMade() throws Exception {
    YarnRelaySettings settings = YarnRelaySettings.from(destination.configuration(), Map.of());
    RelayJar jar = relayJar();
    String name = "relaycp shut down while starting";
    SiteStartShutdownHook hook = SiteStartShutdownHook.forSite("dst");
    CountDownLatch jarAskedFor = new CountDownLatch(1);
    CountDownLatch shutDown = new CountDownLatch(1);
    CompletableFuture<YarnSite> starting = CompletableFuture.supplyAsync(() -> YarnSite.start(
        "dst", name, UUID.randomUUID().toString(), destination.configuration(), settings, () -> {
          jarAskedFor.countDown();
          try {
            shutDown.await();
          } catch (InterruptedException e) {
            throw new IllegalStateException(e);
          }
          return jar;
        }, TransferSecret.generate(), hook));
    try {
      assertThat(jarAskedFor.await(60, TimeUnit.SECONDS)).as("the start asked for the jar")
          .isTrue();
      assertThat(applications(destination, name::equals)).as("the application submitted")
          .hasSize(1);
      hook.run();
      awaitNoApplication(name::equals, "named " + name, destination);
    } finally {
      shutDown.countDown();
    }

    assertThatThrownBy(starting::join).cause().isInstanceOfSatisfying(RelayCpException.class,
        stopped -> assertThat(stopped.code()).isEqualTo(ErrorCode.INTERRUPTED));
    assertThat(staged(destination)).as("destination staging made after the hook").isEmpty();
  }

  /**
   * A site's start hook closes the site it started until the site's owner took it over, and
   * does nothing after.
   */
  @Test
  void aSiteStartHookClosesTheSiteUntilItIsHandedOver() throws Exception {
    YarnRelaySettings settings = YarnRelaySettings.from(destination.configuration(), Map.of());
    RelayJar jar = relayJar();
    String name = "relaycp started, not handed over";
    SiteStartShutdownHook notHandedOver = SiteStartShutdownHook.forSite("dst");
    YarnSite started = YarnSite.start("dst", name, UUID.randomUUID().toString(),
        destination.configuration(), settings, () -> jar, TransferSecret.generate(),
        notHandedOver);
    try {
      assertThat(staged(destination)).as("staging of a started site").isNotEmpty();
      notHandedOver.run();
      awaitNoApplication(name::equals, "named " + name, destination);
      assertThat(staged(destination)).as("destination staging after the hook").isEmpty();
    } finally {
      started.close();
    }

    String owned = "relaycp started and handed over";
    SiteStartShutdownHook handedOver = SiteStartShutdownHook.forSite("dst");
    YarnSite site = YarnSite.start("dst", owned, UUID.randomUUID().toString(),
        destination.configuration(), settings, () -> jar, TransferSecret.generate(), handedOver);
    try {
      handedOver.handOver();
      handedOver.run();
      assertThat(applications(destination, owned::equals)).as("the owner's application")
          .hasSize(1);
      assertThat(staged(destination)).as("the owner's staging").isNotEmpty();
    } finally {
      site.close();
    }
    awaitNoApplication(owned::equals, "named " + owned, destination);
    assertThat(staged(destination)).as("destination staging after the owner closed").isEmpty();
  }

  /** {@code file} as the pool's file on this machine. */
  private static ReplacedFile local(Path file) {
    return ReplacedFile.at(file.toString(), new org.apache.hadoop.conf.Configuration(false));
  }
}
