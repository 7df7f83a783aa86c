package dev.relaycp.transfer;

import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileChecksum;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;

/**
 * HDFS's own client, counting the file checksums asked of each cluster (by namenode
 * authority) and recording the paths it set times on, by whom where the configuration names
 * the caller ({@link #CALLER}), for tests that show which side a verification asks, and which
 * process makes a call. Set it as {@code fs.hdfs.impl}.
 */
public class CallCountingFileSystem extends DistributedFileSystem {
  /** The configuration key naming the process whose calls these are, e.g. "driver". */
  static final String CALLER = "relaycp.test.caller";
  private static final Map<String, AtomicInteger> CHECKSUMS = new ConcurrentHashMap<>();
  private static final Map<String, AtomicInteger> CHECKSUMS_BY_CALLER = new ConcurrentHashMap<>();
  private static final Map<String, List<String>> TIMES_BY_CALLER = new ConcurrentHashMap<>();

  private String caller = "";

  /** Checksums asked of the cluster at {@code authority}, by anyone. */
  static int checksums(String authority) {
    AtomicInteger calls = CHECKSUMS.get(authority);
    return calls == null ? 0 : calls.get();
  }

  /** Checksums asked of the cluster at {@code authority} by clients configured as {@code caller}. */
  static int checksums(String caller, String authority) {
    AtomicInteger calls = CHECKSUMS_BY_CALLER.get(caller + " " + authority);
    return calls == null ? 0 : calls.get();
  }

  /** The paths (without scheme and authority) {@code caller}'s clients set times on. */
  static List<String> timesSet(String caller) {
    return List.copyOf(TIMES_BY_CALLER.getOrDefault(caller, List.of()));
  }

  static void reset() {
    CHECKSUMS.clear();
    CHECKSUMS_BY_CALLER.clear();
    TIMES_BY_CALLER.clear();
  }

  /** A configuration whose clients are this class, counting their calls as {@code caller}'s. */
  static Configuration configuration(String caller) {
    Configuration configuration = new Configuration();
    configuration.setClass("fs.hdfs.impl", CallCountingFileSystem.class, FileSystem.class);
    configuration.set(CALLER, caller);
    return configuration;
  }

  @Override
  public void initialize(URI uri, Configuration configuration) throws IOException {
    super.initialize(uri, configuration);
    caller = configuration.get(CALLER, "");
  }

  @Override
  public FileChecksum getFileChecksum(Path file) throws IOException {
    String authority = getUri().getAuthority();
    CHECKSUMS.computeIfAbsent(authority, key -> new AtomicInteger()).incrementAndGet();
    CHECKSUMS_BY_CALLER.computeIfAbsent(caller + " " + authority, key -> new AtomicInteger())
        .incrementAndGet();
    return super.getFileChecksum(file);
  }

  @Override
  public void setTimes(Path path, long modificationTime, long accessTime) throws IOException {
    TIMES_BY_CALLER.computeIfAbsent(caller, key -> new CopyOnWriteArrayList<>())
        .add(path.toUri().getPath());
    super.setTimes(path, modificationTime, accessTime);
  }
}
