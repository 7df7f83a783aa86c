package dev.relaycp.fs;

import static java.util.Objects.requireNonNull;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * A {@link ReplacedFile} on a Hadoop file system. The new file is made with permission 0600
 * (which no umask narrows further than the owner) and renamed over the old one with {@link
 * Options.Rename#OVERWRITE} through {@link FileContext}, which HDFS does in one step on its
 * NameNode. The file's time is the writer's clock ({@code setTimes}), as a local file's is.
 */
final class HadoopReplacedFile implements ReplacedFile {
  private static final FsPermission OWNER_ONLY = new FsPermission((short) 0600);

  private final Path file;
  private final Configuration configuration;

  private HadoopReplacedFile(Path file, Configuration configuration) {
    this.file = file;
    this.configuration = configuration;
  }

  static HadoopReplacedFile at(Path file, Configuration configuration) {
    requireNonNull(file, "file is null");
    requireNonNull(configuration, "configuration is null");
    if (!file.isAbsolute()) {
      throw new IllegalArgumentException("a file on a Hadoop file system is named by its whole"
          + " path, got " + file);
    }
    return new HadoopReplacedFile(file, configuration);
  }

  private FileSystem fileSystem() throws IOException {
    return file.getFileSystem(configuration);
  }

  @Override
  public Optional<Contents> read() throws IOException {
    FileSystem fileSystem = fileSystem();
    try {
      FileStatus status = fileSystem.getFileStatus(file);
      try (InputStream in = fileSystem.open(file)) {
        return Optional.of(new Contents(in.readAllBytes(),
            Instant.ofEpochMilli(status.getModificationTime())));
      }
    } catch (FileNotFoundException e) {
      return Optional.empty();
    }
  }

  @Override
  public void replace(byte[] bytes) throws IOException {
    requireNonNull(bytes, "bytes is null");
    FileSystem fileSystem = fileSystem();
    Path written = new Path(file.getParent(), "." + file.getName() + "." + UUID.randomUUID()
        + ".part");
    try {
      try (FSDataOutputStream out =
          fileSystem.createFile(written).permission(OWNER_ONLY).overwrite(false).recursive()
              .build()) {
        out.write(bytes);
      }
      FileContext.getFileContext(file.toUri(), configuration)
          .rename(written, file, Options.Rename.OVERWRITE);
    } finally {
      fileSystem.delete(written, false);
    }
  }

  @Override
  public boolean touch(Instant now) throws IOException {
    requireNonNull(now, "now is null");
    try {
      fileSystem().setTimes(file, now.toEpochMilli(), -1);
      return true;
    } catch (FileNotFoundException e) {
      return false;
    }
  }

  @Override
  public boolean exists() throws IOException {
    return fileSystem().exists(file);
  }

  @Override
  public void delete() throws IOException {
    fileSystem().delete(file, false);
  }

  /** When Hadoop closes its cached file systems, which its own shutdown hook does. */
  @Override
  public void deleteOnExit() throws IOException {
    fileSystem().deleteOnExit(file);
  }

  @Override
  public Optional<String> whyNotWritable() throws IOException {
    Path folder = file.getParent();
    FileSystem fileSystem = fileSystem();
    try {
      if (folder == null || !fileSystem.getFileStatus(folder).isDirectory()) {
        return Optional.of("folder " + folder + " is not a folder");
      }
      fileSystem.access(folder, FsAction.WRITE);
      return Optional.empty();
    } catch (FileNotFoundException e) {
      return Optional.of("folder " + folder + " does not exist");
    } catch (AccessControlException e) {
      return Optional.of("folder " + folder + " is not writable by "
          + UserGroupInformation.getCurrentUser().getShortUserName());
    }
  }

  @Override
  public String toString() {
    return file.toString();
  }
}
