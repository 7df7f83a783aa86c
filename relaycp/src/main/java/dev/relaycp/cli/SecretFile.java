package dev.relaycp.cli;

import static java.util.Objects.requireNonNull;

import dev.relaycp.relay.TlsIdentity;
import dev.relaycp.relay.TransferSecret;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * A --secret-file (or --tls-identity-file) as the commands read it: one others may read gets a
 * warning.
 */
final class SecretFile {
  private SecretFile() {}

  /** Reads {@code file}, warning on {@code err} when its group or others may read it. */
  static TransferSecret read(Path file, PrintWriter err) {
    requireNonNull(err, "err is null");
    TransferSecret secret = TransferSecret.read(file);
    warnIfOthersMayRead(file, "secret file", "anyone who reads it can order your relays",
        err);
    return secret;
  }

  /** Reads the TLS identity in {@code file}, warning as {@link #read} does. */
  static TlsIdentity readIdentity(Path file, PrintWriter err) {
    requireNonNull(err, "err is null");
    TlsIdentity identity = TlsIdentity.read(file);
    warnIfOthersMayRead(file, "TLS identity file", "it holds the relays' TLS private key",
        err);
    return identity;
  }

  private static void warnIfOthersMayRead(Path file, String what, String why,
      PrintWriter err) {
    try {
      Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(file);
      if (permissions.contains(PosixFilePermission.GROUP_READ)
          || permissions.contains(PosixFilePermission.OTHERS_READ)) {
        err.println("relaycp: warning: " + what + " " + file + " is readable by others ("
            + PosixFilePermissions.toString(permissions) + "): " + why + "; chmod 600 " + file);
        err.flush();
      }
    } catch (UnsupportedOperationException | IOException e) {
      // No POSIX permissions here (or none readable): nothing to warn about.
    }
  }
}
