package dev.relaycp.provision;

import static java.util.Objects.requireNonNull;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.apache.hadoop.fs.Path;

/**
 * The jar relay containers run, as a local file, with what {@link RelayJarCache} names it by:
 * its length and the first 16 hex digits of its SHA-256. Read once per process, not once per
 * site.
 *
 * @param path the local file
 * @param length its length in bytes
 * @param contentHash the first 8 bytes of its SHA-256, in hex
 */
record RelayJar(Path path, long length, String contentHash) {
  RelayJar {
    requireNonNull(path, "path is null");
    requireNonNull(contentHash, "contentHash is null");
    if (length < 0) {
      throw new IllegalArgumentException("length is negative: " + length);
    }
  }

  /** Reads the local file {@code path} whole, to hash it. */
  static RelayJar of(Path path) throws IOException {
    File file = new File(requireNonNull(path, "path is null").toUri());
    MessageDigest digest;
    try {
      digest = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
    long length = 0;
    try (InputStream in = Files.newInputStream(file.toPath())) {
      byte[] buffer = new byte[64 * 1024];
      for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
        digest.update(buffer, 0, read);
        length += read;
      }
    }
    return new RelayJar(path, length, HexFormat.of().formatHex(digest.digest(), 0, 8));
  }
}
