package dev.relaycp.cli;

import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;

/**
 * The training relay of {@link RelayClassDataCommand}: run in the JVM that archives the classes
 * it loads as it exits, it makes an HDFS client (which connects nowhere until used: a relay's
 * first chunk or heartbeat would load it) and then runs relaycp's {@link Main} with its
 * arguments, a relay that warms up, listens and ends.
 */
public final class RelayClassDataTraining {
  /** An address no namenode answers at; the client made for it is closed unused. */
  private static final URI UNUSED_CLUSTER = URI.create("hdfs://127.0.0.1:1/");

  private RelayClassDataTraining() {}

  public static void main(String[] args) throws Exception {
    FileSystem.newInstance(UNUSED_CLUSTER, new Configuration()).close();
    Main.main(args);
  }
}
