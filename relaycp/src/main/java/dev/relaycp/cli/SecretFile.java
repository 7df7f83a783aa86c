package dev.relaycp.cli;

import static java.util.Objects.requireNonNull;

import dev.relaycp.relay.TransferSecret;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/** A --secret-file as the commands read it: a secret others may read gets a warning. */
final class SecretFile {
  private SecretFile() {}

  /** Reads {@code file}, warning on {@code err} when its group or others may read it. */
  static TransferSecret read(Path file, PrintWriter err) {
    requireNonNull(err, "err is null");
    TransferSecret secret = TransferSecret.read(file);
    try {
      Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(file);
      if (permissions.contains(PosixFilePermission.GROUP_READ)
          || permissions.contains(PosixFilePermission.OTHERS_READ)) {
        err.println("relaycp: warning: secret file " + file + " is readable by others ("
            + PosixFilePermissions.toString(permissions) + "): anyone who reads it can order"
            + " your relays; chmod 600 " + file);
        err.flush();
      }
    } catch (UnsupportedOperationException | IOException e) {
      // No POSIX permissions here (or none readable): nothing to warn about.
    }
    return secret;
  }
}
