package dev.relaycp.relay;

import static java.util.Objects.requireNonNull;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.fs.ChunkTarget;
import dev.relaycp.relay.RelayMessage.Transfer;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.security.PrivilegedExceptionAction;
import java.util.Locale;
import java.util.Objects;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * What the orders of one registered transfer may do on this relay, and as whom.
 *
 * <p>A relay reads and writes as the transfer's caller, never as its own login: a Hadoop user
 * of the caller's name holding the caller's delegation tokens. On a kerberized cluster the
 * namenode knows the caller by the token, whatever name the user carries, so a peer holding
 * the relay secret still reaches only what the caller's tokens reach. Orders must also stay
 * inside the transfer's source root (reads) and staging directory (writes), on those file
 * systems; the local file system ({@code file:}) is refused except under the directories the
 * relay itself allowed (its own warm-up).
 */
final class TransferScope {
  /** A reason to refuse every order of a transfer, or null where orders are checked. */
  private final String refusal;
  private final Transfer transfer;
  private final UserGroupInformation caller;

  private TransferScope(Transfer transfer, UserGroupInformation caller, String refusal) {
    this.transfer = transfer;
    this.caller = caller;
    this.refusal = refusal;
  }

  /**
   * The scope of {@code transfer}; one that refuses every order when the transfer is not one
   * this relay serves, so that each order is answered with the reason.
   *
   * @param localFileSystemAllowed whether {@code file:} roots may be served (see the class)
   */
  static TransferScope of(Transfer transfer, boolean localFileSystemAllowed) {
    requireNonNull(transfer, "transfer is null");
    String refusal = null;
    UserGroupInformation caller = UserGroupInformation.createRemoteUser(transfer.user());
    try {
      checkRoot(transfer.sourceRoot(), "source root");
      checkRoot(transfer.stagingRoot(), "staging directory");
      if (!localFileSystemAllowed
          && (isLocal(transfer.sourceRoot()) || isLocal(transfer.stagingRoot()))) {
        refusal = "this relay does not serve the local file system (" + transfer.sourceRoot()
            + " -> " + transfer.stagingRoot() + "); copy between HDFS (or object store) URIs";
      } else if (transfer.credentials().length > 0) {
        caller.addCredentials(readCredentials(transfer.credentials()));
      }
    } catch (RelayCpException e) {
      refusal = e.getMessage();
    }
    return new TransferScope(transfer, caller, refusal);
  }

  Transfer transfer() {
    return transfer;
  }

  /** The Hadoop user this transfer's file system calls run as. */
  UserGroupInformation caller() {
    return caller;
  }

  /** Throws PERMISSION_DENIED unless {@code source} lies inside the transfer's source root. */
  void checkSource(URI source) {
    requireNonNull(source, "source is null");
    refuseIfRefused();
    if (!isInside(source, transfer.sourceRoot())) {
      throw new RelayCpException(ErrorCode.PERMISSION_DENIED, "relay refuses to read " + source
          + ": outside the transfer's source root " + transfer.sourceRoot());
    }
  }

  /**
   * Throws PERMISSION_DENIED unless {@code target}, and for a part the upload it belongs to
   * where the handle names a path, lies inside the transfer's staging directory.
   */
  void checkTarget(ChunkTarget target) {
    requireNonNull(target, "target is null");
    refuseIfRefused();
    if (!isInside(target.path(), transfer.stagingRoot())) {
      throw new RelayCpException(ErrorCode.PERMISSION_DENIED, "relay refuses to write "
          + target.path() + ": outside the transfer's staging directory "
          + transfer.stagingRoot());
    }
    if (target.kind() == ChunkTarget.Kind.PART) {
      // Hadoop's file system uploader names its upload by the directory it collects parts
      // in; an object store's handle is an opaque id that its own service checks.
      String handle = new String(target.uploadHandle(), StandardCharsets.UTF_8);
      if (handle.startsWith("/") || handle.contains("://")) {
        URI collector = handle.startsWith("/") ? onSameFileSystem(target.path(), handle)
            : parse(handle);
        if (collector == null || !isInside(collector, transfer.stagingRoot())) {
          throw new RelayCpException(ErrorCode.PERMISSION_DENIED, "relay refuses to write a"
              + " part to " + handle + ": outside the transfer's staging directory "
              + transfer.stagingRoot());
        }
      }
    }
  }

  private static URI parse(String uri) {
    try {
      return new URI(uri);
    } catch (URISyntaxException e) {
      return null;
    }
  }

  private static URI onSameFileSystem(URI file, String path) {
    try {
      return new URI(file.getScheme(), file.getAuthority(), path, null, null);
    } catch (URISyntaxException e) {
      return null;
    }
  }

  /** Runs {@code action} as the caller. */
  <T> T asCaller(PrivilegedExceptionAction<T> action) throws IOException {
    try {
      return caller.doAs(action);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      InterruptedIOException interrupted = new InterruptedIOException("relay stopping");
      interrupted.initCause(e);
      throw interrupted;
    }
  }

  private void refuseIfRefused() {
    if (refusal != null) {
      throw new RelayCpException(ErrorCode.PERMISSION_DENIED, refusal);
    }
  }

  private static void checkRoot(URI root, String what) {
    if (!root.isAbsolute() || root.getPath() == null || !root.getPath().startsWith("/")) {
      throw new RelayCpException(ErrorCode.PERMISSION_DENIED,
          "relay refuses a transfer whose " + what + " is not an absolute URI: " + root);
    }
  }

  private static boolean isLocal(URI root) {
    return "file".equalsIgnoreCase(root.getScheme());
  }

  /**
   * Whether {@code uri} is {@code root} or below it: same scheme and authority, and a path
   * that, without its dot segments, starts with the root's path at a segment boundary.
   */
  static boolean isInside(URI uri, URI root) {
    if (!uri.isAbsolute() || uri.getRawQuery() != null || uri.getRawFragment() != null) {
      return false;
    }
    if (!uri.getScheme().equalsIgnoreCase(root.getScheme())
        || !Objects.equals(lower(uri.getAuthority()), lower(root.getAuthority()))) {
      return false;
    }
    String path = uri.normalize().getPath();
    String rootPath = root.normalize().getPath();
    if (path == null || rootPath == null || path.contains("/../") || path.endsWith("/..")
        || path.startsWith("..")) {
      return false;
    }
    String trimmedRoot = rootPath.endsWith("/") && rootPath.length() > 1
        ? rootPath.substring(0, rootPath.length() - 1)
        : rootPath;
    return path.equals(trimmedRoot)
        || path.startsWith(trimmedRoot.endsWith("/") ? trimmedRoot : trimmedRoot + "/");
  }

  private static String lower(String text) {
    return text == null || text.isEmpty() ? null : text.toLowerCase(Locale.ROOT);
  }

  private static Credentials readCredentials(byte[] bytes) {
    Credentials credentials = new Credentials();
    try (DataInputStream input = new DataInputStream(new ByteArrayInputStream(bytes))) {
      credentials.readTokenStorageStream(input);
      return credentials;
    } catch (IOException | RuntimeException e) {
      throw new RelayCpException(ErrorCode.PERMISSION_DENIED,
          "relay refuses a transfer whose credentials it cannot read: " + e.getMessage(), e);
    }
  }
}
