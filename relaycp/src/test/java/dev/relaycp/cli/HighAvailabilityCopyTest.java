package dev.relaycp.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.relaycp.testkit.EmbeddedHdfs;
import dev.relaycp.testkit.HighlyAvailableHdfs;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Copies between two clusters that run as real ones do, each with two namenodes behind a
 * logical nameservice ({@code hdfs://src/...}, {@code hdfs://dst/...}) that clients reach
 * through HDFS's failover proxy: the copy and its relays open the clusters by nameservice,
 * and a copy during which both clusters fail over to their other namenode still ends verified.
 */
class HighAvailabilityCopyTest {
  private static final int BLOCK = 1024 * 1024;
  private static final Map<String, byte[]> FILES = new TreeMap<>();

  @TempDir static Path base;
  static MiniDFSCluster source;
  static MiniDFSCluster destination;
  /** The clients' view of both sites, their nameservices and namenodes, given by -D. */
  static Map<String, String> clientKeys = new TreeMap<>();

  @BeforeAll
  static void start() throws Exception {
    source = cluster("src");
    destination = cluster("dst");
    clientKeys.put(DFSConfigKeys.DFS_NAMESERVICES, "src,dst");
    describe("src", source);
    describe("dst", destination);
    Random random = new Random(11);
    for (int index = 0; index < 12; index++) {
      FILES.put("part-" + index, bytes(random, 64 * 1024 + index));
    }
    FILES.put("nested/blocks.bin", bytes(random, 5 * BLOCK + 123));
    try (FileSystem files = FileSystem.newInstance(URI.create("hdfs://src/"), client())) {
      for (Map.Entry<String, byte[]> file : FILES.entrySet()) {
        org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path("/data", file.getKey());
        try (OutputStream out = files.create(path)) {
          out.write(file.getValue());
        }
      }
    }
  }

  /** A cluster of two namenodes (the first active) in nameservice {@code nameservice}. */
  private static MiniDFSCluster cluster(String nameservice) throws IOException {
    Configuration configuration = EmbeddedHdfs.clientConfiguration();
    EmbeddedHdfs.smallBlocks(BLOCK, 2).accept(configuration);
    return HighlyAvailableHdfs.build(new MiniDFSCluster.Builder(configuration,
        base.resolve(nameservice).toFile()).numDataNodes(2), nameservice);
  }

  /** What a client's hdfs-site.xml says of the nameservice: its namenodes and failover proxy. */
  private static void describe(String nameservice, MiniDFSCluster cluster) {
    clientKeys.putAll(HighlyAvailableHdfs.clientKeys(nameservice, cluster, "127.0.0.1"));
  }

  private static Configuration client() {
    Configuration configuration = EmbeddedHdfs.clientConfiguration();
    clientKeys.forEach(configuration::set);
    return configuration;
  }

  @AfterAll
  static void stop() {
    try {
      if (destination != null) {
        destination.shutdown();
      }
    } finally {
      if (source != null) {
        source.shutdown();
      }
    }
  }

  record Result(int exitCode, String out, String err) {}

  /** relaycp with the clients' keys given by -D, as a user without a site file gives them. */
  private static Result run(String... arguments) {
    List<String> all = new ArrayList<>(List.of(arguments));
    clientKeys.forEach((key, value) -> all.addAll(List.of("-D", key + "=" + value)));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = RelayCpTool.commandLine(new RelayCpCommand(new Configuration()),
        new PrintWriter(out, true), new PrintWriter(err, true))
        .execute(all.toArray(String[]::new));
    return new Result(code, out.toString(), err.toString());
  }

  @Test
  void aCopyBetweenNameservicesVerifies() throws Exception {
    Result copy = run("copy", "hdfs://src/data", "hdfs://dst/copy", "--local-relays", "2",
        "--json", "--no-progress", "--no-history");

    assertThat(copy.exitCode()).as(copy.err()).isZero();
    JsonNode summary = new ObjectMapper().readTree(copy.out());
    assertThat(summary.get("verified").asBoolean()).isTrue();
    assertThat(summary.get("files").asInt()).isEqualTo(FILES.size());
    assertCopied("/copy");
  }

  @Test
  void aCopyDuringWhichBothClustersFailOverEndsVerified() throws Exception {
    // About 6 s of copying at 1 MiB/s a relay, so that the failovers fall within it.
    CompletableFuture<Result> copy = CompletableFuture.supplyAsync(() -> run("copy",
        "hdfs://src/data", "hdfs://dst/failed-over", "--local-relays", "1",
        "--json", "--no-progress", "--no-history",
        "-D", "relaycp.relay.bytes-per-second-limit=1048576"));
    TimeUnit.SECONDS.sleep(2);
    assertThat(copy).as("the copy runs when the namenodes fail over").isNotDone();
    HighlyAvailableHdfs.failOver(source);
    HighlyAvailableHdfs.failOver(destination);

    Result result = copy.get(180, TimeUnit.SECONDS);
    assertThat(result.exitCode()).as(result.err()).isZero();
    JsonNode summary = new ObjectMapper().readTree(result.out());
    assertThat(summary.get("verified").asBoolean()).isTrue();
    assertCopied("/failed-over");
  }

  private static void assertCopied(String target) throws IOException {
    try (FileSystem files = FileSystem.newInstance(URI.create("hdfs://dst/"), client())) {
      for (Map.Entry<String, byte[]> file : FILES.entrySet()) {
        try (InputStream in = files.open(new org.apache.hadoop.fs.Path(target, file.getKey()))) {
          assertThat(in.readAllBytes()).as(file.getKey()).isEqualTo(file.getValue());
        }
      }
    }
  }

  private static byte[] bytes(Random random, int length) {
    byte[] bytes = new byte[length];
    random.nextBytes(bytes);
    return bytes;
  }
}
