package dev.relaycp.relay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TransferSecretTest {
  @TempDir
  Path directory;

  @Test
  void writtenSecretReadsBackAsTheSameSecret() throws IOException {
    TransferSecret secret = TransferSecret.generate();
    Path file = directory.resolve("secret");
    byte[] nonce = TransferSecret.newNonce();

    secret.writeTo(file);
    TransferSecret read = TransferSecret.read(file);

    assertThat(read.prove(nonce)).isEqualTo(secret.prove(nonce));
    assertThat(read.verifies(nonce, secret.prove(nonce))).isTrue();
  }

  @Test
  void writtenSecretIsOneLineOfHexForThirtyTwoBytes() throws IOException {
    Path file = directory.resolve("secret");

    TransferSecret.generate().writeTo(file);

    String text = Files.readString(file, StandardCharsets.UTF_8);
    assertThat(text).matches("[0-9a-f]{64}\n");
  }

  @Test
  void writtenSecretFileIsReadableAndWritableByItsOwnerOnly() throws IOException {
    Path file = directory.resolve("secret");

    TransferSecret.generate().writeTo(file);

    assertThat(Files.getPosixFilePermissions(file))
        .isEqualTo(PosixFilePermissions.fromString("rw-------"));
  }

  @Test
  void writingOverAWorldReadableFileLeavesItOwnerOnly() throws IOException {
    Path file = directory.resolve("secret");
    Files.writeString(file, "old");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
    TransferSecret secret = TransferSecret.generate();
    byte[] nonce = TransferSecret.newNonce();

    secret.writeTo(file);

    assertThat(Files.getPosixFilePermissions(file))
        .isEqualTo(PosixFilePermissions.fromString("rw-------"));
    assertThat(TransferSecret.read(file).prove(nonce)).isEqualTo(secret.prove(nonce));
  }

  @Test
  void hexFileWithSurroundingWhitespaceIsDecodedAsHex() throws IOException {
    byte[] key = new byte[20];
    for (int i = 0; i < key.length; i++) {
      key[i] = (byte) (i * 13 + 1);
    }
    Path file = directory.resolve("secret");
    Files.writeString(file, "  " + HexFormat.of().withUpperCase().formatHex(key) + "\n\n");
    byte[] nonce = {1, 2, 3};

    assertThat(TransferSecret.read(file).prove(nonce))
        .isEqualTo(TransferSecret.of(key).prove(nonce));
  }

  @Test
  void nonHexFileIsAnInvalidArgument() throws IOException {
    Path file = directory.resolve("secret");
    Files.writeString(file, "correct horse battery staple\n");

    assertThatThrownBy(() -> TransferSecret.read(file))
        .isInstanceOf(RelayCpException.class)
        .hasMessage("the secret file " + file + " is not one line of hex digits (not a"
            + " hexadecimal digit: \"o\" = 111); make one with `openssl rand -hex 32 > secret`")
        .extracting(failure -> ((RelayCpException) failure).code())
        .isEqualTo(ErrorCode.INVALID_ARGUMENT);
  }

  @Test
  void oddNumberOfHexDigitsIsAnInvalidArgument() throws IOException {
    Path file = directory.resolve("secret");
    Files.writeString(file, "00112233445566778899aabbccddeeff0\n");

    assertThatThrownBy(() -> TransferSecret.read(file))
        .isInstanceOf(RelayCpException.class)
        .hasMessageContaining("is not one line of hex digits");
  }

  @Test
  void tooShortSecretIsAnInvalidArgument() {
    assertThatThrownBy(() -> TransferSecret.of(new byte[15]))
        .isInstanceOfSatisfying(RelayCpException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
        .hasMessageContaining("15 bytes");
  }

  @Test
  void sixteenByteSecretIsAcceptedAndProvesWithHmacSha256OfItsKey() throws Exception {
    byte[] key = HexFormat.of().parseHex("000102030405060708090a0b0c0d0e0f");
    byte[] nonce = {1};
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(key, "HmacSHA256"));

    assertThat(TransferSecret.of(key).prove(nonce)).isEqualTo(mac.doFinal(nonce));
  }

  @Test
  void tooShortSecretFileIsAnInvalidArgument() throws IOException {
    Path file = directory.resolve("secret");
    Files.writeString(file, "00112233445566778899aabbccddee\n");

    assertThatThrownBy(() -> TransferSecret.read(file))
        .isInstanceOfSatisfying(RelayCpException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT));
  }

  @Test
  void missingSecretFileIsAnInvalidArgument() {
    Path file = directory.resolve("absent");

    assertThatThrownBy(() -> TransferSecret.read(file))
        .isInstanceOfSatisfying(RelayCpException.class,
            e -> assertThat(e.code()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
        .hasMessageContaining(file.toString());
  }

  @Test
  void verifiesAcceptsTheProofForItsNonce() {
    TransferSecret secret = TransferSecret.generate();
    byte[] nonce = TransferSecret.newNonce();

    assertThat(secret.verifies(nonce, secret.prove(nonce))).isTrue();
  }

  @Test
  void verifiesRejectsAProofForAnotherNonce() {
    TransferSecret secret = TransferSecret.generate();
    byte[] nonce = TransferSecret.newNonce();
    byte[] otherNonce = TransferSecret.newNonce();

    assertThat(secret.verifies(nonce, secret.prove(otherNonce))).isFalse();
  }

  @Test
  void verifiesRejectsAProofUnderAnotherSecret() {
    byte[] nonce = TransferSecret.newNonce();

    assertThat(TransferSecret.generate()
        .verifies(nonce, TransferSecret.generate().prove(nonce))).isFalse();
  }

  @Test
  void proofIsTheHmacSha256OfTheNonce() throws Exception {
    byte[] key = "0123456789abcdefXYZ".getBytes(StandardCharsets.US_ASCII);
    byte[] nonce = "nonce".getBytes(StandardCharsets.US_ASCII);
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(key, "HmacSHA256"));

    assertThat(TransferSecret.of(key).prove(nonce)).isEqualTo(mac.doFinal(nonce));
  }

  @Test
  void toStringDoesNotRevealTheKey() {
    byte[] key = "super-secret-key-material".getBytes(StandardCharsets.US_ASCII);

    assertThat(TransferSecret.of(key).toString())
        .doesNotContain("super")
        .doesNotContain(HexFormat.of().formatHex(key));
  }
}
