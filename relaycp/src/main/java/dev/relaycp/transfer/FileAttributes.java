package dev.relaycp.transfer;

import static java.util.Objects.requireNonNull;

import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.permission.FsPermission;

/** What the copy keeps of a file or directory besides its bytes. */
public record FileAttributes(
    FsPermission permission, String owner, String group, long modificationTime, long accessTime) {

  public FileAttributes {
    requireNonNull(permission, "permission is null");
    requireNonNull(owner, "owner is null");
    requireNonNull(group, "group is null");
  }

  public static FileAttributes of(FileStatus status) {
    return new FileAttributes(status.getPermission(), status.getOwner(), status.getGroup(),
        status.getModificationTime(), status.getAccessTime());
  }
}
