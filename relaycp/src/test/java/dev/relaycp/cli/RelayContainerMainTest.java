package dev.relaycp.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.relaycp.fs.RelayAnnouncements;
import dev.relaycp.provision.ContainerSecret;
import dev.relaycp.provision.RelaySettingsVariable;
import dev.relaycp.relay.TransferSecret;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivilegedExceptionAction;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.io.DataInputByteBuffer;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RelayContainerMainTest {
  static final String CONTAINER = "container_1795000000000_0001_01_000002";

  @TempDir Path folder;
  final StringWriter out = new StringWriter();
  final StringWriter err = new StringWriter();

  int run(UserGroupInformation user, Map<String, String> environment, String... arguments)
      throws Exception {
    return user.doAs((PrivilegedExceptionAction<Integer>) () -> RelayContainerMain.run(
        arguments, environment, new PrintWriter(out, true), new PrintWriter(err, true)));
  }

  /** The container's user, holding what a launch context's credentials carry to it. */
  static UserGroupInformation containerWith(TransferSecret secret) throws Exception {
    ByteBuffer tokens = ContainerSecret.credentialsWith(secret, Optional.empty(), new byte[0]);
    DataInputByteBuffer in = new DataInputByteBuffer();
    in.reset(tokens.duplicate());
    Credentials credentials = new Credentials();
    credentials.readTokenStorageStream(in);
    UserGroupInformation container = UserGroupInformation.createRemoteUser("relay");
    container.addCredentials(credentials);
    return container;
  }

  static Map<String, String> settings(Map<String, String> properties) {
    return Map.of(RelaySettingsVariable.NAME, RelaySettingsVariable.encode(properties),
        "CONTAINER_ID", CONTAINER);
  }

  @Test
  void aContainerRelayAnnouncesItselfServesAndStopsOnceTheHeartbeatIsGone() throws Exception {
    Path announcements = Files.createDirectory(folder.resolve("relays"));
    Path heartbeat = Files.createFile(folder.resolve("heartbeat"));
    UserGroupInformation container = containerWith(TransferSecret.generate());
    CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() -> {
      try {
        return run(container, settings(Map.of("relaycp.relay.tls", "false")),
            announcements.toUri().toString(), heartbeat.toUri().toString());
      } catch (Exception e) {
        throw new CompletionException(e);
      }
    });

    RelayAnnouncements announced = RelayAnnouncements.in(FileSystem.getLocal(new Configuration()),
        new org.apache.hadoop.fs.Path(announcements.toUri()));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!announced.read().containsKey(CONTAINER) && !exit.isDone()
        && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertThat(announced.read()).as("announcements; the relay said %s", err)
        .containsKey(CONTAINER);
    int port = Integer.parseInt(announced.read().get(CONTAINER).replaceAll(".*:", ""));
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
      assertThat(socket.isConnected()).isTrue();
    }
    assertThat(out.toString()).contains("relaycp relay listening on 0.0.0.0:" + port);

    Files.delete(heartbeat);

    assertThat(exit.get(60, TimeUnit.SECONDS)).as("exit code; the relay said %s", err)
        .isEqualTo(ExitCodes.OK);
  }

  @Test
  void aWrongNumberOfArgumentsIsAUsageErrorThatSaysHowToStartARelayByHand() throws Exception {
    int exit = run(containerWith(TransferSecret.generate()), settings(Map.of()), "only-one");

    assertThat(exit).isEqualTo(ExitCodes.USAGE);
    assertThat(err.toString()).contains("takes 2 arguments").contains("got 1")
        .contains("relaycp relay --port N --secret-file FILE");
  }

  @Test
  void aContainerWithoutItsSettingsOrItsSecretSaysWhichIsMissing() throws Exception {
    String announce = folder.toUri().toString();
    String heartbeat = folder.resolve("heartbeat").toUri().toString();

    assertThat(run(containerWith(TransferSecret.generate()), Map.of(), announce, heartbeat))
        .isEqualTo(ExitCodes.USER);
    assertThat(err.toString()).contains(RelaySettingsVariable.NAME + " is not set");

    assertThat(run(UserGroupInformation.createRemoteUser("no-credentials"), settings(Map.of()),
        announce, heartbeat)).isEqualTo(ExitCodes.USER);
    assertThat(err.toString()).contains("hold no " + ContainerSecret.ALIAS);
  }
}
