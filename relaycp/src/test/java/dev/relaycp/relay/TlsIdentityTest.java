package dev.relaycp.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A TLS identity in a file, as the driver hands it to the relays it starts. */
class TlsIdentityTest {
  @TempDir Path folder;

  @Test
  void anIdentityWrittenToAFileOnlyItsOwnerReadsComesBackTheSame() throws Exception {
    TlsIdentity identity = TlsIdentity.generate();
    Path file = folder.resolve("identity.pem");
    Files.writeString(file, "a file that was there before");

    identity.writeTo(file);
    TlsIdentity read = TlsIdentity.read(file);

    assertThat(Files.getPosixFilePermissions(file))
        .isEqualTo(PosixFilePermissions.fromString("rw-------"));
    assertThat(Files.readString(file)).startsWith("-----BEGIN PRIVATE KEY-----\n")
        .contains("-----END PRIVATE KEY-----\n-----BEGIN CERTIFICATE-----\n")
        .endsWith("-----END CERTIFICATE-----\n");
    assertThat(read.certificate()).isEqualTo(identity.certificate());
    assertThat(read.key().getEncoded()).isEqualTo(identity.key().getEncoded());
  }

  @Test
  void aFileWithoutAKeyAndACertificateIsAUserErrorNamingIt() throws Exception {
    TlsIdentity identity = TlsIdentity.generate();
    Path onlyCertificate = folder.resolve("certificate.pem");
    Files.writeString(onlyCertificate, identity.pem().substring(
        identity.pem().indexOf("-----BEGIN CERTIFICATE-----")));
    Path secret = folder.resolve("secret");
    TransferSecret.generate().writeTo(secret);
    Path damaged = folder.resolve("damaged.pem");
    Files.writeString(damaged, identity.pem().replaceFirst("\n[A-Za-z0-9+/]{8}", "\n!!!!!!!!"));

    for (Path file : new Path[] {onlyCertificate, secret, damaged, folder.resolve("missing")}) {
      assertThatThrownBy(() -> TlsIdentity.read(file)).as("%s", file)
          .isInstanceOf(RelayCpException.class)
          .hasMessageContaining(file.toString())
          .satisfies(e -> assertThat(((RelayCpException) e).code())
              .isEqualTo(ErrorCode.INVALID_ARGUMENT));
    }
  }

  @Test
  void aKeyBlockThatHoldsNoKeyIsAUserErrorNamingTheFile() throws Exception {
    TlsIdentity identity = TlsIdentity.generate();
    Path file = folder.resolve("swapped.pem");
    String pem = identity.pem();
    // The certificate's body where the key's belongs: well-formed PEM, not a PKCS #8 EC key.
    String certificateBody = pem.substring(pem.indexOf("-----BEGIN CERTIFICATE-----\n") + 28,
        pem.indexOf("-----END CERTIFICATE-----"));
    Files.writeString(file, "-----BEGIN PRIVATE KEY-----\n" + certificateBody
        + "-----END PRIVATE KEY-----\n" + pem.substring(pem.indexOf("-----BEGIN CERTIFICATE")));

    assertThatThrownBy(() -> TlsIdentity.read(file)).isInstanceOf(RelayCpException.class)
        .hasMessageContaining(file.toString()).hasMessageContaining("do not decode");
  }
}
