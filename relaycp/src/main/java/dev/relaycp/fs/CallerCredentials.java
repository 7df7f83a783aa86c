package dev.relaycp.fs;

import static java.util.Objects.requireNonNull;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who the relays act as for one copy: the driver's user, and on clusters with Hadoop security
 * on, delegation tokens for every file system the copy touches (with their key servers' where
 * encryption zones are configured, as {@link FileSystem#addDelegationTokens} collects them).
 *
 * <p>A driver logged in to Kerberos (ticket cache or keytab) gets new tokens, renews them
 * every hour while the copy runs (a copy may outlast a token's renewal interval, a day by
 * default) and cancels them when it closes. A driver that holds tokens only (an Oozie launcher,
 * a YARN container) passes on the ones it has, which it can neither renew nor cancel.
 */
public final class CallerCredentials implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(CallerCredentials.class);
  private static final long RENEW_EVERY_MINUTES = 60;

  private final String user;
  private final byte[] tokenBytes;
  private final List<ObtainedToken> obtained;
  private final ScheduledExecutorService renewal;

  /**
   * A token this process got, with the configuration of the file system that gave it: renewing
   * and cancelling reach that cluster's namenode (or key server), which only its own client
   * configuration may describe (an HA nameservice of the other site).
   */
  private record ObtainedToken(Token<?> token, Configuration configuration) {}

  private CallerCredentials(String user, byte[] tokenBytes, List<ObtainedToken> obtained) {
    this.user = user;
    this.tokenBytes = tokenBytes;
    this.obtained = List.copyOf(obtained);
    if (this.obtained.isEmpty()) {
      renewal = null;
    } else {
      renewal = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "delegation-token-renewal");
        thread.setDaemon(true);
        return thread;
      });
      renewal.scheduleWithFixedDelay(this::renew, RENEW_EVERY_MINUTES, RENEW_EVERY_MINUTES,
          TimeUnit.MINUTES);
    }
  }

  /**
   * The current user's credentials for {@code fileSystems}: tokens where Hadoop security is
   * on, none where it is off (the relays then act as the user by name, as Hadoop's simple
   * authentication does).
   */
  public static CallerCredentials obtain(List<FileSystem> fileSystems) {
    requireNonNull(fileSystems, "fileSystems is null");
    try {
      UserGroupInformation current = UserGroupInformation.getCurrentUser();
      String user = current.getShortUserName();
      if (!UserGroupInformation.isSecurityEnabled()) {
        return new CallerCredentials(user, new byte[0], List.of());
      }
      Credentials credentials = new Credentials();
      // Tokens this process was given (a launcher's, a container's) first: a file system
      // that has one already is not asked for another, which it could not give without a
      // Kerberos login anyway.
      credentials.addAll(current.getCredentials());
      List<ObtainedToken> obtained = new ArrayList<>();
      for (FileSystem fileSystem : fileSystems) {
        Token<?>[] added = fileSystem.addDelegationTokens(user, credentials);
        if (added != null) {
          for (Token<?> token : added) {
            obtained.add(new ObtainedToken(token, fileSystem.getConf()));
          }
        }
      }
      if (credentials.numberOfTokens() == 0) {
        throw new RelayCpException(ErrorCode.PERMISSION_DENIED, "Hadoop security is on but "
            + user + " holds no delegation tokens for " + fileSystems.stream()
                .map(FileSystem::getUri).toList()
            + " and the file systems gave none; log in with kinit or --principal/--keytab");
      }
      LOG.info("Relays act as {} with {} delegation tokens ({} new)", user,
          credentials.numberOfTokens(), obtained.size());
      return new CallerCredentials(user, serialize(credentials), obtained);
    } catch (IOException e) {
      throw HadoopFailures.translate(e, "getting delegation tokens for the relays");
    }
  }

  /** The user's short name, which the relays act as. */
  public String user() {
    return user;
  }

  /** The tokens in Hadoop's token storage format; empty without Hadoop security. */
  public byte[] tokenBytes() {
    return tokenBytes.clone();
  }

  /** Renews the tokens this object obtained; a failure is logged (the copy may still end first). */
  void renew() {
    for (ObtainedToken each : obtained) {
      Token<?> token = each.token();
      try {
        token.renew(each.configuration());
      } catch (IOException | InterruptedException | RuntimeException e) {
        if (e instanceof InterruptedException) {
          Thread.currentThread().interrupt();
          return;
        }
        LOG.warn("Could not renew the delegation token {} ({}): {}", token.getKind(),
            token.getService(), e.toString());
      }
    }
  }

  /** Stops renewing and cancels the tokens this object obtained. */
  @Override
  public void close() {
    if (renewal == null) {
      return;
    }
    renewal.shutdownNow();
    for (ObtainedToken each : obtained) {
      Token<?> token = each.token();
      try {
        token.cancel(each.configuration());
      } catch (IOException | InterruptedException | RuntimeException e) {
        if (e instanceof InterruptedException) {
          Thread.currentThread().interrupt();
        }
        LOG.debug("Could not cancel the delegation token {} ({}): {}", token.getKind(),
            token.getService(), e.toString());
      }
    }
  }

  private static byte[] serialize(Credentials credentials) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream output = new DataOutputStream(bytes)) {
      credentials.writeTokenStorageToStream(output);
    }
    return bytes.toByteArray();
  }
}
