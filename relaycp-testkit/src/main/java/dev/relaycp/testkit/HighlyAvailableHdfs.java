package dev.relaycp.testkit;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.MiniDFSNNTopology;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.apache.hadoop.hdfs.server.namenode.ha.ConfiguredFailoverProxyProvider;

/**
 * In-process HDFS clusters of two NameNodes behind a nameservice, as production clusters run,
 * for tests that open a cluster by its nameservice ({@code hdfs://NAME/...}) and fail it over:
 * the cluster's topology, what a client's hdfs-site.xml says of the nameservice, and a failover
 * as an administrator makes one.
 */
public final class HighlyAvailableHdfs {
  private static final List<String> NAMENODES = List.of("nn1", "nn2");

  private HighlyAvailableHdfs() {}

  /**
   * Builds {@code builder}'s cluster as NameNodes nn1 and nn2 of {@code nameservice}, and
   * returns it once both are up and nn1 is active.
   */
  public static MiniDFSCluster build(MiniDFSCluster.Builder builder, String nameservice)
      throws IOException {
    requireNonNull(builder, "builder is null");
    requireNonNull(nameservice, "nameservice is null");
    MiniDFSNNTopology.NSConf service = new MiniDFSNNTopology.NSConf(nameservice);
    NAMENODES.forEach(id -> service.addNN(new MiniDFSNNTopology.NNConf(id)));
    MiniDFSCluster cluster =
        builder.nnTopology(new MiniDFSNNTopology().addNameservice(service)).build();
    cluster.waitActive();
    cluster.transitionToActive(0);
    return cluster;
  }

  /**
   * The keys a client's hdfs-site.xml gives for {@code nameservice}, served by {@code cluster}
   * (one {@link #build} made) with its NameNodes reached at {@code host}: the NameNodes, their
   * RPC addresses and HDFS's failover proxy. {@code dfs.nameservices}, which lists every
   * nameservice a client knows, is the caller's.
   */
  public static Map<String, String> clientKeys(String nameservice, MiniDFSCluster cluster,
      String host) {
    requireNonNull(nameservice, "nameservice is null");
    requireNonNull(cluster, "cluster is null");
    requireNonNull(host, "host is null");
    Map<String, String> keys = new LinkedHashMap<>();
    keys.put(HdfsClientConfigKeys.DFS_HA_NAMENODES_KEY_PREFIX + "." + nameservice,
        String.join(",", NAMENODES));
    for (int index = 0; index < NAMENODES.size(); index++) {
      keys.put(DFSConfigKeys.DFS_NAMENODE_RPC_ADDRESS_KEY + "." + nameservice + "."
          + NAMENODES.get(index),
          host + ":" + cluster.getNameNode(index).getNameNodeAddress().getPort());
    }
    keys.put(HdfsClientConfigKeys.Failover.PROXY_PROVIDER_KEY_PREFIX + "." + nameservice,
        ConfiguredFailoverProxyProvider.class.getName());
    return keys;
  }

  /** Makes {@code cluster}'s active NameNode standby and the other active. */
  public static void failOver(MiniDFSCluster cluster) throws IOException {
    int active = cluster.getNameNode(0).isActiveState() ? 0 : 1;
    cluster.transitionToStandby(active);
    cluster.transitionToActive(1 - active);
  }
}
