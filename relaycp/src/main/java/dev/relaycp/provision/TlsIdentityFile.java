package dev.relaycp.provision;

import static java.util.Objects.requireNonNull;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.relay.TlsIdentity;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The driver's TLS identity in a temporary file only this user may read, for the relay
 * processes it starts to adopt ({@code relaycp relay --tls-identity-file}): local relays, and
 * spawned ones through the exec backend. Removed at close, else when the JVM exits.
 */
public final class TlsIdentityFile implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(TlsIdentityFile.class);

  private final Path path;

  private TlsIdentityFile(Path path) {
    this.path = path;
  }

  /**
   * {@code identity} in a new file; if it cannot be written, a {@link RelayCpException} with
   * {@code code}, whose caller says how much a failure here is the user's to fix.
   */
  public static TlsIdentityFile write(TlsIdentity identity, ErrorCode code) {
    requireNonNull(identity, "identity is null");
    requireNonNull(code, "code is null");
    try {
      Path file = Files.createTempFile("relaycp-tls-", ".pem");
      file.toFile().deleteOnExit();
      identity.writeTo(file);
      return new TlsIdentityFile(file);
    } catch (IOException e) {
      throw new RelayCpException(code, "cannot write the relays' TLS identity to a temporary"
          + " file (" + e.getMessage() + "); make java.io.tmpdir writable", e);
    }
  }

  public Path path() {
    return path;
  }

  @Override
  public void close() {
    try {
      Files.deleteIfExists(path);
    } catch (IOException e) {
      LOG.warn("Cannot remove the relays' TLS identity file {}: {}", path, e.getMessage());
    }
  }
}
