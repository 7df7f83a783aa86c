package dev.relaycp.fs;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.Optional;

/** A {@link ReplacedFile} on this machine's disk. */
final class LocalReplacedFile implements ReplacedFile {
  private final Path file;

  private LocalReplacedFile(Path file) {
    this.file = file;
  }

  static LocalReplacedFile at(Path file) {
    return new LocalReplacedFile(requireNonNull(file, "file is null").toAbsolutePath());
  }

  @Override
  public Optional<Contents> read() throws IOException {
    try {
      Instant written = Files.getLastModifiedTime(file).toInstant();
      return Optional.of(new Contents(Files.readAllBytes(file), written));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
  }

  @Override
  public void replace(byte[] bytes) throws IOException {
    requireNonNull(bytes, "bytes is null");
    Path written = Files.createTempFile(file.getParent(), "." + file.getFileName(), ".part",
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    try {
      Files.write(written, bytes);
      // In one folder a move is a rename, which POSIX file systems make atomic.
      Files.move(written, file, StandardCopyOption.ATOMIC_MOVE,
          StandardCopyOption.REPLACE_EXISTING);
    } finally {
      Files.deleteIfExists(written);
    }
  }

  @Override
  public boolean touch(Instant now) throws IOException {
    requireNonNull(now, "now is null");
    try {
      Files.setLastModifiedTime(file, FileTime.from(now));
      return true;
    } catch (NoSuchFileException e) {
      return false;
    }
  }

  @Override
  public boolean exists() {
    return Files.exists(file);
  }

  @Override
  public void delete() throws IOException {
    Files.deleteIfExists(file);
  }

  @Override
  public void deleteOnExit() {
    file.toFile().deleteOnExit();
  }

  @Override
  public Optional<String> whyNotWritable() {
    Path folder = file.getParent();
    if (folder == null || !Files.isDirectory(folder) || !Files.isWritable(folder)) {
      return Optional.of("folder " + folder + " does not exist or is not writable");
    }
    return Optional.empty();
  }

  @Override
  public String toString() {
    return file.toString();
  }
}
