package dev.relaycp.transfer;

import java.io.IOException;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;

/**
 * HDFS's own client, recording the paths each caller ({@link #CALLER} in its configuration,
 * e.g. "driver" or "relays") set times on, for tests that show which process gives a copied
 * file its times. Set it as {@code fs.hdfs.impl}.
 */
public class TimesCountingFileSystem extends DistributedFileSystem {
  static final String CALLER = "relaycp.test.times-caller";
  private static final Map<String, List<String>> PATHS_BY_CALLER = new ConcurrentHashMap<>();

  private String caller = "";

  /** The paths (without scheme and authority) {@code caller}'s clients set times on. */
  static List<String> paths(String caller) {
    return List.copyOf(PATHS_BY_CALLER.getOrDefault(caller, List.of()));
  }

  static void reset() {
    PATHS_BY_CALLER.clear();
  }

  /** A configuration whose clients are this class, recording their calls as {@code caller}'s. */
  static Configuration configuration(String caller) {
    Configuration configuration = new Configuration();
    configuration.setClass("fs.hdfs.impl", TimesCountingFileSystem.class, FileSystem.class);
    configuration.set(CALLER, caller);
    return configuration;
  }

  @Override
  public void initialize(URI uri, Configuration configuration) throws IOException {
    super.initialize(uri, configuration);
    caller = configuration.get(CALLER, "");
  }

  @Override
  public void setTimes(Path path, long modificationTime, long accessTime) throws IOException {
    PATHS_BY_CALLER.computeIfAbsent(caller, key -> new CopyOnWriteArrayList<>())
        .add(path.toUri().getPath());
    super.setTimes(path, modificationTime, accessTime);
  }
}
