package dev.relaycp.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.relaycp.config.RelayKeys;
import dev.relaycp.fs.FileSystemOpener;
import dev.relaycp.testkit.DemoDataset;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A writer relay of the driver's own build gives each file it writes whole its source's times,
 * inside the destination's site, and the commit does not set them again across the WAN; relays
 * that may be of another build (started by hand) get orders without times, and the driver sets
 * every file's. Driver and relays record the paths they set times on apart
 * ({@link CallCountingFileSystem}).
 */
class WriterTimesTest {
  static final long BLOCK = 256 * 1024;
  /** Times long past, unlike any the copy could give a file by itself. */
  static final long MODIFIED = 1_600_000_000_000L;
  static final long ACCESSED = 1_600_000_600_000L;

  @RegisterExtension
  static final ClustersWithRelays fixture = ClustersWithRelays.of(1, BLOCK, 1,
      CallCountingFileSystem.configuration("driver"),
      CallCountingFileSystem.configuration("relays"));

  static FileSystem source;
  static FileSystem destination;
  static List<String> files;

  @BeforeAll
  static void writeTheSource() throws IOException {
    source = fixture.source();
    destination = fixture.destination();
    files = DemoDataset.write(source, new Path("/data"), BLOCK, 4, 3, 7);
  }

  /** Each copy reads the source, which moves its files' access times on: set them again. */
  @BeforeEach
  void setTheSourceTimesAndResetTheCounts() throws IOException {
    for (String file : files) {
      source.setTimes(new Path("/data", file), MODIFIED, ACCESSED);
    }
    CallCountingFileSystem.reset();
  }

  private CopyReport copy(String target, boolean relaysOfThisBuild) {
    return copy(fixture.opener(), target, relaysOfThisBuild);
  }

  private CopyReport copy(FileSystemOpener opener, String target, boolean relaysOfThisBuild) {
    return new CopyDriver(opener).copy(
        CopySettings.of(fixture.sourceUri("/data"), fixture.destinationUri(target), false),
        tree -> RouteSource.fixed(fixture.routes(), relaysOfThisBuild), fixture.secret(),
        TransferProgress.Listener.NONE);
  }

  @Test
  void writersOfThisBuildGiveTheFilesTheyWriteWholeTheirTimesAndTheDriverSetsOnlyTheRest()
      throws IOException {
    CopyReport report = copy("/copy", true);

    assertThat(report.allVerified()).isTrue();
    assertSourceTimes("/copy");
    List<String> whole = files.stream()
        .filter(file -> !file.equals(DemoDataset.MULTI_BLOCK) && !file.equals(DemoDataset.EMPTY))
        .toList();
    List<String> byRelays = CallCountingFileSystem.timesSet("relays");
    List<String> byDriver = CallCountingFileSystem.timesSet("driver");
    assertThat(byRelays).as("one staged file for each file written whole")
        .hasSize(whole.size());
    assertThat(byDriver).as("the driver set times on no staged file a relay had")
        .doesNotContainAnyElementsOf(byRelays);
    assertThat(byDriver.stream().filter(path -> !destinationDirectory(path)).count())
        .as("files whose times the driver set: the multi-block and the empty one, in %s",
            byDriver)
        .isEqualTo(2);
  }

  @Test
  void relaysThatMayBeOfAnotherBuildGetNoTimesAndTheDriverSetsEveryFiles() throws IOException {
    CopyReport report = copy("/copy-static", false);

    assertThat(report.allVerified()).isTrue();
    assertSourceTimes("/copy-static");
    assertOnlyTheDriverSetTimes();
  }

  @Test
  void withWriterTimesOffTheDriverSetsEveryFilesAlsoThroughRelaysOfThisBuild()
      throws IOException {
    Configuration off = CallCountingFileSystem.configuration("driver");
    off.setBoolean(RelayKeys.COPY_WRITER_TIMES.key(), false);

    CopyReport report = copy(FileSystemOpener.of(off), "/copy-off", true);

    assertThat(report.allVerified()).isTrue();
    assertSourceTimes("/copy-off");
    assertOnlyTheDriverSetTimes();
  }

  /** The relays set no file's times, and the driver every file's. */
  private static void assertOnlyTheDriverSetTimes() {
    assertThat(CallCountingFileSystem.timesSet("relays")).isEmpty();
    assertThat(CallCountingFileSystem.timesSet("driver").stream()
            .filter(path -> !destinationDirectory(path)).count())
        .as("every file").isEqualTo(files.size());
  }

  private void assertSourceTimes(String target) throws IOException {
    for (String file : files) {
      FileStatus copied = destination.getFileStatus(new Path(target, file));
      assertThat(copied.getModificationTime()).as("modification time of " + file)
          .isEqualTo(MODIFIED);
      assertThat(copied.getAccessTime()).as("access time of " + file).isEqualTo(ACCESSED);
    }
  }

  /** Whether the driver set {@code path}'s times as a directory of the copy. */
  private static boolean destinationDirectory(String path) {
    try {
      return destination.getFileStatus(new Path(path)).isDirectory();
    } catch (IOException gone) {
      return false;
    }
  }
}
