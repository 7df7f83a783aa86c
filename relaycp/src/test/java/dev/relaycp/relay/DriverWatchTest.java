package dev.relaycp.relay;

import static org.assertj.core.api.Assertions.assertThat;

import dev.relaycp.fs.HeartbeatFile;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DriverWatchTest {
  @TempDir java.nio.file.Path temporary;

  private final AtomicLong clock = new AtomicLong();
  private FileSystem fileSystem;
  private HeartbeatFile heartbeat;

  @BeforeEach
  void createHeartbeat() throws IOException {
    fileSystem = FileSystem.getLocal(new Configuration());
    heartbeat = HeartbeatFile.at(fileSystem, new Path(temporary.resolve("heartbeat").toUri()));
    heartbeat.create();
  }

  private DriverWatch watch(long timeoutSeconds) {
    return DriverWatch.of(heartbeat, Duration.ofSeconds(timeoutSeconds), clock::get);
  }

  private void advanceSeconds(long seconds) {
    clock.addAndGet(Duration.ofSeconds(seconds).toNanos());
  }

  @Test
  void aStillHeartbeatIsASilentDriverOnceTheTimeoutHasPassed() {
    DriverWatch watch = watch(60);
    assertThat(watch.check()).isNull();
    advanceSeconds(59);
    assertThat(watch.check()).isNull();
    advanceSeconds(1);
    assertThat(watch.check()).isEqualTo(DriverWatch.Verdict.DRIVER_SILENT);
  }

  @Test
  void aMovingHeartbeatKeepsTheRelayRunningWhateverItsValue() throws IOException {
    DriverWatch watch = watch(10);
    assertThat(watch.check()).isNull();
    for (int beat = 1; beat <= 5; beat++) {
      advanceSeconds(8);
      // A clock far behind the relay's: only the change counts.
      fileSystem.setTimes(heartbeat.path(), 1_000L * beat, -1);
      assertThat(watch.check()).as("beat %d", beat).isNull();
    }
    advanceSeconds(10);
    assertThat(watch.check()).isEqualTo(DriverWatch.Verdict.DRIVER_SILENT);
  }

  @Test
  void aRemovedHeartbeatMeansTheDriverEnded() throws IOException {
    DriverWatch watch = watch(60);
    Files.delete(temporary.resolve("heartbeat"));
    assertThat(watch.check()).isEqualTo(DriverWatch.Verdict.DRIVER_ENDED);
  }
}
