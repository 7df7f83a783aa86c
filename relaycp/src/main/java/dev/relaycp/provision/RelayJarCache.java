package dev.relaycp.provision;

import static java.util.Objects.requireNonNull;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.util.UUID;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.yarn.api.records.LocalResource;
import org.apache.hadoop.yarn.api.records.LocalResourceType;
import org.apache.hadoop.yarn.api.records.LocalResourceVisibility;
import org.apache.hadoop.yarn.api.records.URL;
import org.apache.hadoop.yarn.util.FSDownload;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The relay jar on a cluster's file system, kept from one copy to the next: {@code
 * <user's staging folder>/jars/relaycp-relay-<first 16 hex digits of its SHA-256>.jar}
 * ({@link RelayJar#contentHash}).
 *
 * <p>A NodeManager keeps what it localized under the resource's path and modification time,
 * so a jar staged at the same path for every copy is fetched once per node, and each later
 * copy's relay containers start without waiting for a download (the first container of a
 * copy otherwise waits for its NodeManager to open the file system and fetch the jar: 4 s on
 * the WAN lab's busy two cores). A jar of another content has another name, so an upgrade
 * never meets a stale cache; one jar per relaycp version stays, 1.6 MB.
 *
 * <p>The folder is 0711 and the jar 0644: where every folder above lets others pass, the jar
 * is a PUBLIC resource, which each NodeManager fetches itself, once for every user. Elsewhere
 * it is PRIVATE, fetched once per node for this user (by a localizer process, the first time
 * only). A jar is written under a temporary name and renamed into place, so a concurrent copy
 * or a driver killed mid-write never leaves a partial jar under the final name.
 */
final class RelayJarCache {
  private static final Logger LOG = LoggerFactory.getLogger(RelayJarCache.class);
  static final String FOLDER = "jars";
  private static final FsPermission PASS_THROUGH = new FsPermission((short) 0711);
  private static final FsPermission READABLE = new FsPermission((short) 0644);

  private RelayJarCache() {}

  /**
   * The relay jar {@code localJar} as a container resource, staged below {@code userFolder}
   * unless an earlier copy staged the same content there. Safe to call at once for two sites
   * on one file system, or from two copies.
   */
  static LocalResource stage(FileSystem fileSystem, Path userFolder, RelayJar localJar)
      throws IOException {
    requireNonNull(fileSystem, "fileSystem is null");
    requireNonNull(userFolder, "userFolder is null");
    requireNonNull(localJar, "localJar is null");
    Path folder = new Path(userFolder, FOLDER);
    fileSystem.mkdirs(folder, PASS_THROUGH);
    fileSystem.setPermission(folder, PASS_THROUGH);
    Path cached = new Path(folder, "relaycp-relay-" + localJar.contentHash() + ".jar");
    FileStatus status = statusOrNull(fileSystem, cached);
    if (status == null || status.getLen() != localJar.length()) {
      status = put(fileSystem, localJar.path(), localJar.length(), cached);
    } else {
      LOG.debug("Relay jar {} staged by an earlier copy", cached);
    }
    LocalResourceVisibility visibility = FSDownload.isPublic(fileSystem, cached, status, null)
        ? LocalResourceVisibility.PUBLIC : LocalResourceVisibility.PRIVATE;
    LOG.debug("Relay jar {} is localized as a {} resource", cached, visibility);
    return LocalResource.newInstance(URL.fromPath(fileSystem.makeQualified(cached)),
        LocalResourceType.FILE, visibility, status.getLen(), status.getModificationTime());
  }

  /**
   * Writes the jar under a name of its own and renames it into place, unless another caller
   * did first: a local file system's rename replaces a file, which would change the
   * modification time a concurrent copy's containers are localizing it by.
   */
  private static FileStatus put(FileSystem fileSystem, Path localJar, long length, Path cached)
      throws IOException {
    Path temporary = new Path(cached.getParent(), "." + cached.getName() + "." + UUID.randomUUID());
    fileSystem.copyFromLocalFile(false, true, localJar, temporary);
    try {
      fileSystem.setPermission(temporary, READABLE);
      FileStatus existing = statusOrNull(fileSystem, cached);
      if (existing != null && existing.getLen() != length) {
        // Not a jar any caller wrote whole (they rename into place): replaced.
        fileSystem.delete(cached, false);
        existing = null;
      }
      if (existing == null && placeUnlessThere(fileSystem, temporary, cached)) {
        LOG.info("Relay jar staged in {}, for this copy and the next ones", cached);
      }
      // Else another caller put the same content in place first.
    } finally {
      fileSystem.delete(temporary, false);
    }
    return fileSystem.getFileStatus(cached);
  }

  /**
   * Puts {@code from} at {@code to} unless a file is there, in one step: HDFS's rename fails
   * where {@code to} exists. A local file system's rename replaces it, so two callers that both
   * found no jar would each put theirs, and the first's modification time would no longer be
   * the file's; there the jar is hard-linked into place, which fails where a file is.
   */
  private static boolean placeUnlessThere(FileSystem fileSystem, Path from, Path to)
      throws IOException {
    if (!"file".equals(fileSystem.getScheme())) {
      return fileSystem.rename(from, to);
    }
    try {
      Files.createLink(localPath(fileSystem, to), localPath(fileSystem, from));
      return true;
    } catch (FileAlreadyExistsException e) {
      return false;
    }
  }

  private static java.nio.file.Path localPath(FileSystem fileSystem, Path path) {
    return java.nio.file.Path.of(fileSystem.makeQualified(path).toUri());
  }

  private static FileStatus statusOrNull(FileSystem fileSystem, Path path) throws IOException {
    try {
      return fileSystem.getFileStatus(path);
    } catch (FileNotFoundException e) {
      return null;
    }
  }
}
