package dev.relaycp.config;

import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;

/**
 * Every {@code relaycp.*} setting with its default and bounds, as Hadoop's DFSConfigKeys holds
 * HDFS's: the one place a key is named. {@code relaycp-default.xml} in the jar documents each
 * key with the same default (a test holds them equal) and is loaded before the user's {@code
 * relaycp-site.xml} (see {@link #addDefaultResources}). Relays and the copy that starts them
 * read the relay settings alike. The aws spawn backend's keys, which a site may override one by
 * one ({@code relaycp.spawn.aws.src.region}), are named in {@code provision.spawn.Ec2Settings}
 * and documented in the same resource.
 */
public final class RelayKeys {
  /** Source blocks per chunk, the unit a route sends and the destination writes as one part. */
  public static final WholeNumberSetting COPY_BLOCKS_PER_CHUNK =
      new WholeNumberSetting("relaycp.copy.blocks-per-chunk", 1, 1);
  /** Chunks a route may have ordered from its reader relay and not yet seen done. */
  public static final WholeNumberSetting COPY_CHUNKS_IN_FLIGHT_PER_ROUTE =
      new WholeNumberSetting("relaycp.copy.chunks-in-flight-per-route", 32, 1);
  /**
   * Bytes of chunks a route may have outstanding before it takes another. A chunk counts until
   * its writer has closed it, so while the last bytes of one drain into the destination's
   * pipeline the route streams only its others: with two 32 MiB chunks (64 MiB) a writer's
   * routes all in that state took nothing from the WAN for seconds; four (128 MiB) kept the
   * destination's links fuller, 0.88-0.90 of the flow limit against 0.83
   * (bench/results/lab-2026-12-03-route-window-ab/).
   */
  public static final SizeSetting COPY_BYTES_IN_FLIGHT_PER_ROUTE =
      new SizeSetting("relaycp.copy.bytes-in-flight-per-route", 128L << 20, 1);
  /** Times one chunk may be sent before the copy fails. */
  public static final WholeNumberSetting COPY_MAX_SENDS_PER_CHUNK =
      new WholeNumberSetting("relaycp.copy.max-sends-per-chunk", 8, 1, 16);
  /** Checksum comparisons, and then commits, run at once after the copy. */
  public static final WholeNumberSetting COPY_VERIFICATION_THREADS =
      new WholeNumberSetting("relaycp.copy.verification-threads", 16, 1);
  /**
   * Seconds between a copy's staging heartbeats; a later run of the same copy takes up a
   * staging whose heartbeat has been still three times this long.
   */
  public static final WholeNumberSetting COPY_STAGING_HEARTBEAT_SECONDS =
      new WholeNumberSetting("relaycp.copy.staging-heartbeat-seconds", 10, 1, 3600);
  /**
   * Seconds a route may hold chunks and answer none before it is dropped (longer where its
   * chunks in flight would take longer at its rate).
   */
  public static final WholeNumberSetting COPY_STALL_SECONDS =
      new WholeNumberSetting("relaycp.copy.stall-seconds", 120, 5, 86_400);
  /**
   * Whether the relays compress each DATA frame on the relay hop (Snappy), sending compressed
   * only the frames that shrink.
   */
  public static final FlagSetting COPY_COMPRESS = new FlagSetting("relaycp.copy.compress", false);
  /**
   * Whether the writer relays ask the destination for the checksum of each file they write
   * whole and return it, so that the driver need not ask across the WAN for every file.
   */
  public static final FlagSetting COPY_STORED_CHECKSUMS =
      new FlagSetting("relaycp.copy.stored-checksums", true);
  /**
   * Whether writer relays of the driver's build give each file they write whole its source's
   * times, so that the commit need not set them from the driver, across the WAN, for every
   * file.
   */
  public static final FlagSetting COPY_WRITER_TIMES =
      new FlagSetting("relaycp.copy.writer-times", true);
  /**
   * Whether the running relays a copy is given (--relays, --dst-relays) run the driver's own
   * build, so that its orders to them may carry what only this build reads (each file's times
   * for its writer). Relays relaycp starts itself always do.
   */
  public static final FlagSetting COPY_RUNNING_RELAYS_SAME_BUILD =
      new FlagSetting("relaycp.copy.running-relays-same-build", false);
  /** Seconds a route keeps trying a reader relay that refuses connections. */
  public static final WholeNumberSetting COPY_RELAY_WAIT_SECONDS =
      new WholeNumberSetting("relaycp.copy.relay-wait-seconds", 10, 0);
  /** With copy --pairs auto: the most relay pairs the planner may choose. */
  public static final WholeNumberSetting COPY_MAX_AUTO_PAIRS =
      new WholeNumberSetting("relaycp.copy.max-auto-pairs", 8, 1);

  /** The throughput history file; empty for the default under the user's config folder. */
  public static final TextSetting HISTORY_FILE = new TextSetting("relaycp.history.file", "");
  /** Whether copy and probe record the rates they measured. */
  public static final FlagSetting HISTORY_ENABLED =
      new FlagSetting("relaycp.history.enabled", true);

  /**
   * The most bytes per second a relay sends to writer relays, over all its connections
   * together; 0 for no limit.
   */
  public static final SizeSetting BYTES_PER_SECOND_LIMIT =
      new SizeSetting("relaycp.relay.bytes-per-second-limit", 0, 0);
  /** Payload bytes of each DATA frame. */
  public static final WholeNumberSetting DATA_FRAME_BYTES =
      new WholeNumberSetting("relaycp.relay.data-frame-bytes", 256 * 1024, 1, 1 << 20);
  /** Chunks a reader relay streams at once for one driver. */
  public static final WholeNumberSetting PARALLEL_STREAMS =
      new WholeNumberSetting("relaycp.relay.parallel-streams", 16, 1, 1024);
  /**
   * Whether relay connections run in TLS (both ends authenticated by the transfer's secret
   * bound to the connection); every relay and driver of a transfer must agree.
   */
  public static final FlagSetting RELAY_TLS = new FlagSetting("relaycp.relay.tls", true);
  /**
   * The ports a relay that picks its own (YARN's, a pool's, {@code relay --port 0}) may listen
   * on, as FIRST-LAST; empty for any free port.
   */
  public static final TextSetting RELAY_PORT_RANGE =
      new TextSetting("relaycp.relay.port-range", "");
  /** Seconds a peer may send nothing, not even a keep-alive, before it is taken for dead. */
  public static final WholeNumberSetting SILENCE_TIMEOUT_SECONDS =
      new WholeNumberSetting("relaycp.relay.silence-timeout-seconds", 30, 3, 86_400);
  /**
   * Seconds a relay gives a new connection to finish TLS and prove the secret: twice what a
   * driver's attempt waits, so that on a busy host the driver's attempt runs out first and is
   * tried again, rather than the relay closing it, which the driver must take for a refusal.
   */
  public static final WholeNumberSetting HANDSHAKE_TIMEOUT_SECONDS =
      new WholeNumberSetting("relaycp.relay.handshake-timeout-seconds", 60, 1, 3_600);
  /**
   * Seconds a relay started for one copy outlives its driver's last heartbeat. At most an
   * hour, so that a heartbeat still for a day is surely a dead driver's
   * (StaleStagingFolders).
   */
  public static final WholeNumberSetting DRIVER_TIMEOUT_SECONDS =
      new WholeNumberSetting("relaycp.relay.driver-timeout-seconds", 60, 1, 3_600);
  /**
   * A relay container's JVM options. The serial collector: a relay's heap is small (its bytes
   * are in Netty's direct buffers) and its container asks for one vcore, and under G1 a relay
   * of small files spent 13-28% more CPU. C1 alone, compiling a method after half its usual
   * count of calls: a container lives for one copy, and under the tiered JIT the relays of
   * 5,000 small files spent 1.82x the CPU and those of 2 GiB of large files 1.47x, neither copy
   * faster; a large file's bytes go through BoringSSL, CRC32C and native copies, which C2 does
   * not speed up.
   */
  public static final TextSetting RELAY_JAVA_OPTS = new TextSetting("relaycp.relay.java-opts",
      "-Xmx768m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:CompileThresholdScaling=0.5");

  /** The YARN queue of the relays' applications. */
  public static final TextSetting YARN_QUEUE = new TextSetting("relaycp.yarn.queue", "default");
  /** Memory of each relay container, in MiB. */
  public static final WholeNumberSetting YARN_RELAY_MEMORY_MB =
      new WholeNumberSetting("relaycp.yarn.relay-memory-mb", 1024, 1, Integer.MAX_VALUE);
  /** Virtual cores of each relay container. */
  public static final WholeNumberSetting YARN_RELAY_VCORES =
      new WholeNumberSetting("relaycp.yarn.relay-vcores", 1, 1, Integer.MAX_VALUE);
  /** Where on each cluster's default file system a copy's jar and announcements are staged. */
  public static final TextSetting YARN_STAGING_DIR =
      new TextSetting("relaycp.yarn.staging-dir", "/tmp/relaycp-staging");
  /** Seconds the driver waits for the relay containers to announce themselves. */
  public static final WholeNumberSetting YARN_START_TIMEOUT_SECONDS =
      new WholeNumberSetting("relaycp.yarn.start-timeout-seconds", 180, 1, Integer.MAX_VALUE);
  /** Relay containers that die which may be replaced on each site within any hour. */
  public static final WholeNumberSetting YARN_REPLACEMENTS_PER_SITE =
      new WholeNumberSetting("relaycp.yarn.replacements-per-site", 4, 0, Integer.MAX_VALUE);
  /** The product jar shipped to relay containers; empty for the jar relaycp runs from. */
  public static final TextSetting YARN_JAR = new TextSetting("relaycp.yarn.jar", "");
  /** Whether relay containers start from a class-data archive kept on their node. */
  public static final FlagSetting YARN_CLASS_DATA_ARCHIVE =
      new FlagSetting("relaycp.yarn.class-data-archive", true);
  /**
   * Seconds a copy that succeeded keeps, after its last byte, the relay containers still making
   * their node's class-data archive; 0 ends them with the others.
   */
  public static final WholeNumberSetting YARN_CLASS_DATA_WAIT_SECONDS =
      new WholeNumberSetting("relaycp.yarn.class-data-wait-seconds", 30, 0, 3600);

  /** Bytes each spawned pair sends in the pre-test that picks the fastest pairs. */
  public static final SizeSetting SPAWN_PRETEST_BYTES =
      new SizeSetting("relaycp.spawn.pretest-bytes", 16L << 20, 1);
  /** Seconds a host the exec spawn backend starts takes to boot, for the planner. */
  public static final DecimalSetting SPAWN_BOOT_SECONDS =
      new DecimalSetting("relaycp.spawn.boot-seconds", 90, 0);
  /** Dollars an hour of a spawned host whose type the relay catalog does not price. */
  public static final DecimalSetting SPAWN_DOLLARS_PER_HOUR =
      new DecimalSetting("relaycp.spawn.dollars-per-hour", 0.0464, 0);
  /** Dollars per GiB leaving the source's cloud. */
  public static final DecimalSetting COST_EGRESS_DOLLARS_PER_GIB =
      new DecimalSetting("relaycp.cost.egress-dollars-per-gib", 0.02, 0);

  /** The resource in the jar that documents every key with its default. */
  public static final String DEFAULT_RESOURCE = "relaycp-default.xml";
  /** The user's overrides, found on the class path (e.g. in conf/). */
  public static final String SITE_RESOURCE = "relaycp-site.xml";

  private RelayKeys() {}

  /**
   * Makes every {@link Configuration} created after this read {@value #DEFAULT_RESOURCE} and
   * then {@value #SITE_RESOURCE}, so the site's values override the defaults.
   */
  public static void addDefaultResources() {
    Configuration.addDefaultResource(DEFAULT_RESOURCE);
    Configuration.addDefaultResource(SITE_RESOURCE);
  }

  /**
   * Whether {@code key} was set by anything but a file of defaults (Hadoop's
   * {@code *-default.xml}, {@value #DEFAULT_RESOURCE}): a site file, -D, code. A value that
   * is only a default is not the user's choice, so code that picks its own for a purpose (the
   * demo's small containers, say) may replace it.
   */
  public static boolean isChosen(Configuration configuration, String key) {
    String[] sources = configuration.getPropertySources(key);
    return sources != null
        && Arrays.stream(sources).anyMatch(source -> !source.endsWith("-default.xml"));
  }
}
