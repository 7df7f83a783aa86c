package dev.relaycp.relay;

import static java.util.Objects.requireNonNull;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The key and self-signed certificate a relaycp process shows in every TLS handshake (see
 * {@link RelayTls}). A process makes its own ({@link #generate}), or takes the one its driver
 * made ({@link #decode}): relays a driver starts as YARN containers get the driver's in their
 * credentials, beside the transfer secret, which any holder of this key holds already. So a
 * relay container neither makes a key nor signs a certificate, and loads no BouncyCastle
 * class: its jars are signed, so the JVM verifies them and keeps their classes out of the
 * class-data archive, which cost a fresh relay JVM a third of a CPU-second
 * (bench/results/2026-11-27-relay-start-profile/). Spawned relays get it the same way
 * through a file ({@link #writeTo(Path)}, {@link #read}): the exec backend names it in {@code
 * RELAYCP_TLS_IDENTITY_FILE}, an EC2 host reads it from an SSM parameter beside the secret's.
 */
public record TlsIdentity(PrivateKey key, X509Certificate certificate) {
  private static final String KEY_ALGORITHM = "EC";
  private static final String KEY_LABEL = "PRIVATE KEY";
  private static final String CERTIFICATE_LABEL = "CERTIFICATE";
  /** One PEM block (RFC 7468): its label and its base64 body. */
  private static final Pattern PEM_BLOCK = Pattern.compile(
      "-----BEGIN ([A-Z0-9 ]+)-----([A-Za-z0-9+/=\\s]+)-----END \\1-----");

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
          + " certificate from its driver do not decode (" + e + "); start the"
          + " relay again from the same relaycp version as the driver", e);
    }
  }

  /**
   * Reads a file {@link #writeTo(Path)} wrote: the key (PEM, PKCS #8) and the certificate (PEM);
   * a user error, naming the file, if it cannot be read or does not hold them.
   */
  public static TlsIdentity read(Path file) {
    requireNonNull(file, "file is null");
    String text;
    try {
      text = Files.readString(file, StandardCharsets.US_ASCII);
    } catch (IOException e) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "cannot read the TLS identity file "
          + file + ": " + e.getMessage() + "; pass --tls-identity-file with a readable file");
    }
    byte[] key = null;
    byte[] certificate = null;
    Matcher block = PEM_BLOCK.matcher(text);
    try {
      while (block.find()) {
        byte[] body = Base64.getMimeDecoder().decode(block.group(2));
        if (KEY_LABEL.equals(block.group(1))) {
          key = body;
        } else if (CERTIFICATE_LABEL.equals(block.group(1))) {
          certificate = body;
        }
      }
    } catch (IllegalArgumentException notBase64) {
      key = null; // reported below, as a file without a key
    }
    if (key == null || certificate == null) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "the TLS identity file " + file
          + " does not hold a PEM private key and certificate; pass the file relaycp wrote"
          + " (RELAYCP_TLS_IDENTITY_FILE), or leave --tls-identity-file out");
    }
    try {
      return decode(key, certificate);
    } catch (RelayCpException e) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "in the TLS identity file " + file
          + ": " + e.getMessage(), e);
    }
  }

  /** Writes the key and certificate as PEM to {@code file}, readable by its owner only. */
  public void writeTo(Path file) throws IOException {
    OwnerOnlyFile.write(file, pem().getBytes(StandardCharsets.US_ASCII));
  }

  /** The key (PKCS #8) and the certificate, each as a PEM block, as {@link #read} reads them. */
  public String pem() {
    return block(KEY_LABEL, encodedKey()) + block(CERTIFICATE_LABEL, encodedCertificate());
  }

  private static String block(String label, byte[] der) {
    Base64.Encoder encoder =
        Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII));
    return "-----BEGIN " + label + "-----\n" + encoder.encodeToString(der) + "\n-----END "
        + label + "-----\n";
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
