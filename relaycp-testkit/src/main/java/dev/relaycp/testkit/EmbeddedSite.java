package dev.relaycp.testkit;

import static java.util.Objects.requireNonNull;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BiPredicate;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.ContainerReport;
import org.apache.hadoop.yarn.api.records.ContainerState;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.exceptions.ApplicationAttemptNotFoundException;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.apache.hadoop.yarn.server.MiniYARNCluster;
import org.apache.hadoop.yarn.server.nodemanager.NodeManager;

/**
 * One datacenter: a MiniDFSCluster and a MiniYARNCluster with as many NodeManagers as
 * datanodes, the way each datanode of a real cluster runs a NodeManager. Containers run as
 * real processes, with the class path given (a Hadoop installation's jars) and this JVM's
 * Java.
 *
 * <p>Each site runs in a JVM of its own: a ResourceManager keeps its cluster timestamp in a
 * static field that the next one started in the same JVM overwrites, after which the first
 * one's NodeManagers reject its containers as "allocated by a previous RM". The site's JVM
 * stops when this one closes it or dies (its standard input closes).
 */
public final class EmbeddedSite implements AutoCloseable {
  private static final long START_SECONDS = 180;

  private final String name;
  private final Path baseDirectory;
  private final Process process;
  private final Configuration configuration;

  private EmbeddedSite(String name, Path baseDirectory, Process process,
      Configuration configuration) {
    this.name = name;
    this.baseDirectory = baseDirectory;
    this.process = process;
    this.configuration = configuration;
  }

  /**
   * Starts a site called {@code name} with {@code nodes} datanodes and NodeManagers, the
   * given block size, and {@code containerClassPath} as {@code yarn.application.classpath}.
   */
  public static EmbeddedSite start(String name, int nodes, long blockSize,
      List<String> containerClassPath) throws IOException {
    requireNonNull(name, "name is null");
    requireNonNull(containerClassPath, "containerClassPath is null");
    Path base = Files.createTempDirectory("relaycp-site-" + name + "-");
    Path classPath = base.resolve("container-classpath.txt");
    Files.writeString(classPath, String.join(File.pathSeparator, containerClassPath));
    Path written = base.resolve("site.xml");
    Path log = base.resolve("site.log");
    Process process = new ProcessBuilder(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx1g",
        "-cp", System.getProperty("java.class.path"), EmbeddedSite.class.getName(),
        name, Integer.toString(nodes), Long.toString(blockSize), classPath.toString(),
        base.toString(), written.toString())
        .directory(base.toFile())
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_SECONDS);
      while (!Files.exists(written)) {
        if (!process.isAlive() || System.nanoTime() > deadline) {
          throw new IOException("the " + name + " site did not start; see " + log + ":\n"
              + tail(log));
        }
        Thread.sleep(200);
      }
      Configuration configuration = new Configuration(false);
      try (InputStream in = Files.newInputStream(written)) {
        configuration.addResource(in);
        configuration.size();
      }
      return new EmbeddedSite(name, base, process, configuration);
    } catch (IOException | RuntimeException | InterruptedException e) {
      process.destroyForcibly();
      FileUtil.fullyDelete(base.toFile());
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted starting the " + name + " site", e);
      }
      throw e instanceof IOException io ? io : new IOException(e);
    }
  }

  private static String tail(Path log) throws IOException {
    List<String> lines = Files.readAllLines(log);
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
  }

  /**
   * The site's own JVM: starts the clusters, writes their client configuration to the last
   * argument's file, and runs until its standard input closes.
   */
  public static void main(String[] args) throws Exception {
    String name = args[0];
    int nodes = Integer.parseInt(args[1]);
    long blockSize = Long.parseLong(args[2]);
    List<String> classPath = List.of(Files.readString(Path.of(args[3])).split(File.pathSeparator));
    Path base = Path.of(args[4]);
    Path written = Path.of(args[5]);
    MiniDFSCluster dfs = EmbeddedHdfs.build(base.resolve("dfs").toFile(), nodes,
        EmbeddedHdfs.smallBlocks(blockSize, 1));
    MiniYARNCluster yarn = null;
    try {
      YarnConfiguration yarnConfiguration = new YarnConfiguration();
      yarnConfiguration.set(CommonConfigurationKeysPublic.FS_DEFAULT_NAME_KEY,
          dfs.getURI().toString());
      yarnConfiguration.setInt(YarnConfiguration.RM_SCHEDULER_MINIMUM_ALLOCATION_MB, 64);
      yarnConfiguration.setBoolean(YarnConfiguration.NM_PMEM_CHECK_ENABLED, false);
      yarnConfiguration.setBoolean(YarnConfiguration.NM_VMEM_CHECK_ENABLED, false);
      yarnConfiguration.set(YarnConfiguration.NM_ADMIN_USER_ENV,
          "JAVA_HOME=" + System.getProperty("java.home"));
      yarnConfiguration.setStrings(YarnConfiguration.YARN_APPLICATION_CLASSPATH,
          classPath.toArray(String[]::new));
      yarn = new MiniYARNCluster("relaycp-" + name, nodes, 1, 1);
      yarn.init(yarnConfiguration);
      yarn.start();
      if (!yarn.waitForNodeManagersToConnect(60_000)) {
        throw new IOException("the " + name + " site's NodeManagers did not connect");
      }
      Configuration client = new Configuration(yarn.getConfig());
      client.set(CommonConfigurationKeysPublic.FS_DEFAULT_NAME_KEY, dfs.getURI().toString());
      Path pending = Path.of(written + ".pending");
      try (OutputStream out = Files.newOutputStream(pending)) {
        client.writeXml(out);
      }
      Files.move(pending, written, StandardCopyOption.ATOMIC_MOVE);
      byte[] discard = new byte[256];
      while (System.in.read(discard) >= 0) {
        // Only the end of input matters: the test JVM closed the site, or died.
      }
    } finally {
      if (yarn != null) {
        stopNodeManagersTogether(yarn, nodes);
        yarn.stop();
      }
      dfs.shutdown();
    }
    System.exit(0);
  }

  /**
   * Stops the site's NodeManagers at once, each on a thread of its own: a NodeManager whose
   * containers have run waits 10 s at its stop for the deletion of their logs, which it
   * schedules hours ahead, and MiniYARNCluster stops them one after another (30 s for three,
   * and a demo waited that long after printing its report). The cluster's own stop then finds
   * them stopped.
   */
  private static void stopNodeManagersTogether(MiniYARNCluster yarn, int nodes)
      throws InterruptedException {
    List<Thread> stopping = new ArrayList<>();
    for (int node = 0; node < nodes; node++) {
      NodeManager nodeManager = yarn.getNodeManager(node);
      if (nodeManager != null) {
        Thread thread = new Thread(nodeManager::stop, "stop-nodemanager-" + node);
        thread.start();
        stopping.add(thread);
      }
    }
    for (Thread thread : stopping) {
      thread.join();
    }
  }

  /**
   * Tells the site's JVM to stop (its standard input closes) without waiting for it; {@link
   * #close} waits.
   */
  void beginClose() {
    try {
      process.getOutputStream().close();
    } catch (IOException e) {
      process.destroyForcibly();
    }
  }

  /**
   * The class path of a Hadoop installation for containers: the jars listed in {@code
   * listing} (a file of paths joined by the path separator, as Maven's build-classpath
   * writes).
   */
  public static List<String> classPathFrom(Path listing) throws IOException {
    String text = Files.readString(listing).strip();
    List<String> entries = new ArrayList<>();
    for (String entry : text.split(File.pathSeparator)) {
      if (!entry.isBlank()) {
        entries.add(entry);
      }
    }
    return entries;
  }

  public String name() {
    return name;
  }

  /** A client configuration of this site: its ResourceManager and, as default, its HDFS. */
  public Configuration configuration() {
    return new Configuration(configuration);
  }

  /**
   * Writes this site's client configuration into {@code folder} (made if missing), as a user
   * copies one from a gateway: what {@code --src-conf} and {@code --dst-conf} take.
   */
  public void writeConfigurationFolder(Path folder) throws IOException {
    requireNonNull(folder, "folder is null");
    Files.createDirectories(folder);
    try (OutputStream out = Files.newOutputStream(folder.resolve("yarn-site.xml"))) {
      configuration.writeXml(out);
    }
  }

  public URI uri(String path) {
    requireNonNull(path, "path is null");
    return URI.create(configuration.get(CommonConfigurationKeysPublic.FS_DEFAULT_NAME_KEY)
        + path);
  }

  /** Containers of applications of {@code type} that are not complete. */
  public List<ContainerReport> liveContainers(String type) throws IOException, YarnException {
    List<ContainerReport> live = new ArrayList<>();
    try (YarnClient client = YarnClient.createYarnClient()) {
      client.init(configuration);
      client.start();
      for (ApplicationReport application : client.getApplications(Set.of(type))) {
        if (application.getCurrentApplicationAttemptId() == null) {
          continue;
        }
        List<ContainerReport> containers;
        try {
          containers = client.getContainers(application.getCurrentApplicationAttemptId());
        } catch (ApplicationAttemptNotFoundException e) {
          continue; // Just submitted: no attempt, so no container, yet.
        }
        for (ContainerReport container : containers) {
          if (container.getContainerState() != ContainerState.COMPLETE) {
            live.add(container);
          }
        }
      }
    }
    return live;
  }

  /** Applications of {@code type} that have not ended (finished, failed or killed). */
  public List<ApplicationReport> liveApplications(String type)
      throws IOException, YarnException {
    try (YarnClient client = YarnClient.createYarnClient()) {
      client.init(configuration);
      client.start();
      return client.getApplications(Set.of(type), EnumSet.of(YarnApplicationState.NEW,
          YarnApplicationState.NEW_SAVING, YarnApplicationState.SUBMITTED,
          YarnApplicationState.ACCEPTED, YarnApplicationState.RUNNING));
    }
  }

  /**
   * The files called {@code fileName} (e.g. "syslog") in the log folders of the containers
   * this site's NodeManagers have run, in no particular order.
   */
  public List<Path> containerLogs(String fileName) throws IOException {
    requireNonNull(fileName, "fileName is null");
    return files((folder, name) -> name.equals(fileName) && folder.startsWith("container_"));
  }

  /**
   * The files in folders called {@code folderName} anywhere in the site's NodeManagers' and
   * datanodes' folders (e.g. what relays keep in a NodeManager's folder for the user).
   */
  public List<Path> filesIn(String folderName) throws IOException {
    requireNonNull(folderName, "folderName is null");
    return files((folder, name) -> folder.equals(folderName));
  }

  /**
   * The site's regular files whose folder's and own names {@code wanted} takes. The
   * NodeManagers delete a finished container's folders while this walks them, so a file or
   * folder gone before it is visited is skipped, not an error.
   */
  private List<Path> files(BiPredicate<String, String> wanted) throws IOException {
    List<Path> found = new ArrayList<>();
    Files.walkFileTree(baseDirectory, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
        if (attributes.isRegularFile() && wanted.test(
            file.getParent().getFileName().toString(), file.getFileName().toString())) {
          found.add(file);
        }
        return FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFileFailed(Path file, IOException failure)
          throws IOException {
        if (failure instanceof NoSuchFileException) {
          return FileVisitResult.CONTINUE;
        }
        throw failure;
      }

      @Override
      public FileVisitResult postVisitDirectory(Path folder, IOException failure)
          throws IOException {
        if (failure == null || failure instanceof NoSuchFileException) {
          return FileVisitResult.CONTINUE;
        }
        throw failure;
      }
    });
    return found;
  }

  @Override
  public void close() {
    try {
      process.getOutputStream().close();
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (IOException e) {
      process.destroyForcibly();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    } finally {
      FileUtil.fullyDelete(baseDirectory.toFile());
    }
  }
}
