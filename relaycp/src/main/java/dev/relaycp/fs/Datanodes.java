package dev.relaycp.fs;

import static java.util.Objects.requireNonNull;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;

/**
 * How many datanodes a cluster has, and what they are called: from the NameNode's report of
 * live datanodes (which HDFS gives only to its superuser), or from the block locations of
 * some of its files (which any reader may see).
 *
 * @param count distinct datanodes
 * @param hosts their host names and addresses, for looking them up in a throughput history
 */
public record Datanodes(int count, List<String> hosts) {
  public Datanodes {
    requireNonNull(hosts, "hosts is null");
    hosts = List.copyOf(hosts);
    if (count < 0) {
      throw new IllegalArgumentException("count must not be negative, got " + count);
    }
  }

  /**
   * The live datanodes in the NameNode's report; empty when {@code fileSystem} is not HDFS.
   *
   * @throws RelayCpException PERMISSION_DENIED when the NameNode refuses the report (it needs
   *     the HDFS superuser), or another code when the NameNode cannot be asked
   */
  public static Optional<Datanodes> live(FileSystem fileSystem) {
    requireNonNull(fileSystem, "fileSystem is null");
    if (!(fileSystem instanceof DistributedFileSystem hdfs)) {
      return Optional.empty();
    }
    DatanodeInfo[] report = report(hdfs);
    Set<String> hosts = new LinkedHashSet<>();
    for (DatanodeInfo datanode : report) {
      hosts.add(datanode.getHostName());
      hosts.add(datanode.getIpAddr());
    }
    return Optional.of(new Datanodes(report.length, new ArrayList<>(hosts)));
  }

  /**
   * The live datanodes' transfer addresses; empty when {@code fileSystem} is not HDFS or its
   * NameNode refuses the report (it gives it only to its superuser).
   *
   * @throws RelayCpException when the NameNode cannot be asked
   */
  public static Optional<List<DatanodeAddress>> transferAddresses(FileSystem fileSystem) {
    requireNonNull(fileSystem, "fileSystem is null");
    if (!(fileSystem instanceof DistributedFileSystem hdfs)) {
      return Optional.empty();
    }
    try {
      return Optional.of(Arrays.stream(report(hdfs))
          .map(DatanodeAddress::transferAddressOf)
          .toList());
    } catch (RelayCpException e) {
      if (e.code() == ErrorCode.PERMISSION_DENIED) {
        return Optional.empty();
      }
      throw e;
    }
  }

  private static DatanodeInfo[] report(DistributedFileSystem hdfs) {
    try {
      return hdfs.getDataNodeStats(DatanodeReportType.LIVE);
    } catch (IOException e) {
      throw HadoopFailures.translate(e, "asking " + hdfs.getUri() + " for its datanodes");
    }
  }

  /**
   * The distinct datanodes (by address and transfer port) holding blocks of {@code files}; a
   * lower bound of the cluster's datanodes, exact once the files are spread over all of them.
   */
  public static Datanodes holding(FileSystem fileSystem, List<Path> files) {
    requireNonNull(fileSystem, "fileSystem is null");
    requireNonNull(files, "files is null");
    Set<String> names = new LinkedHashSet<>();
    Set<String> hosts = new LinkedHashSet<>();
    for (Path file : files) {
      BlockLocation[] blocks;
      try {
        blocks = fileSystem.getFileBlockLocations(file, 0, Long.MAX_VALUE);
      } catch (IOException e) {
        throw HadoopFailures.translate(e, "reading the block locations of " + file);
      }
      for (BlockLocation block : blocks) {
        try {
          for (String name : block.getNames()) {
            names.add(name);
            int colon = name.lastIndexOf(':');
            hosts.add(colon > 0 ? name.substring(0, colon) : name);
          }
          hosts.addAll(List.of(block.getHosts()));
        } catch (IOException e) {
          throw new RelayCpException(ErrorCode.IO_ERROR,
              "reading the block locations of " + file + " failed: " + e.getMessage(), e);
        }
      }
    }
    return new Datanodes(names.size(), new ArrayList<>(hosts));
  }
}
