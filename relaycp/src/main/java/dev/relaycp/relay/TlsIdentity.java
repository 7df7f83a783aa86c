package dev.relaycp.relay;

import static java.util.Objects.requireNonNull;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import java.io.ByteArrayInputStream;
import java.math.BigInteger;
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
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * The key and self-signed certificate a relaycp process shows in every TLS handshake (see
 * {@link RelayTls}). A process makes its own ({@link #generate}), or takes the one its driver
 * made ({@link #decode}): relays a driver starts as YARN containers get the driver's in their
 * credentials, beside the transfer secret, which any holder of this key holds already. So a
 * relay container neither makes a key nor signs a certificate: BouncyCastle, whose jars are
 * signed and so are verified entry by entry and kept out of the class-data archive, cost a
 * fresh relay JVM a third of a CPU-second (bench/results/2026-11-28-relay-start-profile/).
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

  /** A new EC P-256 key and a certificate for it, signed by itself, valid for ten years. */
  public static TlsIdentity generate() throws GeneralSecurityException {
    KeyPairGenerator generator = KeyPairGenerator.getInstance(KEY_ALGORITHM);
    generator.initialize(new ECGenParameterSpec("secp256r1"), new SecureRandom());
    KeyPair keys = generator.generateKeyPair();
    try {
      X500Name name = new X500Name("CN=relaycp");
      Instant now = Instant.now();
      JcaX509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(name,
          new BigInteger(64, new SecureRandom()), Date.from(now.minus(Duration.ofDays(1))),
          Date.from(now.plus(Duration.ofDays(3650))), name, keys.getPublic());
      X509Certificate certificate = new JcaX509CertificateConverter().getCertificate(
          builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(keys.getPrivate())));
      return new TlsIdentity(keys.getPrivate(), certificate);
    } catch (OperatorCreationException e) {
      throw new GeneralSecurityException("signing the relay's certificate", e);
    }
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
