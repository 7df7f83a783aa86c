package dev.relaycp.transfer;

import static java.util.Objects.requireNonNull;

/**
 * An attribute the copy was asked to keep and could not, e.g. the owner when this user is not
 * the destination's superuser.
 *
 * @param path the destination path
 * @param what which attribute: "user", "group", "permission", "times", "acl", "xattr"
 * @param why the file system's answer, one line
 */
public record NotPreserved(String path, String what, String why) {
  public NotPreserved {
    requireNonNull(path, "path is null");
    requireNonNull(what, "what is null");
    requireNonNull(why, "why is null");
  }
}
