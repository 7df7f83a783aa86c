package dev.relaycp.cli;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.fs.FileSystemOpener;
import dev.relaycp.provision.ProvisionedRelay;
import dev.relaycp.provision.YarnRelaySettings;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.yarn.security.AMRMTokenIdentifier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ApplicationMaster container of a relay application on a kerberized YARN:
 * {@code ApplicationMasterContainerMain TOKEN_FILE_URI HEARTBEAT_FILE_URI}. There YARN gives an
 * ApplicationMaster's AMRM token only to its container (an unmanaged one's goes to no Kerberos
 * caller), and the driver, which asks for the relays and starts them, needs it. So this
 * container hands the token on: it writes it to TOKEN_FILE_URI, in the transfer's staging
 * folder on the site's file system, readable by the user alone, with the HDFS token YARN put in
 * its credentials. Then it only stays up, since the application's attempt ends with it: until
 * the driver removes its heartbeat file, which it does once it has unregistered the
 * application, or, should the driver die, until that file is stale for the driver timeout, as
 * the relays do.
 */
public final class ApplicationMasterContainerMain {
  private static final Logger LOG = LoggerFactory.getLogger(ApplicationMasterContainerMain.class);

  private ApplicationMasterContainerMain() {}

  public static void main(String[] arguments) throws InterruptedException {
    System.exit(run(arguments, System.getenv(), new PrintWriter(System.err, true)));
  }

  static int run(String[] arguments, Map<String, String> environment, PrintWriter err)
      throws InterruptedException {
    if (arguments.length != 2) {
      err.println("relaycp: the ApplicationMaster container takes 2 arguments, the file to hand"
          + " its token on in and the driver's heartbeat file, and got " + arguments.length
          + "; relaycp starts it through YARN");
      err.flush();
      return ExitCodes.USAGE;
    }
    try {
      Configuration configuration = RelayContainerMain.configuration(environment);
      handOn(configuration, new Path(arguments[0]));
      CountDownLatch driverGone = new CountDownLatch(1);
      Duration timeout = Duration.ofSeconds(
          YarnRelaySettings.from(configuration, Map.of()).driverTimeoutSeconds());
      ProvisionedRelay.followDriver(configuration, arguments[1], timeout, driverGone::countDown);
      driverGone.await();
      return ExitCodes.OK;
    } catch (RelayCpException e) {
      return ExitCodes.report(e, err, "an ApplicationMaster container");
    } catch (IOException e) {
      err.println("relaycp: the ApplicationMaster container could not hand its token on in "
          + arguments[0] + ": " + e.getMessage());
      err.flush();
      return ExitCodes.EXTERNAL;
    }
  }

  /** Writes this container's AMRM token to {@code file}, readable by its owner only. */
  private static void handOn(Configuration configuration, Path file) throws IOException {
    Credentials handed = new Credentials();
    for (Token<?> token : UserGroupInformation.getCurrentUser().getTokens()) {
      if (AMRMTokenIdentifier.KIND_NAME.equals(token.getKind())) {
        handed.addToken(token.getService(), token);
      }
    }
    if (handed.numberOfTokens() == 0) {
      throw new RelayCpException(ErrorCode.RELAY_START_FAILED, "the ApplicationMaster"
          + " container holds no AMRM token; YARN puts one in every ApplicationMaster's"
          + " credentials");
    }
    FileSystem fileSystem = FileSystemOpener.of(configuration).open(file.toUri());
    Path part = file.suffix(".part");
    try (FSDataOutputStream out = fileSystem.create(part, new FsPermission((short) 0600), true,
        4096, fileSystem.getDefaultReplication(part), fileSystem.getDefaultBlockSize(part),
        null)) {
      handed.writeTokenStorageToStream(out);
    }
    if (!fileSystem.rename(part, file)) {
      throw new IOException("cannot move " + part + " to " + file);
    }
    LOG.info("AMRM token handed on in {}", file);
  }
}
