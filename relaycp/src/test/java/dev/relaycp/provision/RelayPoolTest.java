package dev.relaycp.provision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.fs.ReplacedFile;
import dev.relaycp.relay.RelayAddress;
import dev.relaycp.relay.TransferSecret;
import dev.relaycp.transfer.Route;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RelayPoolTest {
  private static final TransferSecret SECRET = TransferSecret.of(new byte[] {
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16});
  @TempDir Path folder;

  private static RelayPool pool(Instant until, String... readersThenWriters) {
    List<Route> routes = new ArrayList<>();
    for (int index = 0; index < readersThenWriters.length; index += 2) {
      routes.add(new Route(routes.size() + 7, RelayAddress.parse(readersThenWriters[index]),
          RelayAddress.parse(readersThenWriters[index + 1])));
    }
    return RelayPool.of(routes, SECRET, "0123456789abcdef",
        Map.of("src", "application_1_0001", "dst", "application_2_0001"),
        Map.of("src", "hdfs://src-nn:8020/tmp/relaycp-staging/alice/t1",
            "dst", "hdfs://dst-nn:8020/tmp/relaycp-staging/alice/t1"), until);
  }

  @Test
  void readsBackWhatItWroteWithTheSecretInAFileOnlyItsOwnerReads() throws Exception {
    Path file = folder.resolve("pool.json");
    Instant until = Instant.now().plus(Duration.ofHours(8)).truncatedTo(ChronoUnit.SECONDS);
    pool(until, "dn1:7001", "dn4:7004", "[::1]:7002", "dn5:7005").writeTo(local(file));

    RelayPool read = RelayPool.read(local(file), Instant.now());

    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .isEqualTo("rw-------");
    assertThat(read.routes()).extracting(route -> route.reader() + ">" + route.writer())
        .containsExactly("dn1:7001>dn4:7004", "[::1]:7002>dn5:7005");
    assertThat(read.relayJarHash()).isEqualTo("0123456789abcdef");
    assertThat(read.applications()).containsEntry("src", "application_1_0001");
    assertThat(read.stagingFolders())
        .containsEntry("dst", "hdfs://dst-nn:8020/tmp/relaycp-staging/alice/t1");
    assertThat(read.until()).isEqualTo(until);
    byte[] nonce = {9, 9, 9};
    assertThat(read.secret().prove(nonce)).isEqualTo(SECRET.prove(nonce));
    try (Stream<Path> files = Files.list(folder)) {
      assertThat(files.toList()).as("no part file left").containsExactly(file);
    }
  }

  @Test
  void aFileWrittenAgainReplacesTheOldOneWhole() throws Exception {
    Path file = folder.resolve("pool.json");
    Instant until = Instant.now().plus(Duration.ofHours(1));
    pool(until, "dn1:7001", "dn4:7004", "dn2:7002", "dn5:7005").writeTo(local(file));
    pool(until, "dn2:7002", "dn5:7005").writeTo(local(file));

    assertThat(RelayPool.read(local(file), Instant.now()).routes()).hasSize(1);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .isEqualTo("rw-------");
  }

  @Test
  void aPoolThatNoLongerRunsIsAUserErrorThatSaysHowToStartOne() throws Exception {
    Path file = folder.resolve("pool.json");
    Instant now = Instant.now();
    pool(now.plus(Duration.ofHours(1)), "dn1:7001", "dn4:7004").writeTo(local(file));
    Files.setLastModifiedTime(file, FileTime.from(now.minus(RelayPool.STALE).minusSeconds(5)));

    assertThatThrownBy(() -> RelayPool.read(local(file), now))
        .isInstanceOf(RelayCpException.class)
        .hasMessageContaining("has not written its file since")
        .hasMessageContaining("relaycp relay-pool --pool-file " + file)
        .extracting(e -> ((RelayCpException) e).code()).isEqualTo(ErrorCode.INVALID_ARGUMENT);

    pool(now.minusSeconds(1), "dn1:7001", "dn4:7004").writeTo(local(file));
    assertThatThrownBy(() -> RelayPool.read(local(file), now)).hasMessageContaining("ended at");
  }

  @Test
  void aMissingOrForeignFileIsAUserErrorNamingIt() throws Exception {
    Path missing = folder.resolve("absent.json");
    assertThatThrownBy(() -> RelayPool.read(local(missing), Instant.now()))
        .hasMessageStartingWith("relay pool file " + missing + " does not exist");

    Path foreign = folder.resolve("secret");
    Files.writeString(foreign, "00112233445566778899aabbccddeeff\n");
    assertThatThrownBy(() -> RelayPool.read(local(foreign), Instant.now()))
        .hasMessageStartingWith(foreign + " is not a relay pool file");
  }

  /** {@code file} as the pool's file on this machine. */
  private static ReplacedFile local(Path file) {
    return ReplacedFile.at(file.toString(), new org.apache.hadoop.conf.Configuration(false));
  }
}
