package dev.relaycp.fs;

import static java.util.Objects.requireNonNull;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * A directory where relays that a resource manager placed say where they listen: one file
 * per relay, named by the relay (its container id), holding {@code host:port} in UTF-8. A
 * relay writes its file under a temporary name and renames it, so a reader never sees half
 * an address.
 */
public final class RelayAnnouncements {
  private static final String PENDING_SUFFIX = ".pending";

  private final FileSystem fileSystem;
  private final Path directory;

  private RelayAnnouncements(FileSystem fileSystem, Path directory) {
    this.fileSystem = requireNonNull(fileSystem, "fileSystem is null");
    this.directory = requireNonNull(directory, "directory is null");
  }

  public static RelayAnnouncements in(FileSystem fileSystem, Path directory) {
    return new RelayAnnouncements(fileSystem, directory);
  }

  public Path directory() {
    return directory;
  }

  /** Announces that relay {@code name} listens at {@code address} ({@code host:port}). */
  public void publish(String name, String address) throws IOException {
    requireNonNull(name, "name is null");
    requireNonNull(address, "address is null");
    Path pending = new Path(directory, name + PENDING_SUFFIX);
    try (FSDataOutputStream out = fileSystem.create(pending, true)) {
      out.write(address.getBytes(StandardCharsets.UTF_8));
    }
    Path announced = new Path(directory, name);
    if (!fileSystem.rename(pending, announced)) {
      throw new IOException("cannot rename " + pending + " to " + announced);
    }
  }

  /** Every announcement so far, by relay name; empty if the directory is gone. */
  public Map<String, String> read() throws IOException {
    Map<String, String> addresses = new LinkedHashMap<>();
    FileStatus[] files;
    try {
      files = fileSystem.listStatus(directory);
    } catch (FileNotFoundException e) {
      return addresses;
    }
    for (FileStatus file : files) {
      String name = file.getPath().getName();
      if (!file.isFile() || name.endsWith(PENDING_SUFFIX)) {
        continue;
      }
      try (FSDataInputStream in = fileSystem.open(file.getPath())) {
        addresses.put(name, new String(in.readAllBytes(), StandardCharsets.UTF_8).strip());
      } catch (FileNotFoundException e) {
        // Removed since the listing: the transfer is ending.
      }
    }
    return addresses;
  }
}
