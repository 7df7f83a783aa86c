package dev.relaycp.bench;

import dev.relaycp.cli.CopySummary;
import dev.relaycp.cli.HadoopOptions;
import dev.relaycp.cli.RelayCpCommand;
import dev.relaycp.fs.FileSystemOpener;
import dev.relaycp.testkit.DemoDataset;
import dev.relaycp.testkit.EmbeddedClusters;
import dev.relaycp.testkit.EmbeddedSites;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code relaycp demo-clusters}: the demo's two embedded HDFS clusters, kept up for other
 * programs to copy between (the Airflow provider's tests) until standard input closes or the
 * process gets SIGTERM. With {@code --yarn} each cluster has a MiniYARNCluster beside it (each
 * site a JVM of its own, {@link EmbeddedSites}) and a client configuration folder, as a user
 * has for a real cluster, so that relays can be YARN containers ({@code --relays yarn},
 * {@code relay-pool}).
 */
@Command(
    name = "demo-clusters",
    mixinStandardHelpOptions = true,
    description = {
        "Starts the demo's two in-process HDFS clusters, writes the demo's dataset on the",
        "source under /demo, prints one line of JSON on standard output (source and",
        "destination hdfs:// URIs, the dataset's folder, files and bytes), and keeps both",
        "clusters up until standard input closes or the process is sent SIGTERM."
    })
public final class DemoClustersCommand implements Callable<Integer> {
  static final String DATASET = "/demo";

  @ParentCommand RelayCpCommand parent;
  @Spec CommandSpec spec;
  @Mixin HadoopOptions hadoop;

  @Option(names = "--datanodes", defaultValue = "1", paramLabel = "N",
      description = "Datanodes per cluster (default: ${DEFAULT-VALUE}).")
  int datanodes;

  @Option(names = "--block-size", defaultValue = "262144", paramLabel = "BYTES",
      description = "Block size of both clusters (default: ${DEFAULT-VALUE}).")
  long blockSize;

  @Option(names = "--small-files", defaultValue = "20", paramLabel = "N",
      description = "How many small files the dataset has (default: ${DEFAULT-VALUE}).")
  int smallFiles;

  @Option(names = "--blocks", defaultValue = "8", paramLabel = "N",
      description = "Blocks in the multi-block file (default: ${DEFAULT-VALUE}).")
  int blocks;

  @Option(names = "--yarn",
      description = "Start a MiniYARNCluster beside each cluster too, one NodeManager per"
          + " datanode, and write each site's configuration folder (named in the line as"
          + " sourceConf and destinationConf), for relays as YARN containers.")
  boolean yarn;

  private final InputStream stdin;

  public DemoClustersCommand() {
    this(System.in);
  }

  /** A command that keeps the clusters up until {@code stdin} ends. */
  DemoClustersCommand(InputStream stdin) {
    this.stdin = stdin;
  }

  @Override
  public Integer call() throws IOException {
    Configuration configuration = hadoop.apply(parent.configuration());
    Clusters clusters = yarn ? Clusters.withYarn(datanodes, blockSize)
        : Clusters.hdfsOnly(datanodes, blockSize);
    AtomicBoolean stopped = new AtomicBoolean();
    Runnable stop = () -> {
      if (stopped.compareAndSet(false, true)) {
        clusters.close();
      }
    };
    // SIGTERM runs shutdown hooks, not the rest of call(): the hook stops the clusters.
    Thread hook = new Thread(stop, "demo-clusters-stop");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      FileSystem source = FileSystemOpener.of(configuration).open(clusters.source());
      List<String> files = DemoDataset.write(source, new Path(DATASET), blockSize, smallFiles,
          blocks, 20261124L);
      Map<String, Object> ready = new LinkedHashMap<>();
      ready.put("source", clusters.source().toString());
      ready.put("destination", clusters.destination().toString());
      ready.put("dataset", DATASET);
      ready.put("files", files.size());
      ready.put("bytes", source.getContentSummary(new Path(DATASET)).getLength());
      if (clusters.folders() != null) {
        ready.put("sourceConf", clusters.folders().resolve("src").toString());
        ready.put("destinationConf", clusters.folders().resolve("dst").toString());
      }
      PrintWriter out = spec.commandLine().getOut();
      out.println(CopySummary.jsonMapper().writeValueAsString(ready));
      out.flush();
      while (stdin.read() >= 0) {
        // Anything written is ignored; the end of input is the signal to stop.
      }
      return 0;
    } finally {
      stop.run();
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // The JVM is already shutting down, and the hook has run or is running.
      }
    }
  }

  /**
   * The two clusters, their root URIs, and with YARN the folder of their configuration
   * folders ({@code src/} and {@code dst/}, else null); closing stops both and removes it.
   */
  private record Clusters(URI source, URI destination, java.nio.file.Path folders,
      Runnable stop) {
    static Clusters hdfsOnly(int datanodes, long blockSize) throws IOException {
      EmbeddedClusters clusters = EmbeddedClusters.start(datanodes, blockSize);
      return new Clusters(clusters.sourceUri(""), clusters.destinationUri(""), null,
          clusters::close);
    }

    static Clusters withYarn(int datanodes, long blockSize) throws IOException {
      EmbeddedSites sites = EmbeddedSites.start(datanodes, blockSize, YarnDemo.hadoopClassPath());
      java.nio.file.Path folders;
      try {
        folders = Files.createTempDirectory("relaycp-demo-conf-");
        sites.source().writeConfigurationFolder(folders.resolve("src"));
        sites.destination().writeConfigurationFolder(folders.resolve("dst"));
      } catch (IOException | RuntimeException e) {
        sites.close();
        throw e;
      }
      return new Clusters(sites.source().uri(""), sites.destination().uri(""), folders, () -> {
        try {
          sites.close();
        } finally {
          FileUtil.fullyDelete(folders.toFile());
        }
      });
    }

    void close() {
      stop.run();
    }
  }
}
