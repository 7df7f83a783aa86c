package dev.relaycp.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.zip.CRC32C;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Files of one chunk are verified while the copy runs, each once, and a staged file that does
 * not match what the reader read is reported as soon as it is checked. The relays and the
 * driver use {@link HeldWritesFileSystem}, which holds every staged write after the first until
 * a staged file's checksum has been asked for; the relays' gives no checksums, so the driver
 * checks each file itself, as it does where a writer relay returns none (see
 * {@link StoredChecksumVerificationTest} for the files a writer relay checks).
 */
class EarlyVerificationTest {
  static final long BLOCK = 256 * 1024;

  @RegisterExtension
  static final ClustersWithRelays fixture = ClustersWithRelays.of(1, BLOCK, 1,
      held(HeldWritesFileSystem.class), held(HeldWritesFileSystem.WithoutChecksums.class));

  private static Configuration held(Class<? extends HeldWritesFileSystem> fileSystem) {
    Configuration held = new Configuration();
    held.setClass("fs.hdfs.impl", fileSystem, FileSystem.class);
    return held;
  }

  @BeforeAll
  static void theDestinationHoldsWrites() {
    assertThat(fixture.destination()).isInstanceOf(HeldWritesFileSystem.class);
  }

  @Test
  void aFileOfOneChunkIsVerifiedWhileTheOthersAreStillBeingWritten() throws IOException {
    for (int file = 0; file < 4; file++) {
      try (FSDataOutputStream out = fixture.source().create(new Path("/small/file-" + file))) {
        out.write(("file " + file + " ").repeat(1000).getBytes(StandardCharsets.UTF_8));
      }
    }
    HeldWritesFileSystem.reset();

    CopyReport report = new CopyDriver(fixture.opener()).copy(
        CopySettings.of(fixture.sourceUri("/small"), fixture.destinationUri("/small-copy"),
            false),
        fixture.routes(), fixture.secret(), TransferProgress.Listener.NONE);

    assertThat(report.allVerified()).isTrue();
    assertThat(report.verification()).hasSize(4);
    assertThat(HeldWritesFileSystem.heldInVain())
        .as("the later files' writes waited for the first file's verification, and it came")
        .isFalse();
    for (int file = 0; file < 4; file++) {
      assertThat(fixture.destination().getFileChecksum(new Path("/small-copy/file-" + file)))
          .isEqualTo(fixture.source().getFileChecksum(new Path("/small/file-" + file)));
    }
  }

  @Test
  void aStagedFileThatDoesNotMatchWhatWasReadIsReportedWhenChecked() throws Exception {
    Path staged = new Path("/early/staged.bin");
    byte[] written = {1, 2, 3, 4, 5, 6, 7, 9};
    try (FSDataOutputStream out = fixture.destination().create(staged)) {
      out.write(written);
    }
    CRC32C read = new CRC32C();
    read.update(new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
    CRC32C same = new CRC32C();
    same.update(written);
    URI stagedUri = fixture.destination().makeQualified(staged).toUri();
    URI sourceUri = fixture.sourceUri("/none");
    List<FileVerification> mismatches = new CopyOnWriteArrayList<>();

    try (EarlyVerification early = EarlyVerification.start(
        new ChecksumVerifier(fixture.source(), fixture.destination()), 2, mismatches::add)) {
      early.submit(0, "wrong.bin", sourceUri, stagedUri, written.length,
          OptionalInt.of((int) read.getValue()));
      early.submit(1, "right.bin", sourceUri, stagedUri, written.length,
          OptionalInt.of((int) same.getValue()));
      URI missing = fixture.destination().makeQualified(new Path("/early/missing.bin")).toUri();
      early.submit(2, "missing.bin", sourceUri, missing, written.length,
          OptionalInt.of((int) same.getValue()));

      assertThat(early.resultFor(0, stagedUri)).hasValueSatisfying(
          result -> assertThat(result.verified()).isFalse());
      assertThat(early.resultFor(1, stagedUri)).hasValueSatisfying(
          result -> assertThat(result.verified()).isTrue());
      assertThat(early.resultFor(1, missing))
          .as("a result counts only for the staged file it was taken of").isEmpty();
      assertThat(early.resultFor(2, missing))
          .as("a check that failed leaves the file to the verify step").isEmpty();
      assertThat(early.resultFor(3, stagedUri)).as("never submitted").isEmpty();
    }
    assertThat(mismatches).extracting(FileVerification::path).containsExactly("wrong.bin");
  }
}
