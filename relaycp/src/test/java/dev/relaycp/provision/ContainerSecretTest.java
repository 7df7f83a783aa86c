package dev.relaycp.provision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.relay.TransferSecret;
import java.nio.ByteBuffer;
import java.security.PrivilegedExceptionAction;
import org.apache.hadoop.io.DataInputByteBuffer;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.Test;

class ContainerSecretTest {
  @Test
  void theSecretInALaunchContextsCredentialsIsTheOneTheContainersUserReads() throws Exception {
    TransferSecret secret = TransferSecret.generate();
    ByteBuffer tokens = ContainerSecret.credentialsWith(secret);

    // What a NodeManager does with the launch context's tokens: the container's user gets them.
    DataInputByteBuffer in = new DataInputByteBuffer();
    in.reset(tokens.duplicate());
    Credentials credentials = new Credentials();
    credentials.readTokenStorageStream(in);
    UserGroupInformation container = UserGroupInformation.createRemoteUser("relay");
    container.addCredentials(credentials);
    TransferSecret read = container.doAs(
        (PrivilegedExceptionAction<TransferSecret>) ContainerSecret::fromCurrentUser);

    byte[] nonce = "a challenge".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    assertThat(read.verifies(nonce, secret.prove(nonce))).isTrue();
    assertThat(read.verifies(nonce, TransferSecret.generate().prove(nonce))).isFalse();
    assertThat(credentials.numberOfSecretKeys()).isEqualTo(1);
    assertThat(credentials.numberOfTokens()).isZero();
  }

  @Test
  void aProcessWithoutTheSecretIsToldToPassASecretFile() throws Exception {
    UserGroupInformation user = UserGroupInformation.createRemoteUser("nobody-in-particular");

    assertThatThrownBy(() -> user.doAs(
        (PrivilegedExceptionAction<TransferSecret>) ContainerSecret::fromCurrentUser))
        .isInstanceOfSatisfying(RelayCpException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
        .hasMessageContaining("pass --secret-file");
  }
}
