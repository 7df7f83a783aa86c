package dev.relaycp.relay;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * A file that holds a secret (the transfer's secret, a TLS key): made anew, readable and
 * writable by its owner only from the moment it exists, so no one else ever reads it.
 */
final class OwnerOnlyFile {
  private OwnerOnlyFile() {}

  /** Replaces {@code file} with one only its owner may read, holding {@code content}. */
  static void write(Path file, byte[] content) throws IOException {
    requireNonNull(file, "file is null");
    requireNonNull(content, "content is null");
    Files.deleteIfExists(file);
    Files.createFile(file, PosixFilePermissions.asFileAttribute(
        PosixFilePermissions.fromString("rw-------")));
    try (OutputStream out = Files.newOutputStream(file)) {
      out.write(content);
    }
  }
}
