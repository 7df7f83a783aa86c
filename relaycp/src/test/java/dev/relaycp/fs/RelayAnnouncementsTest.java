package dev.relaycp.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import dev.relaycp.testkit.EmbeddedHdfs;
import java.io.Closeable;
import java.io.File;
import java.io.FileNotFoundException;
import java.nio.file.Files;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class RelayAnnouncementsTest {
  static EmbeddedHdfs hdfs;
  static File localBase;

  @BeforeAll
  static void start() throws Exception {
    localBase = Files.createTempDirectory("relaycp-announcements-local-").toFile();
    hdfs = EmbeddedHdfs.start("announcements-test", 1);
  }

  @AfterAll
  static void stop() {
    if (hdfs != null) {
      hdfs.close();
    }
    FileUtil.fullyDelete(localBase);
  }

  /** The file systems announcements are made in: HDFS, as under YARN, and a local one. */
  static Stream<FileSystem> fileSystems() throws Exception {
    return Stream.of(hdfs.fileSystem(), FileSystem.getLocal(new Configuration()));
  }

  private static Path fresh(FileSystem fileSystem, String name) {
    return fileSystem.getUri().getScheme().equals("hdfs")
        ? new Path("/" + name + "-" + System.nanoTime())
        : new Path(new File(localBase, name + "-" + System.nanoTime()).toURI());
  }

  @ParameterizedTest
  @MethodSource("fileSystems")
  void readsEveryAddressByNameInOneListingAndSkipsOtherEntries(FileSystem fileSystem)
      throws Exception {
    Path directory = fresh(fileSystem, "relays");
    fileSystem.mkdirs(directory);
    RelayAnnouncements announcements = RelayAnnouncements.in(fileSystem, directory);

    announcements.publish("container_1_0001_01_000002", "dn1.example.com:40123");
    announcements.publish("container_1_0001_01_000003", "[fe80::1]:40777");
    fileSystem.create(new Path(directory, "not-an-announcement")).close();
    fileSystem.mkdirs(new Path(directory, "container_x@a-directory%3A1"));

    assertThat(announcements.read()).containsOnly(
        entry("container_1_0001_01_000002", "dn1.example.com:40123"),
        entry("container_1_0001_01_000003", "[fe80::1]:40777"));
    assertThat(List.of(fileSystem.listStatus(directory)))
        .filteredOn(status -> status.getPath().getName().startsWith("container_1"))
        .allSatisfy(status -> assertThat(status.getLen()).isZero());
  }

  @ParameterizedTest
  @MethodSource("fileSystems")
  void aRelaySaysItIsBusyBesideItsAnnouncementUntilItsWorkEnds(FileSystem fileSystem)
      throws Exception {
    Path directory = fresh(fileSystem, "busy");
    fileSystem.mkdirs(directory);
    RelayAnnouncements announcements = RelayAnnouncements.in(fileSystem, directory);
    announcements.publish("container_1_0001_01_000002", "dn1:1");
    announcements.publish("container_1_0001_01_000003", "dn2:1");

    Closeable busy = announcements.busy("container_1_0001_01_000003");

    assertThat(announcements.busy()).containsExactly("container_1_0001_01_000003");
    assertThat(announcements.read()).as("a marker is no announcement").containsOnly(
        entry("container_1_0001_01_000002", "dn1:1"), entry("container_1_0001_01_000003", "dn2:1"));
    busy.close();
    assertThat(announcements.busy()).isEmpty();
    Closeable late = announcements.busy("container_1_0001_01_000002");
    fileSystem.delete(directory, true);
    late.close();
    assertThat(announcements.busy()).isEmpty();
    assertThat(fileSystem.exists(directory)).isFalse();
    assertThatThrownBy(() -> announcements.busy("container_1_0001_01_000002"))
        .isInstanceOf(FileNotFoundException.class);
    assertThatThrownBy(() -> announcements.busy("a!b"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'!'");
  }

  @ParameterizedTest
  @MethodSource("fileSystems")
  void aRelayCannotAnnounceTwiceUnderOneName(FileSystem fileSystem) throws Exception {
    Path directory = fresh(fileSystem, "twice");
    fileSystem.mkdirs(directory);
    RelayAnnouncements announcements = RelayAnnouncements.in(fileSystem, directory);
    announcements.publish("container_1_0001_01_000002", "dn1:1");

    assertThatThrownBy(() -> announcements.publish("container_1_0001_01_000002", "dn1:1"))
        .isInstanceOf(java.io.IOException.class);
  }

  @ParameterizedTest
  @MethodSource("fileSystems")
  void aRemovedDirectoryHasNoAnnouncementsAndIsNotMadeAgainByALateRelay(FileSystem fileSystem)
      throws Exception {
    Path directory = fresh(fileSystem, "gone");
    RelayAnnouncements announcements = RelayAnnouncements.in(fileSystem, directory);

    assertThat(announcements.read()).isEmpty();
    assertThatThrownBy(() -> announcements.publish("container_1_0001_01_000002", "dn1:1"))
        .isInstanceOf(FileNotFoundException.class);
    assertThat(fileSystem.exists(directory)).isFalse();
  }
}
