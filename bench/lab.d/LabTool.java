// The WAN lab's data tool, run as a single-file program (java LabTool.java ...) on
// the Hadoop class path from inside a lab host. It is not part of relaycp.
//
//   gen    URI FILES SIZE SHARD NSHARDS [THREADS [random|text]]
//          writes files SHARD, SHARD+NSHARDS, ... of FILES, each SIZE bytes, named
//          f-00000.., filled with a seeded PRNG (file i always has the same bytes)
//   verify SRC DST [THREADS]
//          compares the two trees: same relative paths, same lengths, same
//          COMPOSITE_CRC file checksums; prints one JSON line; exit 1 on mismatch
//   placement URI
//          where the tree's bytes are: one JSON line, {"groups": [{"holders": [IP, ...],
//          "bytes": N}, ...]}, one group per set of datanodes holding the same blocks
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileChecksum;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;

public class LabTool {
  public static void main(String[] args) throws Exception {
    Configuration conf = new Configuration();
    conf.set("dfs.checksum.combine.mode", "COMPOSITE_CRC");
    switch (args[0]) {
      case "gen" -> System.exit(gen(conf, args));
      case "verify" -> {
        try {
          System.exit(verify(conf, args));
        } catch (IOException e) {
          System.out.println("{\"ok\":false,\"problems\":[\""
              + String.valueOf(e).replace("\"", "'").replace("\n", " ") + "\"],\"problemCount\":1}");
          System.exit(1);
        }
      }
      case "placement" -> System.exit(placement(conf, args));
      default -> throw new IllegalArgumentException("unknown command: " + args[0]);
    }
  }

  static int gen(Configuration conf, String[] a) throws Exception {
    Path dir = new Path(a[1]);
    int files = Integer.parseInt(a[2]);
    long size = Long.parseLong(a[3]);
    int shard = Integer.parseInt(a[4]);
    int shards = Integer.parseInt(a[5]);
    int threads = a.length > 6 ? Integer.parseInt(a[6]) : 4;
    boolean text = a.length > 7 && a[7].equals("text");
    FileSystem fs = FileSystem.get(URI.create(a[1]), conf);
    fs.mkdirs(dir);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Future<?>> done = new ArrayList<>();
    for (int i = shard; i < files; i += shards) {
      int index = i;
      done.add(pool.submit(() -> {
        Path file = new Path(dir, String.format("f-%05d", index));
        if (text) {
          writeLogFile(fs, file, size, index);
        } else {
          writeFile(fs, file, size, index);
        }
        return null;
      }));
    }
    for (Future<?> f : done) {
      f.get();
    }
    pool.shutdown();
    return 0;
  }

  static void writeFile(FileSystem fs, Path p, long size, long seed) throws IOException {
    SplittableRandom rnd = new SplittableRandom(seed * 7919 + size);
    byte[] buf = new byte[1 << 16];
    try (OutputStream out = fs.create(p, true)) {
      long left = size;
      while (left > 0) {
        for (int j = 0; j < buf.length; j += 8) {
          long v = rnd.nextLong();
          for (int k = 0; k < 8; k++) {
            buf[j + k] = (byte) (v >>> (8 * k));
          }
        }
        int n = (int) Math.min(buf.length, left);
        out.write(buf, 0, n);
        left -= n;
      }
    }
  }

  /**
   * A service's log: timestamped lines of a few levels, classes and messages with numbers and
   * ids in them, as a cluster's daemons write (Snappy takes such text to about a third).
   */
  static void writeLogFile(FileSystem fs, Path p, long size, long seed) throws IOException {
    SplittableRandom rnd = new SplittableRandom(seed * 104729 + size);
    String[] levels = {"INFO ", "INFO ", "INFO ", "DEBUG", "WARN "};
    String[] classes = {"DataNode", "FSNamesystem", "BlockManager", "DataXceiver",
        "RouteWorker", "ContainerManagerImpl", "CapacityScheduler", "NetworkTopology"};
    String[] messages = {"Receiving block BP-%d:blk_%d_%d src: /10.0.%d.%d:%d",
        "Served block blk_%d_%d to /10.0.%d.%d in %d ms (%d bytes)",
        "allocate blk_%d_%d, replicas=10.0.%d.%d:%d for /data/part-%05d",
        "Container container_%d_%04d_01_%06d transitioned from RUNNING to DONE (%d)",
        "Slow BlockReceiver write data to disk cost:%dms (threshold=300ms), volume=/data%d (%d)"};
    StringBuilder line = new StringBuilder(256);
    byte[] buf = new byte[1 << 16];
    int filled = 0;
    long left = size;
    long millis = 1_795_600_000_000L + seed * 3_600_000L;
    try (OutputStream out = fs.create(p, true)) {
      while (left > 0) {
        millis += rnd.nextInt(40);
        line.setLength(0);
        line.append(java.time.Instant.ofEpochMilli(millis)).append(' ')
            .append(levels[rnd.nextInt(levels.length)]).append(' ')
            .append(classes[rnd.nextInt(classes.length)]).append(": ")
            .append(String.format(java.util.Locale.ROOT, messages[rnd.nextInt(messages.length)],
                rnd.nextInt(1 << 30), rnd.nextLong(1L << 40), rnd.nextInt(1 << 20),
                rnd.nextInt(256), rnd.nextInt(256), 1 + rnd.nextInt(65_000), rnd.nextInt(4096)))
            .append('\n');
        byte[] bytes = line.toString().getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        for (int i = 0; i < bytes.length && left > 0; i++, left--) {
          buf[filled++] = bytes[i];
          if (filled == buf.length) {
            out.write(buf, 0, filled);
            filled = 0;
          }
        }
      }
      out.write(buf, 0, filled);
    }
  }

  static Map<String, Long> list(FileSystem fs, Path root) throws IOException {
    Map<String, Long> out = new TreeMap<>();
    String base = fs.makeQualified(root).toUri().getPath();
    RemoteIterator<LocatedFileStatus> it = fs.listFiles(root, true);
    while (it.hasNext()) {
      LocatedFileStatus s = it.next();
      String rel = s.getPath().toUri().getPath().substring(base.length());
      out.put(rel, s.getLen());
    }
    return out;
  }

  static int placement(Configuration conf, String[] a) throws Exception {
    FileSystem fs = FileSystem.get(URI.create(a[1]), conf);
    Map<String, Long> bytesByHolders = new TreeMap<>();
    RemoteIterator<LocatedFileStatus> it = fs.listFiles(new Path(a[1]), true);
    while (it.hasNext()) {
      for (BlockLocation block : it.next().getBlockLocations()) {
        List<String> holders = new ArrayList<>();
        for (String name : block.getNames()) {
          holders.add("\"" + name.substring(0, name.lastIndexOf(':')) + "\"");
        }
        holders.sort(null);
        bytesByHolders.merge(String.join(",", holders), block.getLength(), Long::sum);
      }
    }
    List<String> groups = new ArrayList<>();
    bytesByHolders.forEach((holders, bytes) ->
        groups.add("{\"holders\":[" + holders + "],\"bytes\":" + bytes + "}"));
    System.out.println("{\"groups\":[" + String.join(",", groups) + "]}");
    return 0;
  }

  static int verify(Configuration conf, String[] a) throws Exception {
    Path src = new Path(a[1]);
    Path dst = new Path(a[2]);
    int threads = a.length > 3 ? Integer.parseInt(a[3]) : 8;
    FileSystem sfs = FileSystem.get(URI.create(a[1]), conf);
    FileSystem dfs = FileSystem.get(URI.create(a[2]), conf);
    long t0 = System.nanoTime();
    Map<String, Long> s = list(sfs, src);
    Map<String, Long> d = list(dfs, dst);
    List<String> problems = new ArrayList<>();
    long bytes = 0;
    for (Map.Entry<String, Long> e : s.entrySet()) {
      Long len = d.get(e.getKey());
      if (len == null) {
        problems.add("missing " + e.getKey());
      } else if (!len.equals(e.getValue())) {
        problems.add("length " + e.getKey() + " " + e.getValue() + " != " + len);
      }
      bytes += e.getValue();
    }
    for (String k : d.keySet()) {
      if (!s.containsKey(k)) {
        problems.add("extra " + k);
      }
    }
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Future<String>> checks = new ArrayList<>();
    for (String rel : s.keySet()) {
      if (!d.containsKey(rel)) {
        continue;
      }
      checks.add(pool.submit(() -> {
        // A datanode may reset one checksum read under load: that is the verifier's
        // trouble, not the copy's, so each read is tried three times before it counts.
        for (int attempt = 1; ; attempt++) {
          try {
            FileChecksum a1 = sfs.getFileChecksum(new Path(src.toString() + rel));
            FileChecksum b1 = dfs.getFileChecksum(new Path(dst.toString() + rel));
            return Objects.equals(a1, b1) ? null : "checksum " + rel + " " + a1 + " != " + b1;
          } catch (IOException e) {
            if (attempt == 3) {
              return "checksum " + rel + " unreadable: " + e.getMessage();
            }
            Thread.sleep(1000L * attempt);
          }
        }
      }));
    }
    try {
      for (Future<String> f : checks) {
        String p = f.get();
        if (p != null) {
          problems.add(p);
        }
      }
    } finally {
      // A failed check must not leave worker threads keeping this JVM alive.
      pool.shutdownNow();
    }
    double secs = (System.nanoTime() - t0) / 1e9;
    StringBuilder json = new StringBuilder();
    json.append("{\"ok\":").append(problems.isEmpty())
        .append(",\"files\":").append(s.size())
        .append(",\"bytes\":").append(bytes)
        .append(",\"seconds\":").append(String.format("%.2f", secs))
        .append(",\"mode\":\"COMPOSITE_CRC\"")
        .append(",\"problems\":[");
    for (int i = 0; i < Math.min(problems.size(), 20); i++) {
      json.append(i == 0 ? "" : ",").append('"').append(problems.get(i).replace("\"", "'")).append('"');
    }
    json.append("],\"problemCount\":").append(problems.size()).append('}');
    System.out.println(json);
    return problems.isEmpty() ? 0 : 1;
  }
}
