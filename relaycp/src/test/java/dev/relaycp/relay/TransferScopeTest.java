package dev.relaycp.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.fs.ChunkTarget;
import dev.relaycp.relay.RelayMessage.Transfer;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.token.Token;
import org.junit.jupiter.api.Test;

class TransferScopeTest {
  private static final URI SOURCE = URI.create("hdfs://source-nn:8020/data/logs");
  private static final URI STAGING =
      URI.create("hdfs://destination-nn:8020/backup/.relaycp-staging-1");

  private static TransferScope scope(byte[] credentials) {
    return TransferScope.of(new Transfer("alice", SOURCE, STAGING, credentials), false);
  }

  @Test
  void readsOnlyInsideTheSourceRootOnItsFileSystem() {
    TransferScope scope = scope(new byte[0]);

    scope.checkSource(URI.create("hdfs://source-nn:8020/data/logs"));
    scope.checkSource(URI.create("hdfs://source-nn:8020/data/logs/2026/11/part-0"));
    scope.checkSource(URI.create("hdfs://SOURCE-NN:8020/data/logs/.snapshot/s1/part-0"));
    for (String outside : new String[] {
        "hdfs://source-nn:8020/data/logs-private/part-0",
        "hdfs://source-nn:8020/data/logs/../secrets/key",
        "hdfs://source-nn:8020/data/logs/a/../../secrets/key",
        "hdfs://source-nn:8020/data",
        "hdfs://other-nn:8020/data/logs/part-0",
        "hdfs://source-nn:9000/data/logs/part-0",
        "file:///data/logs/part-0",
        "webhdfs://source-nn:8020/data/logs/part-0",
        "hdfs://source-nn:8020/data/logs/part-0?op=x",
        "/data/logs/part-0",
    }) {
      assertThatThrownBy(() -> scope.checkSource(URI.create(outside))).as(outside)
          .isInstanceOfSatisfying(RelayCpException.class,
              e -> assertThat(e.code()).isEqualTo(ErrorCode.PERMISSION_DENIED))
          .hasMessageContaining("outside the transfer's source root");
    }
  }

  @Test
  void writesOnlyInsideTheStagingDirectory() {
    TransferScope scope = scope(new byte[0]);

    scope.checkTarget(ChunkTarget.file(
        URI.create("hdfs://destination-nn:8020/backup/.relaycp-staging-1/f0.0.0"), (short) 3,
        1 << 27));
    for (String outside : new String[] {
        "hdfs://destination-nn:8020/backup/data/f0",
        "hdfs://destination-nn:8020/backup/.relaycp-staging-1/../f0",
        "hdfs://destination-nn:8020/backup/.relaycp-staging-10/f0",
        "hdfs://source-nn:8020/backup/.relaycp-staging-1/f0",
    }) {
      assertThatThrownBy(() -> scope.checkTarget(
              ChunkTarget.file(URI.create(outside), (short) 1, 1 << 20))).as(outside)
          .hasMessageContaining("outside the transfer's staging directory");
    }
  }

  @Test
  void aPartWhoseUploadCollectsOutsideTheStagingIsRefused() {
    TransferScope scope = scope(new byte[0]);
    URI data = URI.create("hdfs://destination-nn:8020/backup/.relaycp-staging-1/m0.0/data");

    scope.checkTarget(ChunkTarget.part(data,
        "/backup/.relaycp-staging-1/m0.0/_multipart_1".getBytes(StandardCharsets.UTF_8), 1,
        (short) 1, 1 << 20));
    scope.checkTarget(ChunkTarget.part(data, "opaque-upload-id".getBytes(StandardCharsets.UTF_8),
        1, (short) 1, 1 << 20));
    assertThatThrownBy(() -> scope.checkTarget(ChunkTarget.part(data,
            "/user/alice/_multipart_1".getBytes(StandardCharsets.UTF_8), 1, (short) 1, 1 << 20)))
        .hasMessageContaining("part to /user/alice/_multipart_1");
  }

  @Test
  void theLocalFileSystemIsRefusedUnlessTheRelayAllowedIt() {
    Transfer local = new Transfer("alice", URI.create("file:///etc"),
        URI.create("file:///tmp/out"), new byte[0]);

    assertThatThrownBy(() -> TransferScope.of(local, false).checkSource(
            URI.create("file:///etc/shadow")))
        .hasMessageContaining("does not serve the local file system");
    TransferScope.of(local, true).checkSource(URI.create("file:///etc/hosts"));
  }

  @Test
  void theCallerCarriesTheTransfersUserAndTokens() throws Exception {
    Credentials credentials = new Credentials();
    Token<?> token = new Token<>(new byte[] {1}, new byte[] {2}, new Text("HDFS_DELEGATION_TOKEN"),
        new Text("source-nn:8020"));
    credentials.addToken(new Text("source-nn:8020"), token);
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream output = new DataOutputStream(bytes)) {
      credentials.writeTokenStorageToStream(output);
    }

    TransferScope scope = scope(bytes.toByteArray());

    assertThat(scope.caller().getUserName()).isEqualTo("alice");
    assertThat(scope.caller().getTokens()).containsExactly(token);
  }

  @Test
  void unreadableCredentialsRefuseEveryOrder() {
    TransferScope scope = scope("not a token storage".getBytes(StandardCharsets.UTF_8));

    assertThatThrownBy(() -> scope.checkSource(URI.create("hdfs://source-nn:8020/data/logs/a")))
        .hasMessageContaining("credentials it cannot read");
  }
}
