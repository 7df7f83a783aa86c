package dev.relaycp.provision;

import static java.util.Objects.requireNonNull;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.fs.HadoopFailures;
import dev.relaycp.relay.TlsIdentity;
import dev.relaycp.relay.TransferSecret;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Optional;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * The transfer secret carried in a YARN container's credentials, as MapReduce carries its
 * shuffle secret: the driver puts it in the launch context's tokens, the NodeManager writes
 * them to a file only the container's user can read and names it in
 * {@code HADOOP_TOKEN_FILE_LOCATION}, and Hadoop's login in the container loads it. So the
 * secret is on no command line, in no environment variable, in no log, and needs no file of
 * its own (which YARN could only localize through a localizer process per container). The
 * driver's TLS key and certificate travel the same way ({@link TlsIdentity}).
 */
public final class ContainerSecret {
  /** The alias of the secret among the credentials' secret keys. */
  public static final Text ALIAS = new Text("relaycp.transfer-secret");
  /** The aliases of the driver's TLS key (PKCS #8) and certificate (DER). */
  static final Text TLS_KEY_ALIAS = new Text("relaycp.tls-key");
  static final Text TLS_CERTIFICATE_ALIAS = new Text("relaycp.tls-certificate");

  private ContainerSecret() {}

  /**
   * Credentials holding {@code secret}, the TLS identity {@code identity} if given, and the
   * tokens in {@code tokens} (Hadoop's token storage format; empty for none), serialized for a
   * launch context.
   */
  public static ByteBuffer credentialsWith(TransferSecret secret, Optional<TlsIdentity> identity,
      byte[] tokens) {
    requireNonNull(secret, "secret is null");
    requireNonNull(identity, "identity is null");
    requireNonNull(tokens, "tokens is null");
    Credentials credentials = new Credentials();
    ByteArrayOutputStream hex = new ByteArrayOutputStream();
    try {
      if (tokens.length > 0) {
        credentials.readTokenStorageStream(
            new DataInputStream(new ByteArrayInputStream(tokens)));
      }
      secret.writeTo(hex);
      credentials.addSecretKey(ALIAS, hex.toByteArray());
      if (identity.isPresent()) {
        credentials.addSecretKey(TLS_KEY_ALIAS, identity.get().encodedKey());
        credentials.addSecretKey(TLS_CERTIFICATE_ALIAS, identity.get().encodedCertificate());
      }
      DataOutputBuffer serialized = new DataOutputBuffer();
      credentials.writeTokenStorageToStream(serialized);
      return ByteBuffer.wrap(serialized.getData(), 0, serialized.getLength());
    } catch (IOException e) {
      throw new UncheckedIOException("serializing in-memory credentials failed", e);
    }
  }

  /** The secret in this process's Hadoop credentials: in a relay container, its driver's. */
  public static TransferSecret fromCurrentUser() {
    byte[] hex;
    try {
      hex = UserGroupInformation.getCurrentUser().getCredentials().getSecretKey(ALIAS);
    } catch (IOException e) {
      throw HadoopFailures.translate(e, "reading this process's Hadoop credentials");
    }
    if (hex == null) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "this process's Hadoop credentials"
          + " (HADOOP_TOKEN_FILE_LOCATION) hold no " + ALIAS + "; relaycp puts it there for the"
          + " relays it starts as YARN containers; a relay started by hand takes --secret-file");
    }
    try {
      return TransferSecret.of(
          HexFormat.of().parseHex(new String(hex, StandardCharsets.UTF_8).strip()));
    } catch (IllegalArgumentException e) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT,
          "the " + ALIAS + " in this process's credentials is not hex", e);
    }
  }

  /**
   * The driver's TLS key and certificate in this process's Hadoop credentials; empty where the
   * driver sent none (its relay connections run without TLS, or an older driver).
   */
  public static Optional<TlsIdentity> identityFromCurrentUser() {
    Credentials credentials;
    try {
      credentials = UserGroupInformation.getCurrentUser().getCredentials();
    } catch (IOException e) {
      throw HadoopFailures.translate(e, "reading this process's Hadoop credentials");
    }
    byte[] key = credentials.getSecretKey(TLS_KEY_ALIAS);
    byte[] certificate = credentials.getSecretKey(TLS_CERTIFICATE_ALIAS);
    if (key == null || certificate == null) {
      return Optional.empty();
    }
    return Optional.of(TlsIdentity.decode(key, certificate));
  }
}
