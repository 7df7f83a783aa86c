package dev.relaycp.fs;

import static java.util.Objects.requireNonNull;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * Sets this process's Hadoop identity up from its configuration: Hadoop security as the
 * configuration says ({@code hadoop.security.authentication}, wherever it was set: site files,
 * {@code --conf}, {@code -D}), and with a principal and keytab, a Kerberos login from them.
 * Without a keytab on a kerberized cluster, Hadoop uses the ticket cache ({@code kinit}).
 */
public final class HadoopLogin {
  private HadoopLogin() {}

  public static void apply(Configuration configuration, Optional<String> principal,
      Optional<Path> keytab) {
    requireNonNull(configuration, "configuration is null");
    requireNonNull(principal, "principal is null");
    requireNonNull(keytab, "keytab is null");
    if (principal.isPresent() != keytab.isPresent()) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT,
          "--principal and --keytab go together; pass both, or neither to use the ticket cache");
    }
    UserGroupInformation.setConfiguration(configuration);
    if (principal.isEmpty()) {
      return;
    }
    if (!UserGroupInformation.isSecurityEnabled()) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "--principal needs Kerberos, but"
          + " hadoop.security.authentication is not kerberos; use the cluster's configuration"
          + " (--conf or HADOOP_CONF_DIR), or leave --principal and --keytab out");
    }
    if (!Files.isReadable(keytab.get())) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT,
          "cannot read the keytab " + keytab.get() + "; pass a readable --keytab FILE");
    }
    try {
      UserGroupInformation.loginUserFromKeytab(principal.get(), keytab.get().toString());
    } catch (IOException e) {
      throw new RelayCpException(ErrorCode.PERMISSION_DENIED, "Kerberos login as "
          + principal.get() + " with " + keytab.get() + " failed: " + e.getMessage()
          + "; check the principal's name and that the keytab holds its key", e);
    }
  }
}
