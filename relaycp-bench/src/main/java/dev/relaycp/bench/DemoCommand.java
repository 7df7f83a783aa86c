package dev.relaycp.bench;

import dev.relaycp.cli.CopySummary;
import dev.relaycp.cli.CopyProgress;
import dev.relaycp.cli.ExitCodes;
import dev.relaycp.cli.HadoopOptions;
import dev.relaycp.cli.RelayCpCommand;
import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.testkit.DemoDataset;
import dev.relaycp.testkit.EmbeddedClusters;
import dev.relaycp.fs.FileSystemOpener;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code relaycp demo}: two embedded clusters, relaycp beside DistCp, both verified. */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    description = {
        "Starts two in-process HDFS clusters, writes a dataset (a multi-block file, a",
        "one-block file, an empty file, many small files, nested directories with spaces",
        "and non-ASCII names), copies it with relaycp through local relays and with DistCp,",
        "verifies both copies by checksum and prints them side by side. Exit code 0 only",
        "if every file of both copies verified."
    })
public final class DemoCommand implements Callable<Integer> {
  @ParentCommand RelayCpCommand parent;
  @Spec CommandSpec spec;
  @Mixin HadoopOptions hadoop;

  @Option(names = "--json", description = "Print the results as JSON.")
  boolean json;

  @Option(names = "--pairs", defaultValue = "2", paramLabel = "N",
      description = "Local relay pairs for relaycp (default: ${DEFAULT-VALUE}).")
  int pairs;

  @Option(names = "--relays", defaultValue = "local", paramLabel = "local|yarn",
      description = "local: relay pairs as processes of this machine (--pairs). yarn: a"
          + " MiniYARNCluster beside each cluster, one NodeManager per datanode, and relaycp's"
          + " relays as its containers, one per datanode (default: ${DEFAULT-VALUE}).")
  String relays;

  @Option(names = "--datanodes", defaultValue = "2", paramLabel = "N",
      description = "Datanodes per cluster (default: ${DEFAULT-VALUE}).")
  int datanodes;

  @Option(names = "--block-size", defaultValue = "1048576", paramLabel = "BYTES",
      description = "Block size of both clusters (default: ${DEFAULT-VALUE}).")
  long blockSize;

  @Option(names = "--small-files", defaultValue = "200", paramLabel = "N",
      description = "How many small files the dataset has (default: ${DEFAULT-VALUE}).")
  int smallFiles;

  @Option(names = "--blocks", defaultValue = "48", paramLabel = "N",
      description = "Blocks in the multi-block file (default: ${DEFAULT-VALUE}).")
  int blocks;

  @Override
  public Integer call() throws Exception {
    Configuration configuration = hadoop.apply(parent.configuration());
    if ("yarn".equalsIgnoreCase(relays)) {
      return new YarnDemo(configuration, spec.commandLine().getOut(),
          spec.commandLine().getErr(), json, datanodes, blockSize, smallFiles, blocks).run();
    }
    if (!"local".equalsIgnoreCase(relays)) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT,
          "--relays '" + relays + "' is neither local nor yarn");
    }
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    try (EmbeddedClusters clusters = EmbeddedClusters.start(datanodes, blockSize)) {
      FileSystem source = FileSystemOpener.of(configuration).open(clusters.sourceUri("/"));
      List<String> files = DemoDataset.write(source, new Path("/demo"), blockSize, smallFiles,
          blocks, 20261122L);
      if (!json) {
        err.printf(Locale.ROOT, "Dataset: %d files on %s; copying with relaycp (%d relay pairs) and DistCp%n",
            files.size(), clusters.sourceUri("/demo"), pairs);
        err.flush();
      }
      SideBySide harness = new SideBySide(configuration);
      ToolRun relaycp = harness.relaycp(clusters.sourceUri("/demo"),
          clusters.destinationUri("/relaycp-copy"), pairs, CopyProgress.start(!json));
      ToolRun distcp = harness.distcp(clusters.sourceUri("/demo"),
          clusters.destinationUri("/distcp-copy"), 2 * pairs);
      return report(out, json, "local", List.of(relaycp, distcp));
    }
  }

  /** Prints the runs side by side; the exit code says whether every file of both verified. */
  static int report(PrintWriter out, boolean json, String provisioner, List<ToolRun> runs)
      throws IOException {
    if (json) {
      Map<String, Object> result = asJson(runs);
      result.put("provisioner", provisioner);
      out.println(CopySummary.jsonMapper().writeValueAsString(result));
    } else {
      printTable(out, runs);
    }
    out.flush();
    return runs.stream().allMatch(ToolRun::verified) ? ExitCodes.OK : ExitCodes.VERIFICATION_FAILED;
  }

  private static void printTable(PrintWriter out, List<ToolRun> runs) {
    out.printf(Locale.ROOT, "%-8s %12s %6s %9s %8s %9s  %s%n",
        "tool", "bytes", "files", "seconds", "MB/s", "verified", "how");
    for (ToolRun run : runs) {
      out.printf(Locale.ROOT, "%-8s %12d %6d %9.2f %8.2f %9s  %s%n", run.tool(), run.bytes(), run.files(),
          run.seconds(), run.megabytesPerSecond(),
          run.verifiedFiles() + "/" + run.files(), run.note());
    }
    ToolRun relaycp = runs.get(0);
    ToolRun distcp = runs.get(1);
    out.printf(Locale.ROOT, "relaycp/DistCp throughput: %.2fx (loopback: no WAN cap, so this shows overhead only)%n",
        relaycp.megabytesPerSecond() / distcp.megabytesPerSecond());
  }

  private static Map<String, Object> asJson(List<ToolRun> runs) {
    Map<String, Object> result = new LinkedHashMap<>();
    for (ToolRun run : runs) {
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("bytes", run.bytes());
      entry.put("files", run.files());
      entry.put("seconds", run.seconds());
      entry.put("mbPerSecond", run.megabytesPerSecond());
      entry.put("verifiedFiles", run.verifiedFiles());
      entry.put("verified", run.verified());
      entry.put("note", run.note());
      entry.putAll(run.details());
      result.put(run.tool(), entry);
    }
    result.put("ratio", runs.get(0).megabytesPerSecond() / runs.get(1).megabytesPerSecond());
    result.put("allVerified", runs.stream().allMatch(ToolRun::verified));
    return result;
  }
}
