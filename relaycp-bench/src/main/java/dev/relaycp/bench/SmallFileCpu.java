package dev.relaycp.bench;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import dev.relaycp.cli.CopySummary;
import dev.relaycp.config.RelayKeys;
import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.provision.LocalRelayProcesses;
import dev.relaycp.relay.RelayTls;
import dev.relaycp.relay.TransferSecret;
import dev.relaycp.testkit.EmbeddedClusters;
import dev.relaycp.transfer.Route;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The CPU relaycp's own processes spend on a copy of many small files, outside the lab: two
 * embedded HDFS clusters in this JVM, relay pairs as child JVMs started for each run (as the
 * lab's YARN relays are fresh JVMs for each copy), and the driver ({@code relaycp copy}) as a
 * child JVM of its own. The clusters' CPU is this JVM's and is never counted.
 *
 * <p>Linux only: a relay's CPU is its {@code /proc/PID/stat} utime + stime, read once it listens
 * and again after the copy; the driver's is its whole life (JVM start included, as in the lab),
 * read as the growth of this JVM's cutime + cstime across waiting for it, which is what the
 * kernel adds for a child once it has been waited for.
 */
final class SmallFileCpu {
  /** What the relays and the driver of one copy cost. */
  record Run(int files, long bytes, double seconds, double driverCpuSeconds,
      double relayStartCpuSeconds, double relayCopyCpuSeconds) {
    double perThousandFiles(double cpuSeconds) {
      return 1000 * cpuSeconds / files;
    }
  }

  /** The settings of a measurement. */
  record Settings(int files, int fileBytes, int pairs, int datanodes, String relayJavaOptions,
      List<String> driverJavaOptions, Map<String, String> copySettings,
      java.nio.file.Path profileDirectory) {
    Settings {
      requireNonNull(relayJavaOptions, "relayJavaOptions is null");
      driverJavaOptions = List.copyOf(driverJavaOptions);
      copySettings = Map.copyOf(copySettings);
      if (files < 1 || fileBytes < 0 || pairs < 1 || datanodes < 1) {
        throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "files " + files + ", file bytes "
            + fileBytes + ", pairs " + pairs + " and datanodes " + datanodes
            + " must be positive");
      }
    }
  }

  private static final long CLOCK_TICKS_PER_SECOND = 100;

  private final Settings settings;
  private final EmbeddedClusters clusters;
  private final java.nio.file.Path secretFile;
  private int runs;

  private SmallFileCpu(Settings settings, EmbeddedClusters clusters,
      java.nio.file.Path secretFile) {
    this.settings = settings;
    this.clusters = clusters;
    this.secretFile = secretFile;
  }

  /** Starts the clusters and writes the source tree; the caller closes the clusters. */
  static SmallFileCpu prepare(Settings settings, EmbeddedClusters clusters) throws Exception {
    writeTree(FileSystem.get(clusters.sourceUri("/"), new org.apache.hadoop.conf.Configuration()),
        settings.files(), settings.fileBytes());
    java.nio.file.Path secretFile = Files.createTempFile("relaycp-bench-secret-", "");
    TransferSecret.generate().writeTo(secretFile);
    secretFile.toFile().deleteOnExit();
    return new SmallFileCpu(settings, clusters, secretFile);
  }

  /** {@code files} files of {@code fileBytes} random bytes below /small, 100 a folder. */
  private static void writeTree(FileSystem fileSystem, int files, int fileBytes)
      throws Exception {
    ExecutorService writers = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> writes = new ArrayList<>();
      for (int index = 0; index < files; index++) {
        int file = index;
        writes.add(writers.submit(() -> {
          byte[] content = new byte[fileBytes];
          new Random(file).nextBytes(content);
          Path path = new Path(String.format("/small/d%03d/f%05d", file / 100, file));
          try (FSDataOutputStream out = fileSystem.create(path, true)) {
            out.write(content);
          }
          return null;
        }));
      }
      for (Future<?> write : writes) {
        write.get();
      }
    } finally {
      writers.shutdownNow();
    }
  }

  /** One copy of the tree to a fresh target, through fresh relays. */
  Run run() throws Exception {
    int run = ++runs;
    Map<String, String> properties = new HashMap<>(settings.copySettings());
    properties.put(RelayKeys.RELAY_JAVA_OPTS.key(),
        String.join(" ", settings.relayJavaOptions(), flightRecording("relay", run)).strip());
    try (LocalRelayProcesses relays = LocalRelayProcesses.start(settings.pairs(), secretFile,
        properties, List.of(), RelayTls.identityToShare())) {
      List<Long> relayPids = relays.processes().stream().map(Process::pid).toList();
      long relayStart = cpuTicks(relayPids);
      URI target = clusters.destinationUri("/copy-" + run);
      List<String> command = new ArrayList<>();
      command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
      command.addAll(settings.driverJavaOptions());
      String recording = flightRecording("driver", run);
      if (!recording.isEmpty()) {
        command.add(recording);
      }
      command.addAll(List.of("-cp", System.getProperty("java.class.path"),
          "dev.relaycp.cli.Main", "copy", clusters.sourceUri("/small").toString(),
          target.toString(), "--json", "--no-history", "--secret-file", secretFile.toString(),
          "--relays", relays.routes().stream().map(route -> route.reader().toString())
              .collect(Collectors.joining(",")),
          "--dst-relays", relays.routes().stream().map(Route::writer).map(Object::toString)
              .collect(Collectors.joining(",")),
          // Started here from this build, they get what relaycp's own relays get.
          "-D", RelayKeys.COPY_RUNNING_RELAYS_SAME_BUILD.key() + "=true"));
      settings.copySettings().forEach((key, value) -> command.addAll(List.of("-D",
          key + "=" + value)));
      long childrenBefore = reapedChildrenTicks();
      long started = System.nanoTime();
      Process driver = new ProcessBuilder(command)
          .redirectError(ProcessBuilder.Redirect.INHERIT)
          .start();
      driver.getOutputStream().close();
      String output;
      try (InputStream out = driver.getInputStream()) {
        output = new String(out.readAllBytes(), StandardCharsets.UTF_8);
      }
      int exit = driver.waitFor();
      double seconds = (System.nanoTime() - started) / 1e9;
      long driverTicks = reapedChildrenTicks() - childrenBefore;
      long relayAfter = cpuTicks(relayPids);
      if (exit != 0) {
        throw new RelayCpException(ErrorCode.INTERNAL_ERROR,
            "the driver exited with " + exit + ": " + output);
      }
      // JFR announces its recording on standard output before the summary.
      JsonNode summary = CopySummary.jsonMapper().readTree(output.substring(output.indexOf('{')));
      return new Run(summary.path("files").asInt(), summary.path("bytes").asLong(), seconds,
          seconds(driverTicks), seconds(relayStart), seconds(relayAfter - relayStart));
    }
  }

  private String flightRecording(String role, int run) {
    if (settings.profileDirectory() == null) {
      return "";
    }
    // A folder: JFR names each JVM's recording in it by its pid and time.
    java.nio.file.Path folder = settings.profileDirectory().toAbsolutePath()
        .resolve(role + "-" + run);
    try {
      Files.createDirectories(folder);
    } catch (IOException e) {
      throw new RelayCpException(ErrorCode.IO_ERROR, "cannot create " + folder, e);
    }
    return "-XX:StartFlightRecording=settings=profile,dumponexit=true,filename=" + folder;
  }

  private static double seconds(long ticks) {
    return (double) ticks / CLOCK_TICKS_PER_SECOND;
  }

  /** utime + stime of the processes, in clock ticks. */
  private static long cpuTicks(List<Long> pids) throws IOException {
    long ticks = 0;
    for (long pid : pids) {
      String[] fields = statFields(java.nio.file.Path.of("/proc", Long.toString(pid), "stat"));
      ticks += Long.parseLong(fields[13]) + Long.parseLong(fields[14]);
    }
    return ticks;
  }

  /** cutime + cstime of this JVM: the CPU of its children once waited for, in clock ticks. */
  private static long reapedChildrenTicks() throws IOException {
    String[] fields = statFields(java.nio.file.Path.of("/proc/self/stat"));
    return Long.parseLong(fields[15]) + Long.parseLong(fields[16]);
  }

  private static String[] statFields(java.nio.file.Path stat) throws IOException {
    return statFields(Files.readString(stat, StandardCharsets.US_ASCII));
  }

  /**
   * The fields of a {@code /proc/PID/stat} line, numbered from 0 as proc(5) numbers them from
   * 1; the command name, field 1, may hold spaces and parentheses.
   */
  static String[] statFields(String text) {
    String afterName = text.substring(text.lastIndexOf(')') + 2);
    String[] rest = afterName.trim().split(" ");
    String[] fields = new String[rest.length + 2];
    fields[0] = text.substring(0, text.indexOf(' '));
    fields[1] = text.substring(text.indexOf('(') + 1, text.lastIndexOf(')'));
    System.arraycopy(rest, 0, fields, 2, rest.length);
    return fields;
  }
}
