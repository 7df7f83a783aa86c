package dev.relaycp.transfer;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.fs.FileChecksum;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;

/**
 * HDFS's own client, counting the file checksums asked of each cluster (by namenode
 * authority), for tests that show which side a verification asks. Set it as
 * {@code fs.hdfs.impl}.
 */
public class ChecksumCountingFileSystem extends DistributedFileSystem {
  private static final Map<String, AtomicInteger> CALLS = new ConcurrentHashMap<>();

  static int calls(String authority) {
    AtomicInteger calls = CALLS.get(authority);
    return calls == null ? 0 : calls.get();
  }

  static void reset() {
    CALLS.clear();
  }

  @Override
  public FileChecksum getFileChecksum(Path file) throws IOException {
    CALLS.computeIfAbsent(getUri().getAuthority(), authority -> new AtomicInteger())
        .incrementAndGet();
    return super.getFileChecksum(file);
  }
}
