package dev.relaycp.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.relaycp.testkit.EmbeddedClusters;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.tools.DistCp;
import org.apache.hadoop.tools.DistCpOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * relaycp's --update, --delete, --preserve, --filters and --diff against DistCp's own: each test
 * builds a tree on the source cluster, runs DistCp (in-process, local job runner) into one
 * target and relaycp (one local relay pair) into another from the same starting state, and
 * asserts that the two targets end equal: paths, kinds, lengths, COMPOSITE_CRC checksums and
 * the attributes the test keeps.
 */
class SyncAgainstDistCpTest {
  static final long BLOCK = 256 * 1024;
  /** Smaller than the clusters' default, so a kept block size shows. */
  static final long SOURCE_BLOCK = 64 * 1024;
  static EmbeddedClusters clusters;
  static FileSystem source;
  static FileSystem destination;
  @TempDir java.nio.file.Path temporary;
  /** DistCp's local job runner keeps its staging and local folders here, not in /tmp. */
  @TempDir static java.nio.file.Path jobFolders;

  @BeforeAll
  static void startClusters() throws IOException {
    clusters = EmbeddedClusters.start(2, BLOCK);
    Configuration configuration = new Configuration();
    configuration.set("dfs.checksum.combine.mode", "COMPOSITE_CRC");
    source = FileSystem.newInstance(clusters.sourceUri("/"), configuration);
    destination = FileSystem.newInstance(clusters.destinationUri("/"), configuration);
  }

  @AfterAll
  static void stopClusters() throws IOException {
    if (source != null) {
      source.close();
      destination.close();
    }
    if (clusters != null) {
      clusters.close();
    }
  }

  @Test
  void updateSkipsEqualFilesAndReplacesChangedOnesAsDistCpDoes() throws Exception {
    Path tree = new Path("/update/src");
    writeTree(tree);
    distcp("/update/src", "/update/distcp", options -> options.withSyncFolder(true)
        .preserve("rbpt"));
    relaycp("/update/src", "/update/relaycp", "--update", "-prbpt");
    // Same length, other bytes: only the checksum tells; a longer file; a new one.
    write(new Path(tree, "a.bin"), 3 * SOURCE_BLOCK + 100, 7, (short) 1);
    write(new Path(tree, "dir/b.bin"), 2 * SOURCE_BLOCK + 5, 8, (short) 1);
    write(new Path(tree, "dir/new.bin"), 1000, 9, (short) 1);

    distcp("/update/src", "/update/distcp", options -> options.withSyncFolder(true)
        .preserve("rbpt"));
    JsonNode summary = relaycp("/update/src", "/update/relaycp", "--update", "-prbpt");

    assertThat(summary.get("skipped").asInt()).as("c.bin and empty.bin, equal at the target")
        .isEqualTo(2);
    assertThat(summary.get("files").asInt()).as("files sent").isEqualTo(3);
    assertSameTrees("/update/distcp", "/update/relaycp", false, true);
    assertSameTrees("/update/src", "/update/relaycp", true, true);
  }

  @Test
  void deleteRemovesWhatTheSourceLacksAsDistCpDoes() throws Exception {
    writeTree(new Path("/delete/src"));
    for (String target : new String[] {"/delete/distcp", "/delete/relaycp"}) {
      write(destination, new Path(target, "extra.bin"), 10, 1, (short) 1);
      write(destination, new Path(target, "dir/extra.bin"), 10, 1, (short) 1);
      write(destination, new Path(target, "gone/deep/x.bin"), 10, 1, (short) 1);
    }

    distcp("/delete/src", "/delete/distcp", options -> options.withSyncFolder(true)
        .withDeleteMissing(true).preserve("rbpt"));
    JsonNode summary = relaycp("/delete/src", "/delete/relaycp", "--update", "--delete",
        "-prbpt");

    assertThat(summary.get("deleted").asInt()).as("extra.bin, dir/extra.bin, gone")
        .isEqualTo(3);
    assertSameTrees("/delete/distcp", "/delete/relaycp", false, true);
    assertSameTrees("/delete/src", "/delete/relaycp", true, true);
  }

  @Test
  void preserveKeepsReplicationBlockSizePermissionAndTimesAsDistCpDoes() throws Exception {
    writeTree(new Path("/preserve/src"));

    distcp("/preserve/src", "/preserve/distcp", options -> options.preserve("rbpt"));
    relaycp("/preserve/src", "/preserve/relaycp", "-prbpt");

    // Without -update DistCp copies SRC as DST/SRC; relaycp puts SRC's contents in DST.
    assertThat(destination.exists(new Path("/preserve/distcp/src/a.bin"))).isTrue();
    assertSameTrees("/preserve/distcp/src", "/preserve/relaycp", false, true);
    assertSameTrees("/preserve/src", "/preserve/relaycp", true, true);
    FileStatus multiChunk = destination.getFileStatus(new Path("/preserve/relaycp/a.bin"));
    assertThat(multiChunk.getReplication()).as("a file of several chunks").isEqualTo((short) 1);
    assertThat(multiChunk.getBlockSize()).isEqualTo(SOURCE_BLOCK);
  }

  @Test
  void withoutRAndBTheDestinationsDefaultsApplyAsWithDistCp() throws Exception {
    writeTree(new Path("/defaults/src"));

    distcp("/defaults/src", "/defaults/distcp", options -> options.preserve("t"));
    relaycp("/defaults/src", "/defaults/relaycp", "-pt");

    assertSameTrees("/defaults/distcp/src", "/defaults/relaycp", false, false);
    // The defaults are the writing client's (dfs.replication, dfs.blocksize), for both tools.
    Path copy = new Path("/defaults/relaycp/a.bin");
    FileStatus copied = destination.getFileStatus(copy);
    assertThat(copied.getReplication()).isEqualTo(destination.getDefaultReplication(copy))
        .isNotEqualTo((short) 1);
    assertThat(copied.getBlockSize()).isEqualTo(destination.getDefaultBlockSize(copy))
        .isNotEqualTo(SOURCE_BLOCK);
  }

  @Test
  void filtersLeaveOutMatchingPathsAsDistCpDoes() throws Exception {
    Path tree = new Path("/filters/src");
    writeTree(tree);
    write(new Path(tree, "dir/skip.tmp"), 100, 3, (short) 1);
    write(new Path(tree, "scratch/inside.bin"), 100, 3, (short) 1);
    java.nio.file.Path filters = temporary.resolve("filters");
    java.nio.file.Files.writeString(filters, ".*\\.tmp\n.*/scratch(/.*)?\n");

    distcp("/filters/src", "/filters/distcp", options -> options
        .withFiltersFile(filters.toString()).preserve("rbpt"));
    relaycp("/filters/src", "/filters/relaycp", "--filters", filters.toString(), "-prbpt");

    assertSameTrees("/filters/distcp/src", "/filters/relaycp", false, true);
    assertThat(destination.exists(new Path("/filters/relaycp/dir/skip.tmp"))).isFalse();
    assertThat(destination.exists(new Path("/filters/relaycp/scratch"))).isFalse();
    assertThat(destination.exists(new Path("/filters/relaycp/dir/b.bin"))).isTrue();
  }

  @Test
  void diffReplaysRenamesAndDeletesAndCopiesChangesAsDistCpDoes() throws Exception {
    Path tree = new Path("/diff/src");
    writeTree(tree);
    write(new Path(tree, "moved/m.bin"), 500, 4, (short) 1);
    write(new Path(tree, "doomed/d.bin"), 500, 5, (short) 1);
    DistributedFileSystem sourceHdfs = (DistributedFileSystem) source;
    DistributedFileSystem destinationHdfs = (DistributedFileSystem) destination;
    sourceHdfs.allowSnapshot(tree);
    sourceHdfs.createSnapshot(tree, "s1");
    for (String target : new String[] {"/diff/distcp", "/diff/relaycp"}) {
      distcp("/diff/src/.snapshot/s1", target, options -> options.withSyncFolder(true)
          .preserve("rbpt"));
      destinationHdfs.allowSnapshot(new Path(target));
      destinationHdfs.createSnapshot(new Path(target), "s1");
    }
    write(new Path(tree, "dir/new.bin"), 700, 6, (short) 1);
    try (FSDataOutputStream out = source.append(new Path(tree, "a.bin"))) {
      out.write(new byte[] {1, 2, 3});
    }
    source.rename(new Path(tree, "dir/b.bin"), new Path(tree, "dir/b-renamed.bin"));
    source.rename(new Path(tree, "moved"), new Path(tree, "moved-to"));
    source.delete(new Path(tree, "doomed"), true);
    source.delete(new Path(tree, "empty.bin"), false);
    sourceHdfs.createSnapshot(tree, "s2");

    distcp("/diff/src", "/diff/distcp", options -> options.withSyncFolder(true)
        .withUseDiff("s1", "s2").preserve("rbpt"));
    JsonNode summary = relaycp("/diff/src", "/diff/relaycp", "--update", "--diff", "s1", "s2",
        "-prbpt");

    assertThat(summary.get("renamed").asInt()).isEqualTo(2);
    assertThat(summary.get("deleted").asInt()).isEqualTo(2);
    assertSameTrees("/diff/distcp", "/diff/relaycp", false, true);
    assertSameTrees("/diff/src/.snapshot/s2", "/diff/relaycp", true, true);
  }

  @Test
  void diffRefusesATargetChangedSinceTheFirstSnapshot() throws Exception {
    Path tree = new Path("/diff-refused/src");
    writeTree(tree);
    DistributedFileSystem sourceHdfs = (DistributedFileSystem) source;
    DistributedFileSystem destinationHdfs = (DistributedFileSystem) destination;
    sourceHdfs.allowSnapshot(tree);
    sourceHdfs.createSnapshot(tree, "s1");
    relaycp("/diff-refused/src/.snapshot/s1", "/diff-refused/relaycp", "--update");
    Path target = new Path("/diff-refused/relaycp");
    destinationHdfs.allowSnapshot(target);
    destinationHdfs.createSnapshot(target, "s1");
    write(destination, new Path(target, "changed-here.bin"), 10, 1, (short) 1);
    write(new Path(tree, "new.bin"), 10, 2, (short) 1);
    sourceHdfs.createSnapshot(tree, "s2");

    CopyCommandTest.Result result = run("copy", clusters.sourceUri("/diff-refused/src")
        .toString(), clusters.destinationUri("/diff-refused/relaycp").toString(),
        "--local-relays", "1", "--no-progress", "--no-history", "--update", "--diff", "s1",
        "s2");

    assertThat(result.exitCode()).isEqualTo(ExitCodes.USER);
    assertThat(result.err().strip()).contains("has changed since its snapshot s1")
        .doesNotContain("\n");
    assertThat(destination.exists(new Path(target, "new.bin"))).isFalse();
  }

  @Test
  void whatANonSuperuserCannotKeepIsListedInTheSummary() throws Exception {
    Path file = new Path("/not-kept/src/one.bin");
    write(file, 1000, 11, (short) 1);
    source.setPermission(file, new FsPermission((short) 0644));
    destination.mkdirs(new Path("/not-kept"));
    destination.setPermission(new Path("/not-kept"), new FsPermission((short) 0777));
    org.apache.hadoop.security.UserGroupInformation alice = org.apache.hadoop.security
        .UserGroupInformation.createUserForTesting("alice", new String[] {"staff"});

    JsonNode summary = alice.doAs(
        (java.security.PrivilegedExceptionAction<JsonNode>) () -> relaycp("/not-kept/src",
            "/not-kept/copy", "-pug"));

    assertThat(summary.get("verified").asBoolean()).isTrue();
    assertThat(summary.get("notPreserved")).isNotEmpty();
    assertThat(summary.get("notPreserved").findValuesAsText("what")).contains("user,group");
    assertThat(summary.get("notPreserved").findValuesAsText("path"))
        .contains("/not-kept/copy/one.bin");
    assertThat(destination.getFileStatus(new Path("/not-kept/copy/one.bin")).getLen())
        .isEqualTo(1000);
  }

  @Test
  void badCombinationsAreOneLineUserErrorsNamingTheFix() {
    String from = "hdfs://nn:8020/a";
    String to = "hdfs://nn:8020/b";
    assertRefused("--delete needs --update", from, to, "--delete");
    assertRefused("--diff needs --update", from, to, "--diff", "s1", "s2");
    assertRefused("drop --delete", from, to, "--update", "--delete", "--diff", "s1", "s2");
    assertRefused("drop --overwrite", from, to, "--update", "--overwrite");
    assertRefused("'z' is not one of rbugpaxt", from, to, "-prz");
    assertRefused("drop the c", from, to, "-prbc");
    assertRefused("both 's1'", from, to, "--update", "--diff", "s1", "s1");
  }

  @Test
  void aBadFiltersFileNamesTheLine() throws IOException {
    java.nio.file.Path filters = temporary.resolve("bad-filters");
    java.nio.file.Files.writeString(filters, ".*\\.tmp\n\n(unclosed\n");

    assertRefused("line 3 is not a Java regex", "hdfs://nn:8020/a", "hdfs://nn:8020/b",
        "--filters", filters.toString());
  }

  private static void assertRefused(String fix, String... copyArguments) {
    List<String> args = new ArrayList<>(List.of("copy", "--local-relays", "1"));
    args.addAll(List.of(copyArguments));
    CopyCommandTest.Result result = run(args.toArray(String[]::new));
    assertThat(result.exitCode()).as(String.join(" ", args)).isEqualTo(ExitCodes.USER);
    assertThat(result.err().strip()).as(String.join(" ", args)).contains(fix)
        .doesNotContain("\n");
  }

  /** A tree of files written with replication 1 and a 64 KiB block size, mode 640, old times. */
  static void writeTree(Path root) throws IOException {
    write(new Path(root, "a.bin"), 3 * SOURCE_BLOCK + 100, 1, (short) 1);
    write(new Path(root, "dir/b.bin"), 2 * SOURCE_BLOCK, 2, (short) 1);
    write(new Path(root, "dir/sub/c.bin"), 1000, 3, (short) 1);
    write(new Path(root, "empty.bin"), 0, 0, (short) 1);
    source.mkdirs(new Path(root, "empty dir"));
    RemoteIterator<org.apache.hadoop.fs.LocatedFileStatus> files = source.listFiles(root, true);
    long time = 1_600_000_000_000L;
    while (files.hasNext()) {
      Path file = files.next().getPath();
      source.setPermission(file, new FsPermission((short) 0640));
      source.setTimes(file, time, time);
      time += 60_000;
    }
  }

  static void write(Path file, long length, int seed, short replication) throws IOException {
    write(source, file, length, seed, replication);
  }

  static void write(FileSystem fileSystem, Path file, long length, int seed, short replication)
      throws IOException {
    byte[] bytes = new byte[(int) length];
    new java.util.Random(seed).nextBytes(bytes);
    try (FSDataOutputStream out = fileSystem.createFile(file).overwrite(true).recursive()
        .replication(replication).blockSize(SOURCE_BLOCK).build()) {
      out.write(bytes);
    }
  }

  static void distcp(String from, String to, Consumer<DistCpOptions.Builder> options)
      throws Exception {
    DistCpOptions.Builder builder = new DistCpOptions.Builder(
        List.of(new Path(clusters.sourceUri(from))), new Path(clusters.destinationUri(to)))
        .maxMaps(2);
    options.accept(builder);
    Configuration job = new Configuration();
    job.set("mapreduce.framework.name", "local");
    job.set("hadoop.tmp.dir", jobFolders.toString());
    job.set("mapreduce.jobtracker.staging.root.dir", jobFolders.resolve("staging").toString());
    job.set("dfs.checksum.combine.mode", "COMPOSITE_CRC");
    new DistCp(job, builder.build()).execute();
  }

  static JsonNode relaycp(String from, String to, String... extra) throws IOException {
    List<String> args = new ArrayList<>(List.of("copy", clusters.sourceUri(from).toString(),
        clusters.destinationUri(to).toString(), "--local-relays", "1", "--json",
        "--no-progress", "--no-history"));
    args.addAll(List.of(extra));
    CopyCommandTest.Result result = run(args.toArray(String[]::new));
    assertThat(result.exitCode()).as(result.err()).isEqualTo(ExitCodes.OK);
    return CopySummary.jsonMapper().readTree(result.out());
  }

  static CopyCommandTest.Result run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = RelayCpTool.commandLine(new RelayCpCommand(new Configuration()),
        new PrintWriter(out, true), new PrintWriter(err, true)).execute(args);
    return new CopyCommandTest.Result(code, out.toString(), err.toString());
  }

  /**
   * Paths, kinds, lengths, checksums, permissions and times of files, and optionally their
   * replication and block size; {@code onSource}: the expected tree is on the source cluster.
   */
  static void assertSameTrees(String expectedRoot, String actualRoot, boolean onSource,
      boolean replicationAndBlockSize) throws IOException {
    FileSystem expectedSide = onSource ? source : destination;
    Map<String, String> expected = describe(expectedSide, new Path(expectedRoot),
        replicationAndBlockSize);
    Map<String, String> actual = describe(destination, new Path(actualRoot),
        replicationAndBlockSize);
    assertThat(actual).as(actualRoot + " against " + expectedRoot)
        .containsExactlyEntriesOf(expected);
  }

  private static Map<String, String> describe(FileSystem fileSystem, Path root,
      boolean replicationAndBlockSize) throws IOException {
    Map<String, String> entries = new TreeMap<>();
    List<FileStatus> pending = new ArrayList<>(List.of(fileSystem.listStatus(root)));
    String rootPath = fileSystem.getFileStatus(root).getPath().toUri().getPath();
    while (!pending.isEmpty()) {
      FileStatus status = pending.remove(pending.size() - 1);
      String relative = status.getPath().toUri().getPath().substring(rootPath.length() + 1);
      if (status.isDirectory()) {
        entries.put(relative, "dir");
        pending.addAll(List.of(fileSystem.listStatus(status.getPath())));
        continue;
      }
      StringBuilder description = new StringBuilder()
          .append(status.getLen()).append(' ')
          .append(hex(fileSystem.getFileChecksum(status.getPath()).getBytes())).append(' ')
          .append(status.getPermission()).append(' ')
          .append(status.getModificationTime());
      if (replicationAndBlockSize) {
        description.append(" r").append(status.getReplication())
            .append(" b").append(status.getBlockSize());
      }
      entries.put(relative, description.toString());
    }
    return entries;
  }

  private static String hex(byte[] bytes) {
    return java.util.HexFormat.of().formatHex(bytes);
  }
}
