package dev.relaycp.provision;

import static dev.relaycp.fs.HadoopFailures.firstLine;
import static java.util.Objects.requireNonNull;

import dev.relaycp.config.RelayKeys;
import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.fs.BestEffortDelete;
import dev.relaycp.fs.CallerCredentials;
import dev.relaycp.fs.FileSystemOpener;
import dev.relaycp.fs.HadoopFailures;
import dev.relaycp.fs.HeartbeatFile;
import dev.relaycp.fs.RelayAnnouncements;
import dev.relaycp.relay.RelayAddress;
import dev.relaycp.relay.RelayTls;
import dev.relaycp.relay.TransferSecret;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.io.DataOutputBuffer;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.DelegationTokenIssuer;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.yarn.api.ApplicationConstants;
import org.apache.hadoop.yarn.api.ApplicationConstants.Environment;
import org.apache.hadoop.yarn.api.records.ApplicationAttemptReport;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationReport;
import org.apache.hadoop.yarn.api.records.ApplicationSubmissionContext;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerId;
import org.apache.hadoop.yarn.api.records.ContainerLaunchContext;
import org.apache.hadoop.yarn.api.records.ContainerStatus;
import org.apache.hadoop.yarn.api.records.FinalApplicationStatus;
import org.apache.hadoop.yarn.api.records.LocalResource;
import org.apache.hadoop.yarn.api.records.NodeReport;
import org.apache.hadoop.yarn.api.records.NodeState;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.UpdatedContainer;
import org.apache.hadoop.yarn.api.records.YarnApplicationAttemptState;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.client.api.AMRMClient;
import org.apache.hadoop.yarn.client.api.AMRMClient.ContainerRequest;
import org.apache.hadoop.yarn.client.api.NMTokenCache;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.client.api.async.AMRMClientAsync;
import org.apache.hadoop.yarn.client.api.async.NMClientAsync;
import org.apache.hadoop.yarn.client.util.YarnClientUtils;
import org.apache.hadoop.yarn.conf.HAUtil;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.exceptions.ApplicationNotFoundException;
import org.apache.hadoop.yarn.exceptions.InvalidResourceRequestException;
import org.apache.hadoop.yarn.exceptions.YarnException;
import org.apache.hadoop.yarn.security.AMRMTokenIdentifier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The relays of one cluster (site) as containers of one YARN application whose
 * ApplicationMaster is unmanaged: it runs inside the driver, as a client of that cluster's
 * ResourceManager, so nothing but the product jar has to reach the nodes.
 *
 * <p>The relay jar is staged once per content in the user's folder of the site's default file
 * system ({@link RelayJarCache}) and localized into each container (a PUBLIC resource where
 * the cluster's folders allow, else a PRIVATE one), so a NodeManager fetches it once for all
 * copies. The transfer's own folder beside it (heartbeat, announcements) is removed at the
 * end. The transfer secret travels in the containers' credentials, never on a command line,
 * in the environment or in a log. Each relay binds port 0 and announces {@code host:port} in
 * the transfer's folder; it stops once the driver's heartbeat file there is gone or still.
 */
final class YarnSite implements RelaySite {
  private static final Logger LOG = LoggerFactory.getLogger(YarnSite.class);
  static final String APPLICATION_TYPE = "RELAYCP";
  private static final String JAR = "relaycp.jar";
  /**
   * What a relay container runs: relaycp's relay without its command line parser, named here
   * rather than linked, since provisioning comes below the command line.
   */
  private static final String RELAY_CONTAINER_MAIN = "dev.relaycp.cli.RelayContainerMain";
  /** The ApplicationMaster container's main class on a kerberized YARN, by name, as above. */
  private static final String MASTER_CONTAINER_MAIN =
      "dev.relaycp.cli.ApplicationMasterContainerMain";
  /** How a NodeManager's diagnostics begin the quoted tail of a container's stderr. */
  private static final Pattern STDERR_TAIL =
      Pattern.compile("Last \\d+ bytes of \\S*stderr\\S* :\\n");
  /**
   * How a ResourceManager says it will never take an application in its queue (one it does not
   * have, a parent queue, one that is stopped or that the user may not submit to); a queue
   * that is full for now ("cannot accept submission" for its limits) is not among them.
   */
  private static final Pattern QUEUE_REFUSAL = Pattern.compile(
      "unknown queue|non-leaf queue|permission to submit|is STOPPED");
  private static final String SUBMITTED_BY = "submitted by user ";
  /** The ApplicationMaster container's memory: a small JVM that hands a token on and waits. */
  private static final int MASTER_CONTAINER_MEGABYTES = 256;
  /** How a relay container's log4j is set up, by name: provision does not depend on cli. */
  private static final String CONTAINER_LOG_CONFIGURATOR =
      "dev.relaycp.cli.ContainerLogConfigurator";
  /**
   * YARN refuses requests at one priority that mix a strict node with relaxed placement, so
   * relays asked for on a named node and relays for any node have a priority each.
   */
  private static final Priority NAMED_NODE = Priority.newInstance(0);
  private static final Priority ANY_NODE = Priority.newInstance(1);
  /** Often enough that a container granted on a NodeManager's heartbeat starts at once. */
  private static final int HEARTBEAT_MILLIS = 250;

  private final String site;
  private final Configuration configuration;
  private final YarnRelaySettings settings;
  private final FileSystem fileSystem;
  private final Path stagingDirectory;
  private final HeartbeatFile heartbeat;
  private final RelayAnnouncements announcements;
  private final YarnClient yarnClient;
  private final ApplicationId applicationId;
  private final Map<String, LocalResource> resources;
  /** The relay jar's content hash, which names the nodes' class-data archives. */
  private final String jarHash;
  private final TransferSecret secret;
  /** The site's HDFS tokens, where Hadoop security is on: the containers' own, see launchContext. */
  private final CallerCredentials siteTokens;
  /** Whether the ApplicationMaster runs in a container of its own (kerberized YARN). */
  private volatile boolean masterInContainer;
  private final String relaySettings;
  /** Whether the relays run TLS, and so are given this process's key and certificate. */
  private final boolean relaysRunTls;
  private final Resource capability;
  private final NMTokenCache tokens = new NMTokenCache();
  private final Map<ContainerId, Container> running = new ConcurrentHashMap<>();
  private final Set<ContainerId> lost = ConcurrentHashMap.newKeySet();
  private final Map<ContainerId, RelayAddress> announcedAddresses = new ConcurrentHashMap<>();
  private final List<ContainerRequest> outstanding = new ArrayList<>();
  private AMRMClientAsync<ContainerRequest> resourceManager;
  private NMClientAsync nodeManagers;
  private int launched;
  private volatile boolean closing;
  /** Held for the whole of {@link #close}, apart from this object's lock, which callbacks take. */
  private final Object closeLock = new Object();
  private volatile RelayCpException failure;
  /** How the last container that ended early ended, as {@link #containerEnd} says it. */
  private volatile String lastEnd;

  private YarnSite(String site, Configuration configuration, YarnRelaySettings settings,
      FileSystem fileSystem, Path stagingDirectory, YarnClient yarnClient,
      ApplicationId applicationId, Map<String, LocalResource> resources,
      String jarHash, TransferSecret secret, CallerCredentials siteTokens) {
    this.site = site;
    this.siteTokens = siteTokens;
    this.configuration = configuration;
    this.settings = settings;
    this.fileSystem = fileSystem;
    this.stagingDirectory = stagingDirectory;
    this.heartbeat = HeartbeatFile.at(fileSystem, new Path(stagingDirectory, "heartbeat"));
    this.announcements = RelayAnnouncements.in(fileSystem, new Path(stagingDirectory, "relays"));
    this.yarnClient = yarnClient;
    this.applicationId = applicationId;
    this.resources = resources;
    this.jarHash = jarHash;
    this.secret = secret;
    this.relaySettings = encodeRelaySettings(settings);
    Configuration relays = new Configuration(configuration);
    settings.relayProperties().forEach(relays::set);
    this.relaysRunTls = RelayKeys.RELAY_TLS.from(relays);
    this.capability = Resource.newInstance(settings.memoryMegabytes(), settings.virtualCores());
  }

  /**
   * Submits the application, stages the files and registers its unmanaged ApplicationMaster
   * with the site's ResourceManager; containers come with {@link #request}. The application
   * goes first: while the ResourceManager schedules its attempt, the relay jar ({@code jar},
   * asked for only then) is staged on the site's file system, which the copy's main thread
   * opens at the same time. On a kerberized YARN the application goes after the files, since
   * its ApplicationMaster container runs from the staged jar ({@link
   * #submitWithMasterContainer}). Each thing is made through {@code hook}, which undoes them if the
   * JVM shuts down before the caller has taken the site over; a failure undoes them too.
   */
  static YarnSite start(String site, String applicationName, String transferId,
      Configuration clusterConfiguration, YarnRelaySettings settings, Supplier<RelayJar> jar,
      TransferSecret secret, SiteStartShutdownHook hook) {
    requireNonNull(site, "site is null");
    requireNonNull(jar, "jar is null");
    requireNonNull(hook, "hook is null");
    Configuration configuration =
        new Configuration(requireNonNull(clusterConfiguration, "configuration is null"));
    // YARN's clients retry an unreachable ResourceManager for 15 minutes by default; a copy
    // whose --src-conf or --dst-conf is wrong should say so within the start timeout. The
    // ResourceManager proxy retries a failed call every interval for as many intervals as fit
    // in its wait, and counts attempts, not time; so each attempt must end within an interval
    // too. Left to themselves, an attempt's IPC connection retries a refused connect ten times
    // a second apart (ipc.client.connect.max.retries) and waits 20 s for a connect that is
    // never answered (a firewall dropping packets), 45 times (...on.timeouts): a 3 s timeout
    // took 40 s against a closed port. So each attempt is one connect bounded by the interval,
    // as YARN's NodeManager proxy and its client of HA ResourceManagers make theirs: at worst,
    // against a host that answers nothing, twice the wait, which is at most a minute.
    long configuredWait = configuration.getLong(
        YarnConfiguration.RESOURCEMANAGER_CONNECT_MAX_WAIT_MS,
        YarnConfiguration.DEFAULT_RESOURCEMANAGER_CONNECT_MAX_WAIT_MS);
    long startWait = TimeUnit.SECONDS.toMillis(Math.min(60, settings.startTimeoutSeconds()));
    // -1 is YARN's "retry forever".
    long maxWait = configuredWait < 0 ? startWait : Math.min(configuredWait, startWait);
    long interval = Math.min(maxWait, 2_000);
    configuration.setLong(YarnConfiguration.RESOURCEMANAGER_CONNECT_MAX_WAIT_MS, maxWait);
    configuration.setLong(YarnConfiguration.RESOURCEMANAGER_CONNECT_RETRY_INTERVAL_MS, interval);
    configuration.setInt(CommonConfigurationKeysPublic.IPC_CLIENT_CONNECT_MAX_RETRIES_KEY, 0);
    configuration.setInt(
        CommonConfigurationKeysPublic.IPC_CLIENT_CONNECT_MAX_RETRIES_ON_SOCKET_TIMEOUTS_KEY, 0);
    configuration.setInt(CommonConfigurationKeysPublic.IPC_CLIENT_CONNECT_TIMEOUT_KEY,
        (int) Math.min(interval, configuration.getInt(
            CommonConfigurationKeysPublic.IPC_CLIENT_CONNECT_TIMEOUT_KEY,
            CommonConfigurationKeysPublic.IPC_CLIENT_CONNECT_TIMEOUT_DEFAULT)));
    // On a kerberized YARN the ApplicationMaster runs in a container of its own, which hands
    // its token on to the driver (see ApplicationMasterContainerMain); the application is then
    // submitted once its files are staged. Elsewhere it is the driver itself, submitted first.
    boolean kerberized = UserGroupInformation.isSecurityEnabled();
    YarnClient yarnClient = YarnClient.createYarnClient();
    ApplicationId applicationId;
    ApplicationSubmissionContext submission;
    try {
      yarnClient.init(configuration);
      yarnClient.start();
      submission = hook.make(
          () -> describe(yarnClient, applicationName, transferId, settings),
          described -> () -> abandon(site, yarnClient, described.getApplicationId()));
      applicationId = submission.getApplicationId();
      if (!kerberized) {
        yarnClient.submitApplication(submission);
      }
    } catch (Exception e) {
      hook.undo();
      yarnClient.stop();
      throw startFailed(site, configuration, settings, hook, e);
    }
    FileSystem fileSystem;
    Path staging;
    try {
      // The cluster's configuration as given, not the copy with the YARN client's retries
      // above: the driver opens this cluster with the same, and so shares this client.
      fileSystem = FileSystemOpener.of(clusterConfiguration)
          .open(FileSystem.getDefaultUri(clusterConfiguration));
      String user = UserGroupInformation.getCurrentUser().getShortUserName();
      staging = fileSystem.makeQualified(
          new Path(new Path(settings.stagingDirectory(), user), transferId));
    } catch (IOException | RuntimeException e) {
      hook.undo();
      throw failed(hook, e, "opening the " + site + " cluster's file system");
    }
    Map<String, LocalResource> resources;
    RelayJar relayJar;
    try {
      relayJar = jar.get();
      hook.undoWith(() -> {
        deleteQuietly(fileSystem, staging);
        abandon(site, yarnClient, applicationId);
      });
      resources = hook.make(() -> stage(fileSystem, staging, relayJar));
    } catch (IOException | RuntimeException e) {
      hook.undo();
      throw failed(hook, e, "staging the relay jar in " + staging);
    }
    StaleStagingFolders.removeBesides(fileSystem, staging);
    // On a kerberized site the NodeManagers fetch the jar, and the relays read the heartbeat
    // and write their announcements, with the driver's tokens for the site's file system.
    CallerCredentials siteTokens;
    try {
      siteTokens = CallerCredentials.obtain(List.of(fileSystem));
    } catch (RuntimeException e) {
      hook.undo();
      throw failed(hook, e, "obtaining the " + site + " cluster's tokens");
    }
    hook.undoWith(() -> {
      deleteQuietly(fileSystem, staging);
      abandon(site, yarnClient, applicationId);
      siteTokens.close();
    });
    try {
      YarnSite started = new YarnSite(site, configuration, settings, fileSystem, staging,
          yarnClient, applicationId, resources, relayJar.contentHash(), secret, siteTokens);
      hook.undoWith(started::close);
      hook.make(() -> {
        started.heartbeat.create();
        return started;
      });
      if (kerberized) {
        started.submitWithMasterContainer(submission);
      }
      started.awaitAttemptLaunched(hook);
      hook.make(() -> {
        started.registerApplicationMaster(
            kerberized ? started.awaitHandedToken(hook) : started.reportedToken());
        return started;
      });
      LOG.info("{} site: application {} registered in queue {}; relays staged in {}", site,
          applicationId, settings.queue(), staging);
      return started;
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      hook.undo();
      throw startFailed(site, configuration, settings, hook, e);
    }
  }

  /**
   * What a failure of a start's step other than the ResourceManager's is thrown as: the
   * hook's stop if the JVM is shutting down, else the failure itself, an IOException
   * translated as a failure of {@code doing}.
   */
  private static RuntimeException failed(SiteStartShutdownHook hook, Exception e,
      String doing) {
    if (hook.shutDown()) {
      return hook.stopped(e);
    }
    return e instanceof IOException io
        ? HadoopFailures.translate(io, doing)
        : (RuntimeException) e;
  }

  /** What a failure to start the site's application is thrown as. */
  private static RelayCpException startFailed(String site, Configuration configuration,
      YarnRelaySettings settings, SiteStartShutdownHook hook, Exception e) {
    if (hook.shutDown()) {
      return hook.stopped(e);
    }
    if (e instanceof RelayCpException relay) {
      return relay;
    }
    Optional<String> refusal = queueRefusal(e.getMessage());
    if (refusal.isPresent()) {
      return queueRefused(site, settings, refusal.get(), e);
    }
    return new RelayCpException(ErrorCode.RELAY_START_FAILED, "starting relays on the " + site
        + " cluster through YARN failed: " + firstLine(e.getMessage())
        + "; check that its ResourceManager (" + resourceManagers(configuration)
        + ") runs and takes applications in queue " + settings.queue(), e);
  }

  /**
   * What a ResourceManager's refusal of the application's queue says ({@link #QUEUE_REFUSAL}),
   * where {@code message} is one: from the last "submitted by user", since YARN repeats the
   * application's name before it; else empty.
   */
  static Optional<String> queueRefusal(String message) {
    if (message == null || !QUEUE_REFUSAL.matcher(message).find()) {
      return Optional.empty();
    }
    String said = firstLine(message);
    int last = said.lastIndexOf(SUBMITTED_BY);
    return Optional.of(last >= 0 ? said.substring(last) : said);
  }

  /** A queue refusal is the user's to fix, with the setting that names the queue. */
  private static RelayCpException queueRefused(String site, YarnRelaySettings settings,
      String refusal, Exception cause) {
    return new RelayCpException(ErrorCode.INVALID_ARGUMENT, "the " + site + " cluster's"
        + " ResourceManager refused the relays' application in queue " + settings.queue()
        + " (" + refusal + "); set " + YarnRelaySettings.QUEUE + " to a queue of that cluster"
        + " this user may submit to (`mapred queue -list` names them)", cause);
  }

  /**
   * Where {@code configuration} says the site's ResourceManager answers: its address, or with
   * YARN's high availability on each one's id and address (from its own address key or its
   * host name, as a cluster's yarn-site.xml gives them), for a message.
   */
  static String resourceManagers(Configuration configuration) {
    if (!HAUtil.isHAEnabled(configuration)) {
      String address =
          configuration.get(YarnConfiguration.RM_ADDRESS, YarnConfiguration.DEFAULT_RM_ADDRESS);
      return RelayKeys.isChosen(configuration, YarnConfiguration.RM_ADDRESS)
          || RelayKeys.isChosen(configuration, YarnConfiguration.RM_HOSTNAME) ? address
          : address + ", YARN's default: no yarn-site.xml of the site's configuration names one";
    }
    List<String> resourceManagers = new ArrayList<>();
    for (String id : HAUtil.getRMHAIds(configuration)) {
      String address =
          configuration.getTrimmed(HAUtil.addSuffix(YarnConfiguration.RM_ADDRESS, id));
      String host =
          configuration.getTrimmed(HAUtil.addSuffix(YarnConfiguration.RM_HOSTNAME, id));
      if (address == null && host != null) {
        address = host + ":" + YarnConfiguration.DEFAULT_RM_PORT;
      }
      resourceManagers.add(id + " at " + (address == null ? "no address given" : address));
    }
    return String.join(" or ", resourceManagers);
  }

  /** Kills an application submitted before anything else of its site was made, and its client. */
  private static void abandon(String site, YarnClient yarnClient, ApplicationId applicationId) {
    Uninterrupted.run(() -> {
      try {
        yarnClient.killApplication(applicationId);
      } catch (ApplicationNotFoundException notSubmitted) {
        LOG.debug("The {} relays' application {} was not submitted", site, applicationId);
      } catch (IOException | YarnException | RuntimeException e) {
        LOG.warn("Cannot kill the {} relays' application {}: {}", site, applicationId,
            firstLine(e.getMessage()));
      }
    });
    yarnClient.stop();
  }

  /**
   * Makes the transfer's folder and returns the relay jar as the containers' one resource,
   * from the user's jar cache ({@link RelayJarCache}). The folder is 0711 (others may pass
   * through, not list it; what the relays announce is in a 0700 folder below), and the user's
   * folder above it lets others pass too, so that the cached jar can be a PUBLIC resource:
   * each NodeManager fetches it itself, where a resource of the application costs a localizer
   * JVM per container, on a node that may be busy. The secret and the relays' settings need no
   * file: they travel in the launch context ({@link #launchContext}).
   */
  private static Map<String, LocalResource> stage(FileSystem fileSystem, Path staging,
      RelayJar jar)
      throws IOException {
    FsPermission ownerOnly = new FsPermission((short) 0700);
    FsPermission passThrough = new FsPermission((short) 0711);
    fileSystem.mkdirs(staging, passThrough);
    fileSystem.setPermission(staging, passThrough);
    letOthersPass(fileSystem, staging.getParent());
    fileSystem.mkdirs(new Path(staging, "relays"), ownerOnly);
    fileSystem.setPermission(new Path(staging, "relays"), ownerOnly);
    return Map.of(JAR, RelayJarCache.stage(fileSystem, staging.getParent(), jar));
  }

  /** Adds execute for others to the user's own staging folder (made 0700 by older versions). */
  private static void letOthersPass(FileSystem fileSystem, Path userFolder) throws IOException {
    FileStatus status = fileSystem.getFileStatus(userFolder);
    FsPermission permission = status.getPermission();
    String user = UserGroupInformation.getCurrentUser().getShortUserName();
    if (user.equals(status.getOwner())
        && !permission.getOtherAction().implies(FsAction.EXECUTE)) {
      fileSystem.setPermission(userFolder, new FsPermission(permission.getUserAction(),
          permission.getGroupAction().or(FsAction.EXECUTE),
          permission.getOtherAction().or(FsAction.EXECUTE)));
    }
  }

  /**
   * A new application of the site's ResourceManager, described but not submitted: one attempt,
   * its ApplicationMaster in the driver (unmanaged) until {@link #submitWithMasterContainer}
   * gives it a container.
   */
  private static ApplicationSubmissionContext describe(YarnClient yarnClient,
      String applicationName, String transferId, YarnRelaySettings settings)
      throws IOException, YarnException {
    ApplicationSubmissionContext context =
        yarnClient.createApplication().getApplicationSubmissionContext();
    context.setApplicationName(applicationName);
    context.setApplicationType(APPLICATION_TYPE);
    context.setApplicationTags(Set.of("relaycp", "relaycp-transfer-" + transferId));
    context.setQueue(settings.queue());
    context.setUnmanagedAM(true);
    context.setMaxAppAttempts(1);
    context.setKeepContainersAcrossApplicationAttempts(false);
    context.setResource(Resource.newInstance(settings.memoryMegabytes(), 1));
    context.setAMContainerSpec(ContainerLaunchContext.newInstance(
        Map.of(), Map.of(), List.of(), null, null, null));
    return context;
  }

  /**
   * Submits the application with its ApplicationMaster in a container of its own
   * ({@link #MASTER_CONTAINER_MAIN}), which writes its AMRM token to {@link #handedToken()} and
   * then stays up. Its credentials hold an HDFS token for the site's file system that the
   * ResourceManager may renew (YARN renews an application's tokens, and refuses it if it
   * cannot): one the driver holds already where it has one (an Oozie launcher's, taken with
   * the ResourceManager as renewer; only a Kerberos login could get another), which YARN then
   * leaves alone when the application ends, since it is not this copy's to cancel; else a new
   * one, which YARN cancels then.
   */
  private void submitWithMasterContainer(ApplicationSubmissionContext submission)
      throws IOException, YarnException {
    masterInContainer = true;
    Credentials credentials = heldTokens(fileSystem, UserGroupInformation.getCurrentUser());
    boolean holdsTokens = credentials.numberOfTokens() > 0;
    fileSystem.addDelegationTokens(YarnClientUtils.getRmPrincipal(configuration), credentials);
    submission.setCancelTokensWhenComplete(!holdsTokens);
    LOG.debug("{} site: the ApplicationMaster container gets {} tokens{}", site,
        credentials.numberOfTokens(),
        holdsTokens ? ", the driver's own among them, which YARN will not cancel" : "");
    DataOutputBuffer tokens = new DataOutputBuffer();
    credentials.writeTokenStorageToStream(tokens);
    String logs = ApplicationConstants.LOG_DIR_EXPANSION_VAR;
    String command = String.join(" ",
        Environment.JAVA_HOME.$$() + "/bin/java",
        // The relays' options (a user's system properties among them), then a heap to fit.
        settings.javaOptions(), "-Xmx64m",
        "-Dlog4j.configuration=file:" + logs + "/syslog",
        "-Dlog4j.configuratorClass=" + CONTAINER_LOG_CONFIGURATOR,
        "-Dyarn.app.container.log.dir=" + logs,
        MASTER_CONTAINER_MAIN, handedToken().toString(), heartbeat.path().toString(),
        "1>" + logs + "/stdout", "2>" + logs + "/stderr");
    submission.setUnmanagedAM(false);
    submission.setResource(Resource.newInstance(
        Math.min(MASTER_CONTAINER_MEGABYTES, settings.memoryMegabytes()), 1));
    submission.setAMContainerSpec(ContainerLaunchContext.newInstance(resources,
        Map.of(Environment.CLASSPATH.name(), classPath(configuration),
            RelaySettingsVariable.NAME, relaySettings),
        List.of(command), null, ByteBuffer.wrap(tokens.getData(), 0, tokens.getLength()),
        null));
    yarnClient.submitApplication(submission);
  }

  /**
   * The tokens {@code caller} holds for {@code issuer} and the issuers it names beside itself
   * (an encryption zone's key servers), by their services: only these, not every token the
   * caller holds, since YARN renews each token an application brings and refuses the
   * application if one fails (another cluster's, say).
   */
  private static Credentials heldTokens(DelegationTokenIssuer issuer, UserGroupInformation caller)
      throws IOException {
    Credentials held = caller.getCredentials();
    Credentials tokens = new Credentials();
    List<DelegationTokenIssuer> issuers = new ArrayList<>(List.of(issuer));
    for (int next = 0; next < issuers.size(); next++) {
      DelegationTokenIssuer each = issuers.get(next);
      String service = each.getCanonicalServiceName();
      if (service != null) {
        Token<?> token = held.getToken(new Text(service));
        if (token != null) {
          tokens.addToken(token.getService(), token);
        }
      }
      DelegationTokenIssuer[] more = each.getAdditionalTokenIssuers();
      if (more != null) {
        issuers.addAll(List.of(more));
      }
    }
    return tokens;
  }

  /** Whether an application in {@code state} has ended, whatever the outcome. */
  private static boolean hasEnded(YarnApplicationState state) {
    return state == YarnApplicationState.FAILED || state == YarnApplicationState.KILLED
        || state == YarnApplicationState.FINISHED;
  }

  /** Where the ApplicationMaster container hands its token on: the transfer's staging. */
  private Path handedToken() {
    return new Path(stagingDirectory, "application-master.token");
  }

  /** The token YARN reports for this driver's unmanaged ApplicationMaster. */
  private Token<AMRMTokenIdentifier> reportedToken() throws IOException, YarnException {
    Token<AMRMTokenIdentifier> token = yarnClient.getAMRMToken(applicationId);
    if (token == null) {
      throw withoutApplicationMasterToken(UserGroupInformation.getCurrentUser());
    }
    return token;
  }

  /**
   * The token the ApplicationMaster container handed on, read and removed once it is there;
   * waits for it within the start timeout, while the application runs.
   */
  @SuppressWarnings("unchecked")
  private Token<AMRMTokenIdentifier> awaitHandedToken(SiteStartShutdownHook hook)
      throws IOException, YarnException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(settings.startTimeoutSeconds());
    Path file = handedToken();
    while (!fileSystem.exists(file)) {
      hook.refuseIfShutDown();
      ApplicationReport report = yarnClient.getApplicationReport(applicationId);
      YarnApplicationState state = report.getYarnApplicationState();
      if (hasEnded(state)) {
        throw new RelayCpException(ErrorCode.RELAY_START_FAILED, "the " + site + " relays'"
            + " ApplicationMaster container ended before it handed its token on ("
            + reason(report.getDiagnostics()) + "); see `yarn logs -applicationId "
            + applicationId + "`");
      }
      if (System.nanoTime() > deadline) {
        throw new RelayCpException(ErrorCode.RELAY_START_FAILED, "the " + site + " relays'"
            + " ApplicationMaster container handed no token on within "
            + settings.startTimeoutSeconds() + " s; see `yarn logs -applicationId "
            + applicationId + "` and " + YarnRelaySettings.START_TIMEOUT);
      }
      Thread.sleep(250);
    }
    Credentials handed = new Credentials();
    try (FSDataInputStream in = fileSystem.open(file)) {
      handed.readTokenStorageStream(in);
    }
    fileSystem.delete(file, false);
    for (Token<?> token : handed.getAllTokens()) {
      if (AMRMTokenIdentifier.KIND_NAME.equals(token.getKind())) {
        return (Token<AMRMTokenIdentifier>) token;
      }
    }
    throw new RelayCpException(ErrorCode.RELAY_START_FAILED, "the " + site + " relays'"
        + " ApplicationMaster container handed on no AMRM token in " + file);
  }

  /**
   * Waits until the ResourceManager has launched the attempt (for an unmanaged AM: is ready
   * for it to register), or the JVM shuts down ({@code hook}).
   */
  private void awaitAttemptLaunched(SiteStartShutdownHook hook)
      throws IOException, YarnException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(settings.startTimeoutSeconds());
    while (true) {
      hook.refuseIfShutDown();
      ApplicationReport report = yarnClient.getApplicationReport(applicationId);
      YarnApplicationState state = report.getYarnApplicationState();
      if (hasEnded(state)) {
        Optional<String> refusal = queueRefusal(report.getDiagnostics());
        if (refusal.isPresent()) {
          throw queueRefused(site, settings, refusal.get(), null);
        }
        throw new RelayCpException(ErrorCode.RELAY_START_FAILED, "YARN ended the " + site
            + " relays' application " + applicationId + " before it started ("
            + reason(report.getDiagnostics()) + ")");
      }
      if (report.getCurrentApplicationAttemptId() != null) {
        ApplicationAttemptReport attempt =
            yarnClient.getApplicationAttemptReport(report.getCurrentApplicationAttemptId());
        if (attempt.getYarnApplicationAttemptState() == YarnApplicationAttemptState.LAUNCHED) {
          break;
        }
      }
      if (System.nanoTime() > deadline) {
        throw new RelayCpException(ErrorCode.RELAY_START_FAILED, "the " + site + " cluster's"
            + " ResourceManager did not accept application " + applicationId + " within "
            + settings.startTimeoutSeconds() + " s (state " + state + "); check queue "
            + settings.queue() + " and " + YarnRelaySettings.START_TIMEOUT);
      }
      Thread.sleep(100);
    }
  }

  /**
   * Registers as the application's ApplicationMaster in a user of its own that holds this
   * application's AMRM token, so the two sites' tokens never mix.
   */
  private void registerApplicationMaster(Token<AMRMTokenIdentifier> token)
      throws IOException, YarnException, InterruptedException {
    UserGroupInformation current = UserGroupInformation.getCurrentUser();
    UserGroupInformation master = UserGroupInformation.createRemoteUser(current.getUserName());
    master.addCredentials(current.getCredentials());
    master.addToken(token);
    master.doAs((PrivilegedExceptionAction<Void>) () -> {
      AMRMClient<ContainerRequest> client = AMRMClient.createAMRMClient();
      client.setNMTokenCache(tokens);
      resourceManager = AMRMClientAsync.createAMRMClientAsync(client, HEARTBEAT_MILLIS,
          new ResourceManagerEvents());
      resourceManager.init(configuration);
      resourceManager.start();
      resourceManager.registerApplicationMaster("", 0, "");
      return null;
    });
    nodeManagers = NMClientAsync.createNMClientAsync(new NodeManagerEvents());
    nodeManagers.getClient().setNMTokenCache(tokens);
    // The application's end stops its containers (see end()); the client stopping each one
    // itself on its way out would only repeat that, with a connection to every NodeManager.
    nodeManagers.getClient().cleanupRunningContainersOnStop(false);
    nodeManagers.init(configuration);
    nodeManagers.start();
  }

  /**
   * YARN gave no token for the ApplicationMaster in the driver. It hands an unmanaged
   * ApplicationMaster's token only to a caller whose user name is the application's user,
   * which a Kerberos caller (alice@REALM, against alice) never is; so on a kerberized YARN the
   * ApplicationMaster runs in a container ({@link #submitWithMasterContainer}), and this is for
   * a cluster that refuses it otherwise.
   */
  private RelayCpException withoutApplicationMasterToken(UserGroupInformation caller) {
    String user;
    try {
      user = yarnClient.getApplicationReport(applicationId).getUser();
    } catch (IOException | YarnException | RuntimeException e) {
      user = "?";
    }
    return new RelayCpException(ErrorCode.RELAY_START_FAILED, "the " + site + " cluster's"
        + " ResourceManager gave no token for relaycp's ApplicationMaster in the driver"
        + " (application user " + user + ", driver " + caller.getUserName() + "); if the"
        + " cluster is kerberized, give the driver its configuration"
        + " (hadoop.security.authentication=kerberos)");
  }

  /** Hosts of the site's running NodeManagers. */
  List<String> nodeManagerHosts() {
    try {
      List<String> hosts = new ArrayList<>();
      for (NodeReport node : yarnClient.getNodeReports(NodeState.RUNNING)) {
        hosts.add(node.getNodeId().getHost());
      }
      return hosts;
    } catch (IOException | YarnException e) {
      throw new RelayCpException(ErrorCode.CLUSTER_UNREACHABLE, "asking the " + site
          + " cluster's ResourceManager for its nodes failed: " + firstLine(e.getMessage()), e);
    }
  }

  /**
   * Asks for one relay container on each of {@code hosts}; a null host is any node. A named
   * node is required, not preferred: two relays on one node would share its WAN link, so a
   * node without room leaves its relay unstarted (the copy goes on without it after the
   * start timeout) rather than doubling up elsewhere.
   */
  @Override
  public synchronized void request(List<String> hosts) {
    for (String host : hosts) {
      ContainerRequest request = host == null
          ? new ContainerRequest(capability, null, null, ANY_NODE, true)
          : new ContainerRequest(capability, new String[] {host}, null, NAMED_NODE, false);
      outstanding.add(request);
      resourceManager.addContainerRequest(request);
    }
  }

  /**
   * Relays that announced where they listen, by container, among those still running. An
   * announcement never changes, so the folder is read only while a running container has
   * not been heard from: not on every look once all relays are up.
   */
  @Override
  public Map<String, RelayAddress> announced() {
    if (!announcedAddresses.keySet().containsAll(running.keySet())) {
      try {
        Map<String, String> addresses = announcements.read();
        for (ContainerId container : running.keySet()) {
          String address = addresses.get(container.toString());
          if (address != null) {
            announcedAddresses.putIfAbsent(container, RelayAddress.parse(address));
          }
        }
      } catch (IOException e) {
        LOG.debug("Cannot read the {} relays' announcements", site, e);
      }
    }
    Map<String, RelayAddress> relays = new LinkedHashMap<>();
    for (ContainerId container : running.keySet()) {
      RelayAddress address = announcedAddresses.get(container);
      if (address != null && !lost.contains(container)) {
        relays.put(container.toString(), address);
      }
    }
    return relays;
  }

  /**
   * The running relays that say they are busy with work that outlives the copy (making their
   * node's class-data archive); empty where the folder cannot be read.
   */
  @Override
  public Set<String> busy() {
    Set<String> names;
    try {
      names = announcements.busy();
    } catch (IOException e) {
      LOG.debug("Cannot read which {} relays are busy", site, e);
      return Set.of();
    }
    Set<String> busy = new HashSet<>();
    for (ContainerId container : running.keySet()) {
      if (names.contains(container.toString())) {
        busy.add(container.toString());
      }
    }
    return busy;
  }

  /** Containers that ended before the copy let them go; each is reported once. */
  @Override
  public Set<String> takeLost() {
    Set<ContainerId> taken = Set.copyOf(lost);
    lost.removeAll(taken);
    Set<String> names = new HashSet<>();
    taken.forEach(container -> names.add(container.toString()));
    return names;
  }

  /** Containers launched so far, replacements included. */
  @Override
  public synchronized int launched() {
    return launched;
  }

  /** Relays still to come: requests not yet given a container, and containers not yet heard from. */
  @Override
  public int pending() {
    int silent = 0;
    for (ContainerId container : running.keySet()) {
      if (!announcedAddresses.containsKey(container) && !lost.contains(container)) {
        silent++;
      }
    }
    synchronized (this) {
      return outstanding.size() + silent;
    }
  }

  /**
   * Whether a relay of this site may yet announce itself: containers asked for or not yet
   * heard from, or ended ones not yet looked at for a replacement ({@link #takeLost}).
   */
  @Override
  public boolean mayYetAnnounce() {
    return pending() > 0 || !lost.isEmpty();
  }

  /** Why the site cannot run relays, or null. */
  @Override
  public RelayCpException failure() {
    return failure;
  }

  /** How the last relay container that ended before its time ended, or null if none did. */
  @Override
  public String lastContainerEnd() {
    return lastEnd;
  }

  /** A container's end for a message: its exit status, then {@link #reason}. */
  static String containerEnd(int exitStatus, String diagnostics) {
    String reason = reason(diagnostics);
    return "exit " + exitStatus + (reason.isEmpty() ? "" : ": " + reason);
  }

  /**
   * Why YARN's {@code diagnostics} say a container ended, for a message: what its JVM wrote to
   * stderr where they quote it (a NodeManager quotes the tail of a failed container's stderr:
   * an unknown JVM option, a Java too old for the jar, an exception in main), its first two
   * lines that are not a logger's notice or a stack frame; else their first line; empty for
   * none.
   */
  static String reason(String diagnostics) {
    String said = diagnostics == null ? "" : diagnostics;
    Matcher quoted = STDERR_TAIL.matcher(said);
    int from = -1;
    while (quoted.find()) {
      from = quoted.end();
    }
    if (from < 0) {
      return said.isBlank() ? "" : firstLine(said);
    }
    return said.substring(from).lines().map(String::strip)
        .filter(line -> !line.isEmpty() && !line.startsWith("log4j:")
            && !line.startsWith("SLF4J:") && !line.startsWith("at "))
        .limit(2).collect(Collectors.joining("; "));
  }

  /**
   * Moves the heartbeat forward; false if the site's file system could not be reached. A beat
   * cut off by an interrupt (the relays closing) is not a failure worth a warning.
   */
  @Override
  public boolean beat() {
    try {
      heartbeat.beat();
      return true;
    } catch (IOException e) {
      if (e instanceof InterruptedIOException || Thread.currentThread().isInterrupted()) {
        LOG.debug("The {} relays' heartbeat was interrupted: {}", site, e.getMessage());
        return false;
      }
      LOG.warn("Cannot move the {} relays' heartbeat {}: {}", site, heartbeat.path(),
          firstLine(e.getMessage()));
      return false;
    }
  }

  @Override
  public String site() {
    return site;
  }

  /** The site's default file system, where its relays are staged. */
  FileSystem fileSystem() {
    return fileSystem;
  }

  @Override
  public Optional<String> applicationId() {
    return Optional.of(applicationId.toString());
  }

  @Override
  public Optional<String> stagingFolder() {
    return Optional.of(stagingDirectory.toString());
  }

  /**
   * How a relay container starts: the product jar and the cluster's own Hadoop on the class
   * path; the secret in the container's credentials, with this process's TLS key and
   * certificate where the relays run TLS; the relays' settings in an environment variable
   * ({@link RelaySettingsVariable}); the announcement folder
   * and the heartbeat file as the two arguments of {@link #RELAY_CONTAINER_MAIN}; its log in
   * the container's {@code syslog}, through {@link #CONTAINER_LOG_CONFIGURATOR}; and, unless
   * turned off, the node's class-data archive and native libraries ({@link ClassDataArchive}).
   */
  private ContainerLaunchContext launchContext() {
    String logs = ApplicationConstants.LOG_DIR_EXPANSION_VAR;
    String command = String.join(" ",
        settings.classDataArchive() ? ClassDataArchive.libraryPathAssignment(jarHash) : "",
        Environment.JAVA_HOME.$$() + "/bin/java",
        settings.classDataArchive() ? ClassDataArchive.javaOptions(jarHash) : "",
        settings.javaOptions(),
        "-Dlog4j.configuration=file:" + logs + "/syslog",
        "-Dlog4j.configuratorClass=" + CONTAINER_LOG_CONFIGURATOR,
        "-Dyarn.app.container.log.dir=" + logs,
        RELAY_CONTAINER_MAIN,
        announcements.directory().toString(),
        heartbeat.path().toString(),
        "1>" + logs + "/stdout", "2>" + logs + "/stderr");
    return ContainerLaunchContext.newInstance(resources,
        Map.of(Environment.CLASSPATH.name(), classPath(configuration),
            RelaySettingsVariable.NAME, relaySettings),
        List.of(command), null, ContainerSecret.credentialsWith(secret,
            relaysRunTls ? RelayTls.identityToShare() : Optional.empty(),
            siteTokens.tokenBytes()), null);
  }

  /**
   * A relay container's class path: the relay jar, the cluster's jars ({@code
   * yarn.application.classpath}'s entries that name jars or folders of jars), then its other
   * entries (the configuration folder) and the container's folder. Jars come first because a
   * class-data archive holds only classes of the jars that lead the class path; a folder holds
   * the site's XML files, which no Hadoop jar has, so their order does not change what is read.
   */
  static String classPath(Configuration configuration) {
    List<String> jars = new ArrayList<>();
    List<String> others = new ArrayList<>();
    jars.add(Environment.PWD.$$() + "/" + JAR);
    for (String entry : configuration.getTrimmedStrings(
        YarnConfiguration.YARN_APPLICATION_CLASSPATH,
        YarnConfiguration.DEFAULT_YARN_CROSS_PLATFORM_APPLICATION_CLASSPATH)) {
      (entry.endsWith("*") || entry.endsWith(".jar") ? jars : others).add(entry);
    }
    others.add(Environment.PWD.$$());
    jars.addAll(others);
    return String.join(ApplicationConstants.CLASS_PATH_SEPARATOR, jars);
  }

  /** The relays' settings: the user's -D options and the driver timeout. */
  private static String encodeRelaySettings(YarnRelaySettings settings) {
    Map<String, String> properties = new LinkedHashMap<>(settings.relayProperties());
    properties.put(YarnRelaySettings.DRIVER_TIMEOUT,
        Long.toString(settings.driverTimeoutSeconds()));
    return RelaySettingsVariable.encode(properties);
  }

  /**
   * Removes the staging folder, whose heartbeat going away tells any relay still running to
   * stop, then unregisters the ApplicationMaster (which ends the application, and the
   * ResourceManager has the NodeManagers stop its containers), kills the application if that
   * failed, and only if the ResourceManager took neither asks each NodeManager itself to stop
   * the relay it runs. Safe to call more than once: a call made while another thread closes
   * returns once that close has ended.
   *
   * <p>The folder goes first: it is one call to the file system, while the ResourceManager's
   * calls can take seconds on a loaded cluster, and a shutdown hook that runs out of time
   * must not leave the relay jar and the secret behind. Where the ApplicationMaster runs in a
   * container (kerberized YARN) it goes after the unregistration instead: that container
   * leaves once the heartbeat is gone, and the attempt would fail with it before the
   * application was unregistered. The containers are not stopped one by
   * one as well: that is a connection to every NodeManager, made while the copy verifies its
   * files on the same nodes, for what the application's end does anyway.
   */
  @Override
  public void close() {
    synchronized (closeLock) {
      synchronized (this) {
        if (closing) {
          return;
        }
        closing = true;
      }
      // A copy that failed or was stopped while its relays started closes from the thread it
      // interrupted: every call to the ResourceManager would fail at once, and the
      // application would run until its ApplicationMaster's liveness expired.
      Uninterrupted.run(this::end);
    }
  }

  private void end() {
    // An ApplicationMaster container (kerberized YARN) leaves once the heartbeat is gone, and
    // the application's attempt would fail with it were it not unregistered by then: so there
    // the folder goes after the unregistration.
    if (!masterInContainer) {
      deleteQuietly(fileSystem, stagingDirectory);
    }
    // Whether the ResourceManager took the application's end (unregistered or killed), and
    // with it the stopping of its containers.
    boolean ended = false;
    if (resourceManager != null) {
      try {
        resourceManager.unregisterApplicationMaster(
            failure == null ? FinalApplicationStatus.SUCCEEDED : FinalApplicationStatus.FAILED,
            failure == null ? "relaycp copy ended" : failure.getMessage(), "");
        ended = true;
      } catch (IOException | YarnException | RuntimeException e) {
        LOG.warn("Cannot unregister the {} relays' application {}: {}", site, applicationId,
            firstLine(e.getMessage()));
      }
      resourceManager.stop();
    }
    if (masterInContainer) {
      deleteQuietly(fileSystem, stagingDirectory);
    }
    if (!ended) {
      try {
        yarnClient.killApplication(applicationId);
        ended = true;
      } catch (IOException | YarnException | RuntimeException e) {
        LOG.warn("Cannot kill the {} relays' application {}: {}", site, applicationId,
            firstLine(e.getMessage()));
      }
    }
    if (nodeManagers != null) {
      if (!ended) {
        for (Container container : running.values()) {
          try {
            nodeManagers.getClient().stopContainer(container.getId(), container.getNodeId());
          } catch (IOException | YarnException | RuntimeException e) {
            LOG.warn("Cannot stop the {} relay container {}: {}", site, container.getId(),
                firstLine(e.getMessage()));
          }
        }
      }
      nodeManagers.stop();
    }
    yarnClient.stop();
    siteTokens.close();
    LOG.info("{} site: application {} ended, {} relays launched", site, applicationId, launched);
  }

  private static void deleteQuietly(FileSystem fileSystem, Path path) {
    Uninterrupted.run(
        () -> BestEffortDelete.delete(fileSystem, path, true, "the relay staging folder"));
  }

  /** Launches what the ResourceManager allocates, and notes relays that end. */
  private final class ResourceManagerEvents extends AMRMClientAsync.AbstractCallbackHandler {
    @Override
    public void onContainersAllocated(List<Container> containers) {
      for (Container container : containers) {
        boolean wanted;
        synchronized (YarnSite.this) {
          wanted = !closing && !outstanding.isEmpty();
          if (wanted) {
            ContainerRequest request = matching(container);
            outstanding.remove(request);
            resourceManager.removeContainerRequest(request);
            launched++;
            running.put(container.getId(), container);
          }
        }
        if (wanted) {
          LOG.info("{} site: starting relay container {} on {}", site, container.getId(),
              container.getNodeId().getHost());
          nodeManagers.startContainerAsync(container, launchContext());
        } else {
          resourceManager.releaseAssignedContainer(container.getId());
        }
      }
    }

    /**
     * The request this container satisfies: of its priority, one for its host if any, else
     * the oldest.
     */
    private ContainerRequest matching(Container container) {
      String host = container.getNodeId().getHost();
      ContainerRequest oldest = null;
      for (ContainerRequest request : outstanding) {
        if (!request.getPriority().equals(container.getPriority())) {
          continue;
        }
        if (request.getNodes() != null && request.getNodes().contains(host)) {
          return request;
        }
        if (oldest == null) {
          oldest = request;
        }
      }
      return oldest != null ? oldest : outstanding.get(0);
    }

    @Override
    public void onContainersCompleted(List<ContainerStatus> statuses) {
      for (ContainerStatus status : statuses) {
        // Lost before it leaves the running ones, so that one looking at both never sees a
        // container in neither (pending() then 0 with a replacement yet to be asked for).
        if (running.containsKey(status.getContainerId()) && !closing) {
          lastEnd = containerEnd(status.getExitStatus(), status.getDiagnostics());
          LOG.warn("{} site: relay container {} ended ({})", site, status.getContainerId(),
              lastEnd);
          lost.add(status.getContainerId());
        }
        running.remove(status.getContainerId());
      }
    }

    @Override
    public void onContainersUpdated(List<UpdatedContainer> containers) {}

    @Override
    public void onShutdownRequest() {
      failure = new RelayCpException(ErrorCode.RELAY_START_FAILED, "the " + site + " cluster's"
          + " ResourceManager asked the relays' application to shut down");
      LOG.warn(failure.getMessage());
    }

    @Override
    public void onNodesUpdated(List<NodeReport> updatedNodes) {}

    @Override
    public float getProgress() {
      return 0;
    }

    @Override
    public void onError(Throwable e) {
      if (e instanceof InvalidResourceRequestException) {
        // A request the scheduler can never grant (larger than its largest container, say):
        // the settings', which no retry mends.
        failure = new RelayCpException(ErrorCode.INVALID_ARGUMENT, "the " + site + " cluster's"
            + " ResourceManager refused the relay containers asked for: "
            + firstLine(e.getMessage()) + "; ask for what it allows with "
            + YarnRelaySettings.MEMORY_MB + " (and the heap in " + YarnRelaySettings.JAVA_OPTS
            + ") and " + YarnRelaySettings.VCORES, e);
        LOG.warn(failure.getMessage());
        return;
      }
      failure = new RelayCpException(ErrorCode.RELAY_START_FAILED, "the " + site + " cluster's"
          + " ResourceManager failed: " + firstLine(e.getMessage()), e);
      LOG.warn(failure.getMessage(), e);
    }
  }

  /** A container that cannot be started counts as lost. */
  private final class NodeManagerEvents extends NMClientAsync.AbstractCallbackHandler {
    @Override
    public void onContainerStarted(ContainerId containerId, Map<String, ByteBuffer> data) {}

    @Override
    public void onContainerStatusReceived(ContainerId containerId, ContainerStatus status) {}

    @Override
    public void onContainerStopped(ContainerId containerId) {}

    @Override
    public void onStartContainerError(ContainerId containerId, Throwable t) {
      if (running.containsKey(containerId) && !closing) {
        lastEnd = "not started: " + firstLine(t.getMessage());
        LOG.warn("{} site: relay container {} did not start", site, containerId, t);
        lost.add(containerId);
      }
      running.remove(containerId);
    }

    @Override
    public void onContainerResourceIncreased(ContainerId containerId, Resource resource) {}

    @Override
    public void onContainerResourceUpdated(ContainerId containerId, Resource resource) {}

    @Override
    public void onGetContainerStatusError(ContainerId containerId, Throwable t) {}

    @Override
    public void onIncreaseContainerResourceError(ContainerId containerId, Throwable t) {}

    @Override
    public void onUpdateContainerResourceError(ContainerId containerId, Throwable t) {}

    @Override
    public void onStopContainerError(ContainerId containerId, Throwable t) {}
  }
}
