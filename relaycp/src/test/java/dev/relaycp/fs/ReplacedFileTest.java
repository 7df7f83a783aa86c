package dev.relaycp.fs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.relaycp.testkit.EmbeddedHdfs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.PrivilegedExceptionAction;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A file replaced whole, owner-only, on a real HDFS and on the local disk. */
class ReplacedFileTest {
  static EmbeddedHdfs hdfs;
  static FileSystem fileSystem;

  @TempDir java.nio.file.Path folder;

  @BeforeAll
  static void start() throws Exception {
    hdfs = EmbeddedHdfs.start("replaced-file", 1);
    fileSystem = hdfs.fileSystem();
  }

  @AfterAll
  static void stop() {
    if (hdfs != null) {
      hdfs.close();
    }
  }

  @Test
  void onHdfsEachWriteReplacesTheFileWholeAndOnlyItsOwnerMayReadIt() throws Exception {
    fileSystem.mkdirs(new Path("/pools"), new FsPermission((short) 0777));
    String location = fileSystem.makeQualified(new Path("/pools/a.pool")).toString();
    ReplacedFile file = ReplacedFile.at(location, fileSystem.getConf());
    assertThat(file).hasToString(location);
    assertThat(file.read()).isEmpty();
    assertThat(file.exists()).isFalse();
    assertThat(file.whyNotWritable()).isEmpty();

    file.replace(bytes("first, and longer than the second"));
    file.replace(bytes("second"));

    assertThat(text(file.read())).isEqualTo("second");
    FileStatus[] listed = fileSystem.listStatus(new Path("/pools"));
    assertThat(listed).as("one file, no part left").hasSize(1);
    assertThat(listed[0].getPermission()).isEqualTo(new FsPermission((short) 0600));
    // Another user of the cluster cannot read it.
    UserGroupInformation mallory = UserGroupInformation.createUserForTesting("mallory",
        new String[] {"others"});
    boolean readByAnother = mallory.doAs((PrivilegedExceptionAction<Boolean>) () -> {
      try (FileSystem theirs = FileSystem.newInstance(fileSystem.getUri(), fileSystem.getConf())) {
        theirs.open(new Path("/pools/a.pool")).close();
        return true;
      } catch (org.apache.hadoop.security.AccessControlException e) {
        return false;
      }
    });
    assertThat(readByAnother).isFalse();
  }

  @Test
  void onHdfsTouchSetsTheTimeReadGives() throws Exception {
    ReplacedFile file = ReplacedFile.at(
        fileSystem.makeQualified(new Path("/touched.pool")).toString(), fileSystem.getConf());
    file.replace(bytes("pool"));
    Instant later = Instant.now().plus(1, ChronoUnit.HOURS).truncatedTo(ChronoUnit.MILLIS);

    assertThat(file.touch(later)).isTrue();
    assertThat(file.read().orElseThrow().written()).isEqualTo(later);

    file.delete();
    assertThat(file.exists()).isFalse();
    assertThat(file.touch(later)).as("a file that is gone").isFalse();
    file.delete();
  }

  @Test
  void onHdfsAFolderThatIsMissingOrNotTheUsersIsNamed() throws Exception {
    Configuration configuration = fileSystem.getConf();
    assertThat(ReplacedFile.at(fileSystem.makeQualified(new Path("/nowhere/x.pool")).toString(),
        configuration).whyNotWritable().orElseThrow())
        .matches("folder hdfs://.*/nowhere does not exist");

    fileSystem.mkdirs(new Path("/closed"), new FsPermission((short) 0755));
    UserGroupInformation mallory = UserGroupInformation.createUserForTesting("mallory",
        new String[] {"others"});
    Optional<String> why = mallory.doAs((PrivilegedExceptionAction<Optional<String>>) () ->
        ReplacedFile.at(fileSystem.makeQualified(new Path("/closed/x.pool")).toString(),
            configuration).whyNotWritable());
    assertThat(why.orElseThrow()).matches("folder hdfs://.*/closed is not writable by mallory");
  }

  @Test
  void aPathWithoutAHadoopSchemeIsOnThisMachine() throws Exception {
    java.nio.file.Path path = folder.resolve("local.pool");
    for (String location : Arrays.asList(path.toString(), path.toUri().toString())) {
      ReplacedFile file = ReplacedFile.at(location, new Configuration(false));
      file.replace(bytes(location));

      assertThat(file).hasToString(path.toString());
      assertThat(Files.readString(path)).isEqualTo(location);
      assertThat(text(file.read())).isEqualTo(location);
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(path)))
          .isEqualTo("rw-------");
    }
    try (var files = Files.list(folder)) {
      assertThat(files.toList()).as("no part file left").containsExactly(path);
    }
    assertThat(ReplacedFile.at(folder.resolve("no/such/x.pool").toString(),
        new Configuration(false)).whyNotWritable()).isPresent();
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static String text(Optional<ReplacedFile.Contents> contents) {
    return new String(contents.orElseThrow().bytes(), StandardCharsets.UTF_8);
  }
}
