package dev.relaycp.bench;

import dev.relaycp.cli.ExitCodes;
import dev.relaycp.testkit.EmbeddedClusters;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code relaycp bench}: benchmarks of relaycp's own parts. */
@Command(name = "bench", mixinStandardHelpOptions = true,
    description = "Benchmarks of relaycp's parts.",
    subcommands = {BenchCommand.Hop.class, BenchCommand.SmallFiles.class})
public final class BenchCommand {

  /** {@code relaycp bench hop}: one relay hop, memory to memory, on loopback. */
  @Command(name = "hop", mixinStandardHelpOptions = true,
      description = "Sends DATA frames (CRC32C each) through one loopback hop with the relay's "
          + "codecs and back-pressure, memory to memory, and prints MB/s (10^6 bytes/s).")
  static final class Hop implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(names = "--bytes", defaultValue = "4000000000", paramLabel = "BYTES",
        description = "Bytes to send (default: ${DEFAULT-VALUE}).")
    long bytes;

    @Option(names = "--frame-bytes", defaultValue = "262144", paramLabel = "BYTES",
        description = "Payload bytes per frame (default: ${DEFAULT-VALUE}).")
    int frameBytes;

    @Option(names = "--runs", defaultValue = "3", paramLabel = "N",
        description = "Repetitions; the first warms the JIT (default: ${DEFAULT-VALUE}).")
    int runs;

    @Override
    public Integer call() throws Exception {
      PrintWriter out = spec.commandLine().getOut();
      for (int run = 1; run <= runs; run++) {
        RelayHopBenchmark.Result result = RelayHopBenchmark.run(bytes, frameBytes);
        out.printf(Locale.ROOT, "run %d: %d bytes in %.2f s = %.1f MB/s (frames of %d bytes, CRC32C)%n",
            run, result.bytes(), result.seconds(), result.megabytesPerSecond(), frameBytes);
        out.flush();
      }
      return ExitCodes.OK;
    }
  }

  /** {@code relaycp bench small-files}: CPU-seconds per 1,000 small files, driver and relays. */
  @Command(name = "small-files", mixinStandardHelpOptions = true,
      description = {"Copies FILES files of FILE-BYTES each between two embedded HDFS clusters",
          "(in this JVM, not counted) through PAIRS local relay pairs (child JVMs, fresh for each",
          "run) with the driver as a child JVM too, and prints each run's CPU-seconds per 1,000",
          "files: the driver's whole process, the relays' during the copy and their start. Linux."})
  static final class SmallFiles implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(names = "--files", defaultValue = "3000", paramLabel = "N",
        description = "Files in the tree (default: ${DEFAULT-VALUE}).")
    int files;

    @Option(names = "--file-bytes", defaultValue = "65536", paramLabel = "BYTES",
        description = "Bytes of each file (default: ${DEFAULT-VALUE}).")
    int fileBytes;

    @Option(names = "--pairs", defaultValue = "3", paramLabel = "N",
        description = "Relay pairs (default: ${DEFAULT-VALUE}).")
    int pairs;

    @Option(names = "--datanodes", defaultValue = "3", paramLabel = "N",
        description = "Datanodes of each cluster (default: ${DEFAULT-VALUE}).")
    int datanodes;

    @Option(names = "--runs", defaultValue = "3", paramLabel = "N",
        description = "Copies of the tree, each to a fresh target (default: ${DEFAULT-VALUE}).")
    int runs;

    @Option(names = "--relay-java-opts", defaultValue = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC",
        paramLabel = "OPTIONS",
        description = "The relays' JVM options, as the lab's (default: ${DEFAULT-VALUE}).")
    String relayJavaOptions;

    @Option(names = "--driver-java-opts", defaultValue = "-Xmx2g", paramLabel = "OPTIONS",
        description = "The driver's JVM options, as bin/relaycp's (default: ${DEFAULT-VALUE}).")
    String driverJavaOptions;

    @Option(names = "--setting", paramLabel = "KEY=VALUE",
        description = "A relaycp setting for the relays and the driver alike, as their -D"
            + " (e.g. relaycp.relay.parallel-streams=4); repeatable.")
    Map<String, String> copySettings = new LinkedHashMap<>();

    @Option(names = "--profile", paramLabel = "DIR",
        description = "Record each process with JFR (settings=profile) into DIR: "
            + "a folder for each run and role (driver-RUN, relay-RUN). Recording costs CPU too.")
    Path profileDirectory;

    @Override
    public Integer call() throws Exception {
      PrintWriter out = spec.commandLine().getOut();
      List<String> driverOptions = driverJavaOptions.isBlank()
          ? List.of() : List.of(driverJavaOptions.trim().split("\\s+"));
      SmallFileCpu.Settings settings = new SmallFileCpu.Settings(files, fileBytes, pairs,
          datanodes, relayJavaOptions, driverOptions, copySettings, profileDirectory);
      if (profileDirectory != null) {
        java.nio.file.Files.createDirectories(profileDirectory);
      }
      try (EmbeddedClusters clusters = EmbeddedClusters.start(datanodes, 128L << 20)) {
        SmallFileCpu bench = SmallFileCpu.prepare(settings, clusters);
        for (int run = 1; run <= runs; run++) {
          SmallFileCpu.Run result = bench.run();
          out.printf(Locale.ROOT, "run %d: %d files, %d bytes in %.1f s; CPU-s per 1,000 files:"
                  + " driver %.2f, relays %.2f (copy) + %.2f (their start); total CPU-s:"
                  + " driver %.1f, relays %.1f + %.1f%n",
              run, result.files(), result.bytes(), result.seconds(),
              result.perThousandFiles(result.driverCpuSeconds()),
              result.perThousandFiles(result.relayCopyCpuSeconds()),
              result.perThousandFiles(result.relayStartCpuSeconds()),
              result.driverCpuSeconds(), result.relayCopyCpuSeconds(),
              result.relayStartCpuSeconds());
          out.flush();
        }
      }
      return ExitCodes.OK;
    }
  }
}
