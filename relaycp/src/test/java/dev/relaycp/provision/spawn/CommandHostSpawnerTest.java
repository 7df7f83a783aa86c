package dev.relaycp.provision.spawn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.relay.RelayAddress;
import dev.relaycp.relay.TlsIdentity;
import dev.relaycp.relay.TransferSecret;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The exec backend with real shell commands. */
class CommandHostSpawnerTest {
  @TempDir Path folder;
  TransferSecret secret;
  SpawnContext context;

  @BeforeEach
  void context() throws IOException {
    secret = TransferSecret.generate();
    Path secretFile = folder.resolve("secret");
    secret.writeTo(secretFile);
    context = new SpawnContext("transfer-1", secret, secretFile, Duration.ofSeconds(60),
        Instant.now().plusSeconds(600), Map.of("src", "hdfs://nn:8020/beat-src"), Optional.empty());
  }

  CommandHostSpawner spawner(String spawn, String release, Duration timeout) {
    return CommandHostSpawner.of(spawn, Optional.ofNullable(release), context, timeout);
  }

  @Test
  void readsTheAddressTheCommandPrintsAndHandsItPlaceholdersAndEnvironment() throws Exception {
    Path seen = folder.resolve("seen");
    String spawn = "echo \"{site} {slot} {transfer} $RELAYCP_SITE $RELAYCP_SLOT"
        + " $RELAYCP_SECRET_FILE $RELAYCP_DRIVER_HEARTBEAT $RELAYCP_DRIVER_TIMEOUT_SECONDS\" > "
        + seen + "; echo booting; echo relay-{slot}.example:7070";
    try (CommandHostSpawner spawner = spawner(spawn, null, Duration.ofSeconds(20))) {
      SpawnedHost host = spawner.spawn(SpawnSlot.of("transfer-1", "src", 3));

      assertThat(host.address()).isEqualTo(RelayAddress.of("relay-3.example", 7070));
      assertThat(host.handle()).isEqualTo("relay-3.example:7070");
      assertThat(host.slot().slot()).isEqualTo(3);
      assertThat(Files.readString(seen).strip()).isEqualTo("src 3 transfer-1 src 3 "
          + context.secretFile() + " hdfs://nn:8020/beat-src 60");
      assertThat(Files.readString(seen)).doesNotContain(Files.readString(context.secretFile()).strip());
    }
  }

  @Test
  void withTlsTheCommandGetsTheDriversIdentityInAPrivateFileRemovedAtClose() throws Exception {
    TlsIdentity identity = TlsIdentity.generate();
    SpawnContext withTls = new SpawnContext("transfer-1", secret, context.secretFile(),
        Duration.ofSeconds(60), Instant.now().plusSeconds(600), Map.of(), Optional.of(identity));
    Path seen = folder.resolve("seen");
    Path identityFile;
    try (CommandHostSpawner spawner = CommandHostSpawner.of("echo \"$RELAYCP_TLS_IDENTITY_FILE\" > "
        + seen + "; echo 127.0.0.1:7070", Optional.empty(), withTls, Duration.ofSeconds(20))) {
      spawner.spawn(SpawnSlot.of("transfer-1", "src", 0));
      identityFile = Path.of(Files.readString(seen).strip());

      assertThat(Files.getPosixFilePermissions(identityFile))
          .isEqualTo(PosixFilePermissions.fromString("rw-------"));
      TlsIdentity read = TlsIdentity.read(identityFile);
      assertThat(read.certificate()).isEqualTo(identity.certificate());
      assertThat(read.key().getEncoded()).isEqualTo(identity.key().getEncoded());
    }
    assertThat(identityFile).doesNotExist();
  }

  @Test
  void withoutTlsTheCommandGetsNoIdentity() throws Exception {
    Path seen = folder.resolve("seen");
    try (CommandHostSpawner spawner = spawner("echo \"[${RELAYCP_TLS_IDENTITY_FILE-unset}]\" > "
        + seen + "; echo 127.0.0.1:7070", null, Duration.ofSeconds(20))) {
      spawner.spawn(SpawnSlot.of("transfer-1", "src", 0));
    }
    assertThat(Files.readString(seen).strip()).isEqualTo("[unset]");
  }

  @Test
  void acceptsTheRelaysOwnListeningLine() {
    try (CommandHostSpawner spawner = spawner("echo 'relaycp relay listening on 127.0.0.1:4567'",
        null, Duration.ofSeconds(20))) {
      assertThat(spawner.spawn(SpawnSlot.of("transfer-1", "dst", 0)).address())
          .isEqualTo(RelayAddress.of("127.0.0.1", 4567));
    }
  }

  @Test
  void releaseRunsTheReleaseCommandOnceAndEndsACommandStillRunning() throws Exception {
    Path pid = folder.resolve("pid");
    Path released = folder.resolve("released");
    String spawn = "echo $$ > " + pid + "; echo 10.0.0.{slot}:7070; exec sleep 600";
    String release = "echo '{site} {slot} {address} {handle}' >> " + released;
    try (CommandHostSpawner spawner = spawner(spawn, release, Duration.ofSeconds(20))) {
      SpawnedHost host = spawner.spawn(SpawnSlot.of("transfer-1", "dst", 2));
      long shell = Long.parseLong(Files.readString(pid).strip());
      assertThat(ProcessHandle.of(shell).map(ProcessHandle::isAlive)).contains(true);

      spawner.release(host);
      spawner.release(host);

      assertThat(Files.readAllLines(released))
          .containsExactly("dst 2 10.0.0.2:7070 10.0.0.2:7070");
      assertThat(ProcessHandle.of(shell).map(ProcessHandle::isAlive).orElse(false)).isFalse();
    }
  }

  @Test
  void aCommandThatExitsWithoutAnAddressFailsWithWhatItPrinted() {
    try (CommandHostSpawner spawner = spawner("echo 'no capacity left'; exit 3", null,
        Duration.ofSeconds(20))) {
      assertThatThrownBy(() -> spawner.spawn(SpawnSlot.of("transfer-1", "src", 0)))
          .isInstanceOfSatisfying(RelayCpException.class,
              e -> assertThat(e.code()).isEqualTo(ErrorCode.RELAY_START_FAILED))
          .hasMessageContaining("exited with 3")
          .hasMessageContaining("no capacity left");
    }
  }

  @Test
  void aCommandSilentPastTheTimeoutIsEndedAndFails() throws Exception {
    Path pid = folder.resolve("pid");
    try (CommandHostSpawner spawner = spawner("echo $$ > " + pid + "; exec sleep 600", null,
        Duration.ofMillis(1500))) {
      assertThatThrownBy(() -> spawner.spawn(SpawnSlot.of("transfer-1", "src", 0)))
          .isInstanceOfSatisfying(RelayCpException.class,
              e -> assertThat(e.code()).isEqualTo(ErrorCode.RELAY_START_FAILED))
          .hasMessageContaining("printed no host:port");
      long shell = Long.parseLong(Files.readString(pid).strip());
      assertThat(ProcessHandle.of(shell).map(ProcessHandle::isAlive).orElse(false)).isFalse();
    }
  }

  @Test
  void anEmptyCommandIsRefused() {
    assertThatThrownBy(() -> spawner(" ", null, Duration.ofSeconds(1)))
        .isInstanceOfSatisfying(RelayCpException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
        .hasMessageContaining("--spawn-command is empty");
  }
}
