package dev.relaycp.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.relaycp.testkit.DemoDataset;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Copies with {@code --compress} between two embedded clusters through relays on loopback. */
class CompressedCopyTest {
  private static final long BLOCK = 1 << 20;
  private static final int FRAME_BYTES = 256 * 1024;

  @RegisterExtension
  static final ClustersWithRelays fixture =
      ClustersWithRelays.of(2, BLOCK, 2, new Configuration());

  static List<String> logs;
  static List<String> noise;

  @BeforeAll
  static void writeData() throws IOException {
    // Logs: one spanning several blocks (several chunks), and small ones.
    logs = List.of("app.log", "small/a.log", "small/b.log", "empty.log");
    writeLog(new Path("/logs/app.log"), (int) (3 * BLOCK + 12_345), 1);
    writeLog(new Path("/logs/small/a.log"), 40_000, 2);
    writeLog(new Path("/logs/small/b.log"), 70_000, 3);
    writeLog(new Path("/logs/empty.log"), 0, 4);
    noise = DemoDataset.write(fixture.source(), new Path("/noise"), BLOCK, 6, 3, 17);
  }

  private static void writeLog(Path file, int bytes, long seed) throws IOException {
    Random random = new Random(seed);
    StringBuilder text = new StringBuilder();
    while (text.length() < bytes) {
      text.append("2026-11-25 13:").append(10 + random.nextInt(50)).append(" INFO copy ")
          .append(random.nextInt(1000)).append(" chunk delivered on route ")
          .append(random.nextInt(8)).append('\n');
    }
    try (OutputStream out = fixture.source().create(file, true, 4096, (short) 1, BLOCK)) {
      out.write(text.substring(0, bytes).getBytes(StandardCharsets.US_ASCII));
    }
  }

  private static CopyReport copy(String from, String to) {
    return new CopyDriver(fixture.opener()).copy(
        CopySettings.of(fixture.sourceUri(from), fixture.destinationUri(to), false)
            .withCompress(true),
        fixture.routes(), fixture.secret(), TransferProgress.Listener.NONE);
  }

  @Test
  void textCrossesInAFractionOfItsBytesAndArrivesWhole() throws IOException {
    CopyReport report = copy("/logs", "/logs-copy");

    assertThat(report.allVerified()).isTrue();
    assertThat(report.chunks()).isGreaterThan(logs.size());
    assertThat(report.wireBytes()).isPositive().isLessThan(report.bytes() / 3);
    for (String log : logs) {
      assertThat(read(fixture.destination(), new Path("/logs-copy", log))).as(log)
          .isEqualTo(read(fixture.source(), new Path("/logs", log)));
    }
  }

  @Test
  void randomBytesCrossAsTheyAre() throws IOException {
    CopyReport report = copy("/noise", "/noise-copy");

    assertThat(report.allVerified()).isTrue();
    assertThat(report.wireBytes()).isEqualTo(report.bytes());
    for (String file : noise) {
      assertThat(read(fixture.destination(), new Path("/noise-copy", file))).as(file)
          .isEqualTo(read(fixture.source(), new Path("/noise", file)));
    }
  }

  @Test
  void theSampleSeesTextAndNoiseForWhatTheyAre() {
    FileSystem source = fixture.source();
    CompressionSample text = CompressionSample.of(source,
        SourceLister.list(source, source.makeQualified(new Path("/logs"))), FRAME_BYTES);
    CompressionSample random = CompressionSample.of(source,
        SourceLister.list(source, source.makeQualified(new Path("/noise"))), FRAME_BYTES);

    assertThat(text.files()).isEqualTo(3);
    assertThat(text.ratio()).isGreaterThan(3);
    assertThat(random.ratio()).isEqualTo(1.0);
  }

  private static byte[] read(FileSystem fileSystem, Path file) throws IOException {
    try (InputStream in = fileSystem.open(file)) {
      return in.readAllBytes();
    }
  }
}
