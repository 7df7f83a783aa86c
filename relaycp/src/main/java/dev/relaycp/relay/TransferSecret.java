package dev.relaycp.relay;

import static java.util.Objects.requireNonNull;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The per-transfer secret every connection to a relay must prove it knows. On disk it is one
 * line of hex in a file only its owner can read.
 */
public final class TransferSecret {
  private static final String ALGORITHM = "HmacSHA256";
  private static final int MINIMUM_BYTES = 16;
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final byte[] CLIENT = "relaycp client".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] RELAY = "relaycp relay".getBytes(StandardCharsets.US_ASCII);

  private final byte[] key;

  private TransferSecret(byte[] key) {
    if (key.length < MINIMUM_BYTES) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT,
          "the transfer secret has " + key.length + " bytes; use at least " + MINIMUM_BYTES
              + " (e.g. `openssl rand -hex 32 > secret`)");
    }
    this.key = key.clone();
  }

  /** A new random 256-bit secret. */
  public static TransferSecret generate() {
    byte[] key = new byte[32];
    RANDOM.nextBytes(key);
    return new TransferSecret(key);
  }

  public static TransferSecret of(byte[] key) {
    return new TransferSecret(requireNonNull(key, "key is null"));
  }

  /**
   * Reads a secret file: its content, surrounding whitespace trimmed, as hex. Anything else is
   * INVALID_ARGUMENT: a file that is not the secret (or was damaged) must not become a key.
   */
  public static TransferSecret read(Path file) {
    requireNonNull(file, "file is null");
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT,
          "cannot read the secret file " + file + ": " + e.getMessage()
              + "; pass --secret-file with a readable file");
    }
    byte[] key;
    try {
      key = HexFormat.of().parseHex(text);
    } catch (IllegalArgumentException notHex) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT,
          "the secret file " + file + " is not one line of hex digits (" + notHex.getMessage()
              + "); make one with `openssl rand -hex 32 > secret`");
    }
    return new TransferSecret(key);
  }

  /** Writes the secret as hex to {@code file}, readable and writable by its owner only. */
  public void writeTo(Path file) throws IOException {
    ByteArrayOutputStream hex = new ByteArrayOutputStream();
    writeTo(hex);
    OwnerOnlyFile.write(file, hex.toByteArray());
  }

  /**
   * Writes the secret as one line of hex to {@code out}, as {@link #read} reads it (for a
   * file the caller has made private, such as a relay container's resource).
   */
  public void writeTo(OutputStream out) throws IOException {
    out.write((HexFormat.of().formatHex(key) + "\n").getBytes(StandardCharsets.UTF_8));
  }

  /** HMAC-SHA256 of the nonce under this secret. */
  public byte[] prove(byte[] nonce) {
    try {
      return hmac().doFinal(nonce);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every Java runtime", e);
    }
  }

  /** Whether {@code proof} is this secret's proof for {@code nonce}, in constant time. */
  public boolean verifies(byte[] nonce, byte[] proof) {
    return MessageDigest.isEqual(prove(nonce), proof);
  }

  /**
   * A client's proof on a relay connection: HMAC-SHA256 over "relaycp client", the relay's
   * nonce and the connection's binding ({@link RelayTls#binding}; empty without TLS).
   */
  byte[] clientProof(byte[] relayNonce, byte[] binding) {
    return mac(CLIENT, relayNonce, binding);
  }

  /**
   * A relay's proof to its client: HMAC-SHA256 over "relaycp relay", both nonces and the
   * binding. Its own label keeps a relay from passing off a client's proof as its own.
   */
  byte[] relayProof(byte[] relayNonce, byte[] clientNonce, byte[] binding) {
    return mac(RELAY, relayNonce, clientNonce, binding);
  }

  /** Whether two proofs are equal, in constant time. */
  static boolean same(byte[] expected, byte[] actual) {
    return MessageDigest.isEqual(expected, actual);
  }

  private Mac hmac() throws GeneralSecurityException {
    Mac mac = Mac.getInstance(ALGORITHM);
    mac.init(new SecretKeySpec(key, ALGORITHM));
    return mac;
  }

  private byte[] mac(byte[]... parts) {
    try {
      Mac mac = hmac();
      for (byte[] part : parts) {
        // Each part with its length, so that no two lists of parts read alike.
        mac.update(ByteBuffer.allocate(4).putInt(part.length).array());
        mac.update(part);
      }
      return mac.doFinal();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every Java runtime", e);
    }
  }

  static byte[] newNonce() {
    byte[] nonce = new byte[32];
    RANDOM.nextBytes(nonce);
    return nonce;
  }

  @Override
  public String toString() {
    return "TransferSecret(hidden)";
  }
}
