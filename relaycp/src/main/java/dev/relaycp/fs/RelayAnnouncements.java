package dev.relaycp.fs;

import static java.util.Objects.requireNonNull;

import java.io.Closeable;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * A directory where relays that a resource manager placed say where they listen: one empty
 * file per relay, whose name holds both the relay's name (its container id) and its address,
 * {@code NAME@HOST%3APORT} (the address URL-encoded, so an IPv6 host's colons cannot read as
 * a URI scheme).
 *
 * <p>An announcement is one empty file made in two namenode calls (create and complete; no
 * block, so no datanode and no wait for one), and all of them are read in one listing. The
 * name carries everything, so a reader never sees half an announcement. The file is made only
 * inside an existing directory: a relay that starts after its driver removed the staging
 * directory fails to announce (and stops) instead of making that directory again.
 *
 * <p>Beside its announcement a relay may say it is busy, {@code NAME!busy}: it does work that
 * outlives the copy (making its node's class-data archive), and asks its driver to wait a
 * while before ending it. The marker is made the same way and removed when the work ends.
 */
public final class RelayAnnouncements {
  private static final char SEPARATOR = '@';
  private static final String BUSY = "!busy";
  private static final int BUFFER_BYTES = 4096;

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

  /**
   * Announces that relay {@code name} listens at {@code address} ({@code host:port}); throws
   * FileNotFoundException when the directory is gone.
   */
  public void publish(String name, String address) throws IOException {
    requireNonNull(address, "address is null");
    create(checkedName(name) + SEPARATOR + URLEncoder.encode(address, StandardCharsets.UTF_8));
  }

  /**
   * Says that relay {@code name} is busy until the returned handle is closed; throws
   * FileNotFoundException when the directory is gone. Closing removes the marker, and does
   * nothing once the directory is gone.
   */
  public Closeable busy(String name) throws IOException {
    Path marker = create(checkedName(name) + BUSY);
    return () -> fileSystem.delete(marker, false);
  }

  /** The names of the relays that say they are busy; empty if the directory is gone. */
  public Set<String> busy() throws IOException {
    Set<String> names = new LinkedHashSet<>();
    for (FileStatus file : list()) {
      String entry = file.getPath().getName();
      if (file.isFile() && entry.endsWith(BUSY) && entry.length() > BUSY.length()) {
        names.add(entry.substring(0, entry.length() - BUSY.length()));
      }
    }
    return names;
  }

  private static String checkedName(String name) {
    requireNonNull(name, "name is null");
    if (name.isEmpty() || name.indexOf(SEPARATOR) >= 0 || name.indexOf('/') >= 0
        || name.indexOf('!') >= 0) {
      throw new IllegalArgumentException("a relay's name must be non-empty, without '"
          + SEPARATOR + "', '!' or '/', got '" + name + "'");
    }
    return name;
  }

  private Path create(String entry) throws IOException {
    Path file = new Path(directory, entry);
    fileSystem.createNonRecursive(file, FsPermission.getFileDefault(), false,
        BUFFER_BYTES, fileSystem.getDefaultReplication(directory),
        fileSystem.getDefaultBlockSize(directory), null).close();
    return file;
  }

  private FileStatus[] list() throws IOException {
    try {
      return fileSystem.listStatus(directory);
    } catch (FileNotFoundException e) {
      return new FileStatus[0];
    }
  }

  /** Every announcement so far, by relay name; empty if the directory is gone. */
  public Map<String, String> read() throws IOException {
    Map<String, String> addresses = new LinkedHashMap<>();
    for (FileStatus file : list()) {
      String entry = file.getPath().getName();
      int separator = entry.indexOf(SEPARATOR);
      if (!file.isFile() || separator <= 0 || separator == entry.length() - 1) {
        continue;
      }
      addresses.put(entry.substring(0, separator),
          URLDecoder.decode(entry.substring(separator + 1), StandardCharsets.UTF_8));
    }
    return addresses;
  }
}
