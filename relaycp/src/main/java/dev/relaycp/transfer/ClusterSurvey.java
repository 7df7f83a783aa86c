package dev.relaycp.transfer;

import static java.util.Objects.requireNonNull;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.fs.Datanodes;
import dev.relaycp.fs.FileSystemOpener;
import java.net.URI;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * What a plan needs to know about the two clusters of a copy: the source's files and each
 * site's datanodes, with how each count was found.
 *
 * @param tree the listed source
 * @param source the source site
 * @param destination the destination site
 */
public record ClusterSurvey(SourceTree tree, Site source, Site destination) {
  /** Files whose block locations are read when the datanode report is refused. */
  static final int FILES_FOR_BLOCK_LOCATIONS = 1000;

  /**
   * One site's datanodes.
   *
   * @param datanodes how many, 1 or more
   * @param hosts their names and addresses, empty when the count was given
   * @param basis how the count was found, as a phrase for the plan's notes
   * @param replication copies the site's file system writes of each new file
   */
  public record Site(int datanodes, List<String> hosts, String basis, int replication) {
    public Site {
      requireNonNull(hosts, "hosts is null");
      requireNonNull(basis, "basis is null");
      hosts = List.copyOf(hosts);
      if (datanodes < 1 || replication < 1) {
        throw new IllegalArgumentException("datanodes " + datanodes + " and replication "
            + replication + " must be 1 or more");
      }
    }
  }

  public ClusterSurvey {
    requireNonNull(tree, "tree is null");
    requireNonNull(source, "source is null");
    requireNonNull(destination, "destination is null");
  }

  /**
   * Lists {@code sourceUri} and counts each site's datanodes: {@code sourceDatanodes} or
   * {@code destinationDatanodes} when given, else the NameNode's report of live datanodes. When
   * the NameNode refuses the report (it needs the HDFS superuser), the source's count falls
   * back to the datanodes holding its files' blocks, and the destination's is an error that
   * asks for {@code --dst-datanodes}.
   */
  public static ClusterSurvey of(FileSystemOpener opener, URI sourceUri, URI destinationUri,
      OptionalInt sourceDatanodes, OptionalInt destinationDatanodes) {
    requireNonNull(opener, "opener is null");
    requireNonNull(sourceUri, "sourceUri is null");
    requireNonNull(destinationUri, "destinationUri is null");
    requireNonNull(sourceDatanodes, "sourceDatanodes is null");
    requireNonNull(destinationDatanodes, "destinationDatanodes is null");
    FileSystem source = opener.open(sourceUri);
    SourceTree tree = SourceLister.list(source, source.makeQualified(new Path(sourceUri)));
    return ofListed(opener, tree, sourceUri, destinationUri, sourceDatanodes,
        destinationDatanodes);
  }

  /**
   * As {@link #of}, for a source a copy has listed already: {@code tree}, what it will copy
   * (after --update's skipped files and those an earlier run committed), so that the plan is
   * of the same files, and the NameNode lists them once.
   */
  public static ClusterSurvey ofListed(FileSystemOpener opener, SourceTree tree, URI sourceUri,
      URI destinationUri, OptionalInt sourceDatanodes, OptionalInt destinationDatanodes) {
    requireNonNull(opener, "opener is null");
    requireNonNull(tree, "tree is null");
    requireNonNull(sourceUri, "sourceUri is null");
    requireNonNull(destinationUri, "destinationUri is null");
    requireNonNull(sourceDatanodes, "sourceDatanodes is null");
    requireNonNull(destinationDatanodes, "destinationDatanodes is null");
    FileSystem source = opener.open(sourceUri);
    FileSystem destination = opener.open(destinationUri);
    Path destinationPath = destination.makeQualified(new Path(destinationUri));
    int replication = Math.max(1, destination.getDefaultReplication(destinationPath));
    return new ClusterSurvey(tree,
        sourceSite(source, tree, sourceDatanodes),
        destinationSite(destination, destinationDatanodes, replication));
  }

  private static Site sourceSite(FileSystem source, SourceTree tree, OptionalInt given) {
    int replication = tree.files().stream().mapToInt(SourceFile::replication).max().orElse(1);
    if (given.isPresent()) {
      return new Site(given.getAsInt(), List.of(), "--src-datanodes", replication);
    }
    String fallback;
    try {
      Optional<Datanodes> live = Datanodes.live(source);
      if (live.isPresent() && live.get().count() > 0) {
        return new Site(live.get().count(), live.get().hosts(), "the NameNode's datanode report",
            replication);
      }
      fallback = live.isPresent() ? "the NameNode reports no live datanode"
          : "not HDFS, so no datanode report";
    } catch (RelayCpException e) {
      if (e.code() != ErrorCode.PERMISSION_DENIED) {
        throw e;
      }
      fallback = "the datanode report needs the HDFS superuser";
    }
    List<Path> files = tree.files().stream()
        .filter(file -> file.length() > 0)
        .limit(FILES_FOR_BLOCK_LOCATIONS)
        .map(file -> new Path(file.uri()))
        .toList();
    Datanodes holding = Datanodes.holding(source, files);
    return new Site(Math.max(1, holding.count()), holding.hosts(),
        "the distinct datanodes holding blocks of " + files.size() + " source file(s) (" + fallback
            + "; give --src-datanodes N for the exact count)",
        replication);
  }

  private static Site destinationSite(FileSystem destination, OptionalInt given,
      int replication) {
    if (given.isPresent()) {
      return new Site(given.getAsInt(), List.of(), "--dst-datanodes", replication);
    }
    Optional<Datanodes> live;
    try {
      live = Datanodes.live(destination);
    } catch (RelayCpException e) {
      if (e.code() != ErrorCode.PERMISSION_DENIED) {
        throw e;
      }
      throw new RelayCpException(ErrorCode.PERMISSION_DENIED,
          "cannot count the destination's datanodes: the NameNode's datanode report needs the"
              + " HDFS superuser; give --dst-datanodes N", e);
    }
    if (live.isEmpty()) {
      return new Site(1, List.of(),
          "not HDFS, counted as one node (give --dst-datanodes N)", replication);
    }
    if (live.get().count() == 0) {
      throw new RelayCpException(ErrorCode.CLUSTER_UNREACHABLE,
          "the destination's NameNode reports no live datanode; start its datanodes first");
    }
    return new Site(live.get().count(), live.get().hosts(), "the NameNode's datanode report",
        replication);
  }
}
