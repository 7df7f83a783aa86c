package dev.relaycp.cli;

import dev.relaycp.fs.HadoopLogin;
import java.nio.file.Path;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import picocli.CommandLine.Option;

/** {@code --principal} and {@code --keytab}: a Kerberos login for kerberized clusters. */
public final class LoginOptions {
  @Option(names = "--principal", paramLabel = "PRINCIPAL",
      description = "Log in to Kerberos as PRINCIPAL (with --keytab); without it, a kerberized"
          + " cluster is reached with the ticket cache (kinit).")
  String principal;

  @Option(names = "--keytab", paramLabel = "FILE",
      description = "The keytab holding --principal's key.")
  Path keytab;

  /** Sets Hadoop security up from {@code configuration} and logs in where asked to. */
  void apply(Configuration configuration) {
    HadoopLogin.apply(configuration, Optional.ofNullable(principal), Optional.ofNullable(keytab));
  }
}
