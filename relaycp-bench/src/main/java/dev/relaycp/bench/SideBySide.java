package dev.relaycp.bench;

import static java.util.Objects.requireNonNull;

import dev.relaycp.fs.FileSystemOpener;
import dev.relaycp.provision.LocalRelayProcesses;
import dev.relaycp.relay.RelayTls;
import dev.relaycp.relay.TransferSecret;
import dev.relaycp.transfer.ChecksumVerifier;
import dev.relaycp.transfer.CopyDriver;
import dev.relaycp.transfer.CopyReport;
import dev.relaycp.transfer.CopySettings;
import dev.relaycp.transfer.RouteSource;
import dev.relaycp.transfer.SourceTree;
import dev.relaycp.transfer.TransferProgress;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.tools.DistCp;
import org.apache.hadoop.tools.DistCpOptions;
import org.apache.hadoop.tools.DistCpOptions.FileAttribute;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Copies one dataset with relaycp (through local relay processes) and with DistCp (run
 * in-process) into two targets on the same destination, and verifies both by checksum.
 */
public final class SideBySide {
  private static final Logger LOG = LoggerFactory.getLogger(SideBySide.class);

  private final Configuration configuration;
  private final FileSystemOpener opener;

  public SideBySide(Configuration configuration) {
    this.configuration = requireNonNull(configuration, "configuration is null");
    this.opener = FileSystemOpener.of(configuration);
  }

  /** relaycp through {@code pairs} pairs of local relay processes. */
  public ToolRun relaycp(URI source, URI target, int pairs, TransferProgress.Listener progress)
      throws IOException {
    java.nio.file.Path secretFile = Files.createTempFile("relaycp-demo-secret-", "");
    TransferSecret secret = TransferSecret.generate();
    secret.writeTo(secretFile);
    try {
      return relaycp(source, target, secret,
          tree -> LocalRelayProcesses.start(pairs, secretFile, Map.of(), List.of(),
              RelayTls.identityToShare()),
          pairs + " relay pairs (local processes)", progress);
    } finally {
      Files.deleteIfExists(secretFile);
    }
  }

  /**
   * relaycp through the relays {@code relays} starts for the listing ({@code how} says what
   * they are). Their start-up is reported beside the copy's time, not in it: relays on
   * datanodes run before a copy as YARN does before a DistCp job.
   */
  public ToolRun relaycp(URI source, URI target, TransferSecret secret,
      Function<SourceTree, ? extends RouteSource> relays, String how,
      TransferProgress.Listener progress) {
    CopyReport report = new CopyDriver(opener).copy(CopySettings.of(source, target, false),
        relays, secret, progress);
    int verified = (int) report.verification().stream().filter(file -> file.verified()).count();
    double startUp = report.phaseSeconds().getOrDefault("relays", 0.0);
    Map<String, Object> details = new LinkedHashMap<>();
    details.put("provisioner", report.provisioner());
    details.put("relaysStarted", report.relaysStarted());
    details.put("routes", report.routes());
    details.put("relayStartSeconds", startUp);
    details.put("localReadFraction", report.localReadFraction());
    return new ToolRun("relaycp", report.bytes(), report.files(), report.seconds() - startUp,
        verified, String.format(Locale.ROOT, "%s; their start-up took %.1f s more; %d chunks,"
            + " %.0f%% of bytes read on a datanode holding them", how, startUp,
            report.chunks(), 100 * report.localReadFraction()), details);
  }

  public ToolRun distcp(URI source, URI target, int maps) throws Exception {
    DistCpOptions options = new DistCpOptions.Builder(List.of(new Path(source)), new Path(target))
        .maxMaps(maps)
        // -update: the source directory's contents land directly under the target, as with
        // relaycp, whether or not the target exists.
        .withSyncFolder(true)
        .preserve(FileAttribute.PERMISSION)
        .preserve(FileAttribute.REPLICATION)
        .preserve(FileAttribute.TIMES)
        .build();
    Configuration jobConfiguration = new Configuration(configuration);
    jobConfiguration.set("mapreduce.framework.name", "local");
    // As between two real clusters (and in bench/lab): the sites' block sizes may differ, and
    // DistCp then verifies its copies only with checksums that do not depend on them.
    jobConfiguration.set("dfs.checksum.combine.mode", "COMPOSITE_CRC");
    // The local job runner keeps each job's files below hadoop.tmp.dir and its staging root
    // (by default /tmp/hadoop-USER and /tmp/hadoop/mapred/staging) and never removes them:
    // give it a folder of its own, removed with the job.
    java.nio.file.Path jobFolder = Files.createTempDirectory("relaycp-demo-distcp-");
    jobConfiguration.set("hadoop.tmp.dir", jobFolder.resolve("tmp").toString());
    jobConfiguration.set("mapreduce.jobtracker.staging.root.dir",
        jobFolder.resolve("staging").toString());
    double seconds;
    try {
      long started = System.nanoTime();
      new DistCp(jobConfiguration, options).execute();
      seconds = (System.nanoTime() - started) / 1e9;
    } finally {
      if (!FileUtil.fullyDelete(jobFolder.toFile())) {
        LOG.warn("Could not remove DistCp's job folder {}", jobFolder);
      }
    }
    return verify("distcp", source, target, seconds,
        "in-process LocalJobRunner, " + maps + " maps allowed, job start-up included");
  }

  /** Verifies every file below {@code target} against its twin below {@code source}. */
  ToolRun verify(String tool, URI source, URI target, double seconds, String note)
      throws IOException {
    FileSystem sourceFileSystem = opener.open(source);
    FileSystem targetFileSystem = opener.open(target);
    ChecksumVerifier verifier = new ChecksumVerifier(sourceFileSystem, targetFileSystem);
    Path sourceRoot = sourceFileSystem.makeQualified(new Path(source));
    long bytes = 0;
    int files = 0;
    int verified = 0;
    RemoteIterator<LocatedFileStatus> listing = sourceFileSystem.listFiles(sourceRoot, true);
    while (listing.hasNext()) {
      FileStatus file = listing.next();
      String relative = file.getPath().toUri().getPath()
          .substring(sourceRoot.toUri().getPath().length() + 1);
      URI copy = targetFileSystem.makeQualified(new Path(new Path(target), relative)).toUri();
      files++;
      bytes += file.getLen();
      if (!targetFileSystem.exists(new Path(copy))) {
        LOG.warn("{} has no copy at {}", file.getPath(), copy);
      } else if (verifier.verify(relative, file.getPath().toUri(), copy, file.getLen()).verified()) {
        verified++;
      } else {
        LOG.warn("{} differs from {}", copy, file.getPath());
      }
    }
    return new ToolRun(tool, bytes, files, seconds, verified, note);
  }
}
