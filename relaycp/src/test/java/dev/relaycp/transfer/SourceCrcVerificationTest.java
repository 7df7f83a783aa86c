package dev.relaycp.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.relaycp.testkit.DemoDataset;
import java.io.IOException;
import java.util.List;
import java.util.OptionalInt;
import java.util.zip.CRC32C;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A copy is checked against the CRC32C of the source's bytes as the reader relays read them:
 * the source's datanodes are not asked for checksums a second time, and a copy whose bytes
 * differ from what was read does not verify. Every client here, the relays' too, is
 * {@link CallCountingFileSystem}, which counts the checksums asked of each cluster.
 */
class SourceCrcVerificationTest {
  static final long BLOCK = 256 * 1024;

  @RegisterExtension
  static final ClustersWithRelays fixture = ClustersWithRelays.of(1, BLOCK, 1,
      CallCountingFileSystem.configuration("driver and relays"));

  static List<String> files;

  @BeforeAll
  static void writeData() throws IOException {
    assertThat(fixture.source()).isInstanceOf(CallCountingFileSystem.class);
    files = DemoDataset.write(fixture.source(), new Path("/data"), BLOCK, 4, 3, 7);
  }

  @BeforeEach
  void resetCounts() {
    CallCountingFileSystem.reset();
  }

  @Test
  void aCopyAsksTheSourceOnlyForItsSampleAndItsEmptyFiles() throws IOException {
    CopyReport report = new CopyDriver(fixture.opener()).copy(
        CopySettings.of(fixture.sourceUri("/data"), fixture.destinationUri("/copy"), false),
        fixture.routes(), fixture.secret(), TransferProgress.Listener.NONE);
    int sourceCalls = CallCountingFileSystem.checksums(fixture.source().getUri().getAuthority());
    int destinationCalls =
        CallCountingFileSystem.checksums(fixture.destination().getUri().getAuthority());

    assertThat(report.allVerified()).isTrue();
    assertThat(report.chunks()).as("the multi-block file goes in several chunks")
        .isGreaterThan(files.size());
    long empty = files.stream().filter(file -> file.equals(DemoDataset.EMPTY)).count();
    assertThat(empty).isOne();
    // One sample, which shows SRC has checksums at all, and each empty file (no chunk read).
    assertThat(sourceCalls).isEqualTo(1 + empty);
    // The driver asks for the probe, the multi-block file and the empty file; the writer
    // relays for every file they write whole and for each part (see
    // StoredChecksumVerificationTest).
    assertThat(destinationCalls).as("the checksum probe and every file, and more")
        .isGreaterThanOrEqualTo(1 + files.size());
    for (String file : files) {
      assertThat(fixture.destination().getFileChecksum(new Path("/copy", file))).as(file)
          .isEqualTo(fixture.source().getFileChecksum(new Path("/data", file)));
    }
  }

  @Test
  void aCopyWhoseBytesDifferFromWhatTheReaderReadDoesNotVerify() throws IOException {
    byte[] read = {1, 2, 3, 4, 5, 6, 7, 8};
    Path copy = new Path("/mismatch/copy.bin");
    try (FSDataOutputStream out = fixture.destination().create(copy)) {
      out.write(new byte[] {1, 2, 3, 4, 5, 6, 7, 9});
    }
    CRC32C crc = new CRC32C();
    crc.update(read);
    ChecksumVerifier verifier = new ChecksumVerifier(fixture.source(), fixture.destination());

    FileVerification wrong = verifier.verify("copy.bin", fixture.sourceUri("/data/none"),
        fixture.destination().makeQualified(copy).toUri(), read.length,
        OptionalInt.of((int) crc.getValue()));
    crc.reset();
    crc.update(new byte[] {1, 2, 3, 4, 5, 6, 7, 9});
    FileVerification right = verifier.verify("copy.bin", fixture.sourceUri("/data/none"),
        fixture.destination().makeQualified(copy).toUri(), read.length,
        OptionalInt.of((int) crc.getValue()));

    assertThat(wrong.verified()).isFalse();
    assertThat(right.verified()).isTrue();
    assertThat(right.algorithm()).isEqualTo("COMPOSITE-CRC32C");
    assertThat(CallCountingFileSystem.checksums(fixture.source().getUri().getAuthority())).isZero();
  }
}
