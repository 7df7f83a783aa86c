package dev.relaycp.transfer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.relaycp.config.RelayKeys;
import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.fs.FileSystemOpener;
import dev.relaycp.testkit.DemoDataset;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A writer relay returns the checksum the destination gives for each file it writes whole, so
 * that the driver, which runs on one site and may be a WAN away from the other, asks the
 * destination only about files no writer wrote whole (those staged in parts, empty ones). The
 * driver's and the relays' clients count their checksum calls apart
 * ({@link CallCountingFileSystem}); another pair of relays misreports every staged file's
 * checksum ({@link MisreportingChecksumFileSystem}), which the driver must take as a mismatch.
 */
class StoredChecksumVerificationTest {
  static final long BLOCK = 256 * 1024;

  @RegisterExtension
  static final ClustersWithRelays fixture = ClustersWithRelays.of(1, BLOCK, 1,
      CallCountingFileSystem.configuration("driver"),
      CallCountingFileSystem.configuration("relays"));

  static RelayFixture misreportingRelays;
  static FileSystem source;
  static FileSystem destination;
  static List<String> files;

  @BeforeAll
  static void start() throws IOException {
    Configuration misreporting = new Configuration();
    misreporting.setClass("fs.hdfs.impl", MisreportingChecksumFileSystem.class,
        FileSystem.class);
    misreportingRelays = RelayFixture.start(1, misreporting);
    source = fixture.source();
    destination = fixture.destination();
    files = DemoDataset.write(source, new Path("/data"), BLOCK, 4, 3, 7);
  }

  @AfterAll
  static void stop() {
    if (misreportingRelays != null) {
      misreportingRelays.close();
    }
  }

  @BeforeEach
  void resetCounts() {
    CallCountingFileSystem.reset();
  }

  @Test
  void theDriverAsksTheDestinationOnlyAboutFilesNoWriterWroteWhole() throws IOException {
    CopyReport report = new CopyDriver(fixture.opener()).copy(
        CopySettings.of(fixture.sourceUri("/data"), fixture.destinationUri("/copy"), false),
        fixture.routes(), fixture.secret(), TransferProgress.Listener.NONE);
    String destinationCluster = destination.getUri().getAuthority();
    int driverCalls = CallCountingFileSystem.checksums("driver", destinationCluster);
    int relayCalls = CallCountingFileSystem.checksums("relays", destinationCluster);

    assertThat(report.allVerified()).isTrue();
    assertThat(report.verification()).hasSize(files.size());
    assertThat(files).contains(DemoDataset.MULTI_BLOCK, DemoDataset.EMPTY);
    assertThat(report.chunks()).as("the multi-block file goes in several chunks")
        .isGreaterThan(files.size());
    assertThat(driverCalls)
        .as("the checksum probe, the multi-block file (staged in parts) and the empty file")
        .isEqualTo(1 + 2);
    assertThat(relayCalls).as("every other file, written whole, and the parts")
        .isGreaterThanOrEqualTo(files.size() - 2);
    for (String file : files) {
      assertThat(destination.getFileChecksum(new Path("/copy", file))).as(file)
          .isEqualTo(source.getFileChecksum(new Path("/data", file)));
    }
  }

  @Test
  void withStoredChecksumsOffTheDriverAsksTheDestinationAboutEveryFile() throws IOException {
    Configuration off = CallCountingFileSystem.configuration("driver");
    off.setBoolean(RelayKeys.COPY_STORED_CHECKSUMS.key(), false);

    CopyReport report = new CopyDriver(FileSystemOpener.of(off)).copy(
        CopySettings.of(fixture.sourceUri("/data"), fixture.destinationUri("/copy-off"), false),
        fixture.routes(), fixture.secret(), TransferProgress.Listener.NONE);

    assertThat(report.allVerified()).isTrue();
    assertThat(CallCountingFileSystem.checksums("driver", destination.getUri().getAuthority()))
        .as("the checksum probe and every file").isEqualTo(1 + files.size());
  }

  @Test
  void aStoredChecksumThatDoesNotMatchWhatWasReadFailsTheCopy() throws IOException {
    RelayCpException failure = catchThrowableOfType(() -> new CopyDriver(fixture.opener()).copy(
            CopySettings.of(fixture.sourceUri("/data"), fixture.destinationUri("/misreported"),
                false),
            misreportingRelays.routes, misreportingRelays.secret,
            TransferProgress.Listener.NONE),
        RelayCpException.class);

    assertThat(failure).as("the copy fails").isNotNull();
    assertThat(failure.code()).isEqualTo(ErrorCode.VERIFICATION_FAILED);
    assertThat(destination.exists(new Path("/misreported"))).as("nothing committed").isFalse();
    assertThat(CallCountingFileSystem.checksums("driver", destination.getUri().getAuthority()))
        .as("the driver did not ask about the files the writer reported on")
        .isLessThanOrEqualTo(1 + 2);
  }
}
