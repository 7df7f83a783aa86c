package dev.relaycp.provision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.relay.TlsIdentity;
import dev.relaycp.relay.TransferSecret;
import java.nio.ByteBuffer;
import java.security.PrivilegedExceptionAction;
import java.util.Optional;
import org.apache.hadoop.io.DataInputByteBuffer;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.junit.jupiter.api.Test;

class ContainerSecretTest {
  /** What a NodeManager reads of a launch context's tokens. */
  private static Credentials launched(ByteBuffer tokens) throws Exception {
    DataInputByteBuffer in = new DataInputByteBuffer();
    in.reset(tokens.duplicate());
    Credentials credentials = new Credentials();
    credentials.readTokenStorageStream(in);
    return credentials;
  }

  /** The container's user, which the NodeManager gives the launch context's credentials. */
  private static UserGroupInformation containerUser(Credentials credentials) {
    UserGroupInformation container = UserGroupInformation.createRemoteUser("relay");
    container.addCredentials(credentials);
    return container;
  }

  @Test
  void theSecretInALaunchContextsCredentialsIsTheOneTheContainersUserReads() throws Exception {
    TransferSecret secret = TransferSecret.generate();
    ByteBuffer tokens = ContainerSecret.credentialsWith(secret, Optional.empty(), new byte[0]);

    Credentials credentials = launched(tokens);
    UserGroupInformation container = containerUser(credentials);
    TransferSecret read = container.doAs(
        (PrivilegedExceptionAction<TransferSecret>) ContainerSecret::fromCurrentUser);

    byte[] nonce = "a challenge".getBytes(java.nio.charset.StandardCharsets.UTF_8);
    assertThat(read.verifies(nonce, secret.prove(nonce))).isTrue();
    assertThat(read.verifies(nonce, TransferSecret.generate().prove(nonce))).isFalse();
    assertThat(credentials.numberOfSecretKeys()).isEqualTo(1);
    assertThat(credentials.numberOfTokens()).isZero();
    assertThat(container.doAs((PrivilegedExceptionAction<Optional<TlsIdentity>>)
        ContainerSecret::identityFromCurrentUser)).isEmpty();
  }

  @Test
  void theDriversTlsKeyAndCertificateTravelBesideTheSecret() throws Exception {
    TlsIdentity driver = TlsIdentity.generate();
    ByteBuffer tokens = ContainerSecret.credentialsWith(TransferSecret.generate(),
        Optional.of(driver), new byte[0]);

    UserGroupInformation container = containerUser(launched(tokens));
    Optional<TlsIdentity> read = container.doAs((PrivilegedExceptionAction<Optional<TlsIdentity>>)
        ContainerSecret::identityFromCurrentUser);

    assertThat(read).hasValueSatisfying(identity -> {
      assertThat(identity.certificate()).isEqualTo(driver.certificate());
      assertThat(identity.key().getEncoded()).isEqualTo(driver.key().getEncoded());
    });
  }

  @Test
  void aKeyThatDoesNotDecodeIsAUserErrorNamingTheFix() throws Exception {
    Credentials credentials = new Credentials();
    credentials.addSecretKey(ContainerSecret.TLS_KEY_ALIAS, new byte[] {1, 2, 3});
    credentials.addSecretKey(ContainerSecret.TLS_CERTIFICATE_ALIAS,
        TlsIdentity.generate().encodedCertificate());
    UserGroupInformation container = containerUser(credentials);

    assertThatThrownBy(() -> container.doAs(
        (PrivilegedExceptionAction<Optional<TlsIdentity>>)
            ContainerSecret::identityFromCurrentUser))
        .isInstanceOfSatisfying(RelayCpException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
        .hasMessageContaining("same relaycp version");
  }

  @Test
  void theSitesDelegationTokensTravelBesideTheSecret() throws Exception {
    Credentials site = new Credentials();
    Token<?> token = new Token<>(new byte[] {1, 2}, new byte[] {3}, new Text("HDFS_DELEGATION_TOKEN"),
        new Text("namenode:8020"));
    site.addToken(token.getService(), token);
    java.io.ByteArrayOutputStream storage = new java.io.ByteArrayOutputStream();
    try (java.io.DataOutputStream out = new java.io.DataOutputStream(storage)) {
      site.writeTokenStorageToStream(out);
    }

    ByteBuffer launch = ContainerSecret.credentialsWith(TransferSecret.generate(),
        Optional.empty(), storage.toByteArray());

    Credentials credentials = launched(launch);
    assertThat(credentials.getAllTokens()).containsExactly(token);
    assertThat(credentials.getSecretKey(ContainerSecret.ALIAS)).isNotNull();
  }

  @Test
  void aProcessWithoutTheSecretIsToldToPassASecretFile() throws Exception {
    UserGroupInformation user = UserGroupInformation.createRemoteUser("nobody-in-particular");

    assertThatThrownBy(() -> user.doAs(
        (PrivilegedExceptionAction<TransferSecret>) ContainerSecret::fromCurrentUser))
        .isInstanceOfSatisfying(RelayCpException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
        .hasMessageContaining("takes --secret-file");
  }
}
