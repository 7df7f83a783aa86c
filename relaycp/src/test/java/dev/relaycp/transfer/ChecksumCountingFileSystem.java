package dev.relaycp.transfer;

import java.io.IOException;
import java.net.URI;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileChecksum;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;

/**
 * HDFS's own client, counting the file checksums asked of each cluster (by namenode
 * authority), and by whom where the configuration names the caller ({@link #CALLER}), for
 * tests that show which side a verification asks and which process asks it. Set it as
 * {@code fs.hdfs.impl}.
 */
public class ChecksumCountingFileSystem extends DistributedFileSystem {
  /** The configuration key naming the process whose calls these are, e.g. "driver". */
  static final String CALLER = "relaycp.test.checksum-caller";
  private static final Map<String, AtomicInteger> CALLS = new ConcurrentHashMap<>();
  private static final Map<String, AtomicInteger> CALLS_BY_CALLER = new ConcurrentHashMap<>();

  private String caller = "";

  /** Checksums asked of the cluster at {@code authority}, by anyone. */
  static int calls(String authority) {
    AtomicInteger calls = CALLS.get(authority);
    return calls == null ? 0 : calls.get();
  }

  /** Checksums asked of the cluster at {@code authority} by clients configured as {@code caller}. */
  static int calls(String caller, String authority) {
    AtomicInteger calls = CALLS_BY_CALLER.get(caller + " " + authority);
    return calls == null ? 0 : calls.get();
  }

  static void reset() {
    CALLS.clear();
    CALLS_BY_CALLER.clear();
  }

  /** A configuration whose clients are this class, counting their calls as {@code caller}'s. */
  static Configuration configuration(String caller) {
    Configuration configuration = new Configuration();
    configuration.setClass("fs.hdfs.impl", ChecksumCountingFileSystem.class, FileSystem.class);
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
    CALLS.computeIfAbsent(authority, key -> new AtomicInteger()).incrementAndGet();
    CALLS_BY_CALLER.computeIfAbsent(caller + " " + authority, key -> new AtomicInteger())
        .incrementAndGet();
    return super.getFileChecksum(file);
  }
}
