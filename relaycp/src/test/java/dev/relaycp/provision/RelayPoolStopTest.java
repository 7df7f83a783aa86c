package dev.relaycp.provision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.relaycp.fs.ReplacedFile;
import dev.relaycp.relay.RelayAddress;
import dev.relaycp.relay.TransferSecret;
import dev.relaycp.transfer.Route;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code relay-pool --stop} removes besides the pool file, on the local file system: the
 * staging folders the pool file names, where they are this user's transfer folders in the relay
 * staging folder, and nothing else a pool file may name.
 */
class RelayPoolStopTest {
  @TempDir Path folder;
  private Path staging;
  private Configuration configuration;
  private String user;

  @BeforeEach
  void setUp() throws Exception {
    staging = Files.createDirectories(folder.resolve("staging"));
    configuration = new Configuration(false);
    configuration.set(YarnRelaySettings.STAGING_DIR, staging.toString());
    user = UserGroupInformation.getCurrentUser().getShortUserName();
  }

  @Test
  void aPoolsTransferFoldersAreRemovedAndReported() throws Exception {
    Path source = transferFolder(user);
    Path destination = transferFolder(user);

    RelayPoolStop.Outcome outcome = stop(Map.of(
        "src", source.toUri().toString(), "dst", destination.toUri().toString()));

    assertThat(outcome.found()).isTrue();
    assertThat(source).doesNotExist();
    assertThat(destination).doesNotExist();
    assertThat(outcome.stagingRemoved()).hasSize(2);
    assertThat(folder.resolve("pool.json")).doesNotExist();
  }

  @Test
  void aFolderGoneAlreadyIsNotReported() throws Exception {
    Path gone = staging.resolve(user).resolve(UUID.randomUUID().toString());

    RelayPoolStop.Outcome outcome = stop(Map.of("src", gone.toUri().toString()));

    assertThat(outcome.stagingRemoved()).isEmpty();
  }

  @Test
  void whatIsNoTransferFolderOfThisUserStaysWhateverThePoolFileSays() throws Exception {
    Path elsewhere = Files.createDirectories(folder.resolve("data").resolve(
        UUID.randomUUID().toString()));
    Files.writeString(elsewhere.resolve("keep.txt"), "keep");
    Path othersTransfer = transferFolder(user + "-other");
    Path notATransfer = Files.createDirectories(staging.resolve(user).resolve("jars"));
    Path theUsersFolder = staging.resolve(user);

    RelayPoolStop.Outcome outcome = stop(Map.of(
        "src", elsewhere.toUri().toString(),
        "dst", othersTransfer.toUri().toString(),
        "more", notATransfer.toUri().toString(),
        "user", theUsersFolder.toUri().toString()));

    assertThat(outcome.stagingRemoved()).isEmpty();
    assertThat(elsewhere.resolve("keep.txt")).exists();
    assertThat(othersTransfer).exists();
    assertThat(notATransfer).exists();
  }

  private Path transferFolder(String owner) throws Exception {
    Path transfer = Files.createDirectories(
        staging.resolve(owner).resolve(UUID.randomUUID().toString()).resolve("relays"));
    Files.writeString(transfer.resolveSibling("heartbeat"), "");
    return transfer.getParent();
  }

  /** Stops a pool of no applications whose file names {@code stagingFolders}. */
  private RelayPoolStop.Outcome stop(Map<String, String> stagingFolders) throws Exception {
    ReplacedFile file = ReplacedFile.at(folder.resolve("pool.json").toString(), configuration);
    RelayPool.of(List.of(new Route(0, RelayAddress.parse("dn1:7001"),
            RelayAddress.parse("dn2:7002"))), TransferSecret.generate(), "0123456789abcdef",
        Map.of(), stagingFolders, Instant.now().plus(Duration.ofHours(1))).writeTo(file);
    return RelayPoolStop.stop(file, configuration, configuration, Duration.ofSeconds(1));
  }
}
