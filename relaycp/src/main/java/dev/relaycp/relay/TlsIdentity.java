package dev.relaycp.relay;

import static java.util.Objects.requireNonNull;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import java.io.ByteArrayInputStream;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.PKCS8EncodedKeySpec;

/**
 * The key and self-signed certificate a relaycp process shows in every TLS handshake (see
 * {@link RelayTls}). A process makes its own ({@link #generate}), or takes the one its driver
 * made ({@link #decode}): relays a driver starts as YARN containers get the driver's in their
 * credentials, beside the transfer secret, which any holder of this key holds already. So a
 * relay container neither makes a key nor signs a certificate, and loads no BouncyCastle
 * class: its jars are signed, so the JVM verifies them and keeps their classes out of the
 * class-data archive, which cost a fresh relay JVM a third of a CPU-second
 * (bench/results/2026-11-27-relay-start-profile/).
 */
public record TlsIdentity(PrivateKey key, X509Certificate certificate) {
  private static final String KEY_ALGORITHM = "EC";

  public TlsIdentity {
    requireNonNull(key, "key is null");
    requireNonNull(certificate, "certificate is null");
    if (!KEY_ALGORITHM.equals(key.getAlgorithm())) {
      throw new IllegalArgumentException("a relay's key is an EC key, got " + key.getAlgorithm());
    }
  }

  /**
   * A new EC P-256 key and a certificate for it, signed by itself ({@link
   * BouncyCastleCertificates}).
   */
  public static TlsIdentity generate() throws GeneralSecurityException {
    KeyPairGenerator generator = KeyPairGenerator.getInstance(KEY_ALGORITHM);
    generator.initialize(new ECGenParameterSpec("secp256r1"), new SecureRandom());
    KeyPair keys = generator.generateKeyPair();
    return new TlsIdentity(keys.getPrivate(), BouncyCastleCertificates.selfSigned(keys));
  }

  /**
   * The identity {@link #encodedKey} and {@link #encodedCertificate} wrote, read with Java's own
   * providers; a user error if the bytes are not such a key and certificate.
   */
  public static TlsIdentity decode(byte[] encodedKey, byte[] encodedCertificate) {
    requireNonNull(encodedKey, "encodedKey is null");
    requireNonNull(encodedCertificate, "encodedCertificate is null");
    try {
      PrivateKey key = KeyFactory.getInstance(KEY_ALGORITHM)
          .generatePrivate(new PKCS8EncodedKeySpec(encodedKey));
      X509Certificate certificate = (X509Certificate) CertificateFactory.getInstance("X.509")
          .generateCertificate(new ByteArrayInputStream(encodedCertificate));
      return new TlsIdentity(key, certificate);
    } catch (GeneralSecurityException | ClassCastException | IllegalArgumentException e) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "the relay's TLS key and"
          + " certificate from its driver do not decode (" + e.getMessage() + "); start the"
          + " relay again from the same relaycp version as the driver", e);
    }
  }

  /** The key in PKCS #8 (DER). */
  public byte[] encodedKey() {
    return key.getEncoded();
  }

  /** The certificate in DER. */
  public byte[] encodedCertificate() {
    try {
      return certificate.getEncoded();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("a certificate Java made or read does not encode", e);
    }
  }
}
