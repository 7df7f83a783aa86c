package dev.relaycp.relay;

import static java.util.Objects.requireNonNull;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Self-signed certificates, through BouncyCastle's bcpkix, which Hadoop ships. A class of its
 * own so that only a process that makes a certificate loads BouncyCastle: its jars are signed,
 * so the JVM verifies each on first use and leaves their classes, and any class whose
 * verification needs one of them, out of a class-data archive.
 */
final class BouncyCastleCertificates {
  private BouncyCastleCertificates() {}

  /** A certificate for {@code keys}, signed by them, named CN=relaycp, valid for ten years. */
  static X509Certificate selfSigned(KeyPair keys) throws GeneralSecurityException {
    requireNonNull(keys, "keys is null");
    try {
      X500Name name = new X500Name("CN=relaycp");
      Instant now = Instant.now();
      JcaX509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(name,
          new BigInteger(64, new SecureRandom()), Date.from(now.minus(Duration.ofDays(1))),
          Date.from(now.plus(Duration.ofDays(3650))), name, keys.getPublic());
      return new JcaX509CertificateConverter().getCertificate(
          builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(keys.getPrivate())));
    } catch (OperatorCreationException e) {
      throw new GeneralSecurityException("signing the relay's certificate", e);
    }
  }
}
