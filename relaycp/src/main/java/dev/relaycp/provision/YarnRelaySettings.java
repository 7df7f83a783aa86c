package dev.relaycp.provision;

import static java.util.Objects.requireNonNull;

import dev.relaycp.config.RelayKeys;
import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.relay.PortRange;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;

/**
 * How relays run as YARN containers. Every key and default is here, read once from the
 * driver's configuration by {@link #from}.
 *
 * @param queue the YARN queue of the relays' application
 * @param memoryMegabytes each relay container's memory
 * @param virtualCores each relay container's virtual cores
 * @param javaOptions the relay JVM's options, with a heap that fits its container ({@link
 *     #withHeapWithin})
 * @param stagingDirectory where on each cluster's default file system the jar, the secret and
 *     the relay configuration are staged, below a folder per user and per transfer
 * @param driverTimeoutSeconds how long a relay keeps running without a heartbeat
 * @param startTimeoutSeconds how long the driver waits for requested relays to announce
 *     themselves
 * @param replacementsPerSite how many lost relays may be replaced on each site within any hour
 *     (a copy's or a relay pool's)
 * @param jar the product jar to ship; empty for the jar relaycp runs from
 * @param classDataArchive whether relay containers start from, and keep, a class-data archive
 *     on their node ({@link ClassDataArchive})
 * @param classDataWaitSeconds how long after its last byte a copy that succeeded keeps the
 *     relays still making their node's archive, which YARN would otherwise stop mid-way
 * @param relayProperties Hadoop and relaycp properties the relays run with (the -D options)
 */
public record YarnRelaySettings(
    String queue,
    int memoryMegabytes,
    int virtualCores,
    String javaOptions,
    String stagingDirectory,
    long driverTimeoutSeconds,
    long startTimeoutSeconds,
    int replacementsPerSite,
    Optional<String> jar,
    boolean classDataArchive,
    long classDataWaitSeconds,
    Map<String, String> relayProperties) {

  public static final String QUEUE = RelayKeys.YARN_QUEUE.key();
  public static final String MEMORY_MB = RelayKeys.YARN_RELAY_MEMORY_MB.key();
  public static final String VCORES = RelayKeys.YARN_RELAY_VCORES.key();
  public static final String JAVA_OPTS = RelayKeys.RELAY_JAVA_OPTS.key();
  public static final String STAGING_DIR = RelayKeys.YARN_STAGING_DIR.key();
  public static final String DRIVER_TIMEOUT = RelayKeys.DRIVER_TIMEOUT_SECONDS.key();
  public static final String START_TIMEOUT = RelayKeys.YARN_START_TIMEOUT_SECONDS.key();
  public static final String REPLACEMENTS = RelayKeys.YARN_REPLACEMENTS_PER_SITE.key();
  public static final String JAR = RelayKeys.YARN_JAR.key();
  public static final String CLASS_DATA_ARCHIVE = RelayKeys.YARN_CLASS_DATA_ARCHIVE.key();
  public static final String CLASS_DATA_WAIT = RelayKeys.YARN_CLASS_DATA_WAIT_SECONDS.key();
  public static final long DEFAULT_DRIVER_TIMEOUT_SECONDS =
      RelayKeys.DRIVER_TIMEOUT_SECONDS.defaultValue();
  /**
   * How long a copy that lost a route waits to hear from YARN that a relay of it ended. The
   * copy sees a relay die on its connection at once; YARN reports the container's end at the
   * NodeManager's next heartbeat (a second by default) and the ApplicationMaster's next
   * allocate call after it, and only then can a replacement be asked for. Half a minute leaves
   * a busy ResourceManager room and bounds the wait where no relay ended (a route dropped for
   * a stall, both relays still running).
   */
  public static final Duration LOSS_REPORT = Duration.ofSeconds(30);
  /**
   * A relay container's JVM options unless {@link #JAVA_OPTS} is set: see {@link
   * RelayKeys#RELAY_JAVA_OPTS}.
   */
  public static final String DEFAULT_JAVA_OPTS = RelayKeys.RELAY_JAVA_OPTS.defaultValue();
  /**
   * The share of a relay container's memory its JVM's heap may take, as MapReduce gives a
   * task's ({@code mapreduce.job.heap.memory-mb.ratio}): the rest is the JVM's own (classes,
   * compiled code, threads) and Netty's direct buffers, outside the heap but inside what a
   * NodeManager measures, and one that finds a container above its memory stops it.
   */
  public static final double HEAP_SHARE = 0.8;
  private static final Pattern HEAP_OPTION =
      Pattern.compile("(?:-Xmx|-XX:MaxHeapSize=)(\\d+)([kKmMgGtT]?)");

  public YarnRelaySettings {
    requireNonNull(queue, "queue is null");
    requireNonNull(javaOptions, "javaOptions is null");
    requireNonNull(stagingDirectory, "stagingDirectory is null");
    requireNonNull(jar, "jar is null");
    relayProperties = Map.copyOf(requireNonNull(relayProperties, "relayProperties is null"));
  }

  /** The settings in {@code configuration}; a bad value is a user error naming its key. */
  public static YarnRelaySettings from(Configuration configuration,
      Map<String, String> relayProperties) {
    requireNonNull(configuration, "configuration is null");
    int memory = positive(configuration, MEMORY_MB, 1024);
    int cores = positive(configuration, VCORES, 1);
    long driverTimeout = RelayKeys.DRIVER_TIMEOUT_SECONDS.from(configuration);
    long startTimeout = positive(configuration, START_TIMEOUT, 180);
    int replacements = configuration.getInt(REPLACEMENTS, 4);
    if (replacements < 0) {
      throw invalid(REPLACEMENTS, "must not be negative", replacements);
    }
    String queue = configuration.getTrimmed(QUEUE, "default");
    if (queue.isEmpty()) {
      throw invalid(QUEUE, "must name a queue", "''");
    }
    String jar = configuration.getTrimmed(JAR, "");
    // Read by each relay as it binds; checked here so a bad range fails before anything starts.
    PortRange.from(configuration);
    return new YarnRelaySettings(queue, memory, cores,
        withHeapWithin(memory, configuration.getTrimmed(JAVA_OPTS, DEFAULT_JAVA_OPTS)),
        stagingDirectory(configuration),
        driverTimeout, startTimeout, replacements,
        jar.isEmpty() ? Optional.empty() : Optional.of(jar),
        RelayKeys.YARN_CLASS_DATA_ARCHIVE.from(configuration),
        RelayKeys.YARN_CLASS_DATA_WAIT_SECONDS.from(configuration), relayProperties);
  }

  /** The folder {@code configuration} names for relay staging ({@link #STAGING_DIR}). */
  static String stagingDirectory(Configuration configuration) {
    return RelayKeys.YARN_STAGING_DIR.from(configuration);
  }

  /**
   * {@code javaOptions} with a heap that fits a container of {@code memoryMegabytes}: as given
   * where its heap ({@code -Xmx}, the last one) is at most {@link #HEAP_SHARE} of it; with that
   * share as {@code -Xmx} first where it gives none and does not size the heap from memory
   * ({@code -XX:MaxRAMPercentage}; a JVM's own default is a quarter of the node's memory, far
   * more than a container's); refused where its heap is larger, since the
   * NodeManager would stop such a relay once its heap grew in the middle of a copy.
   */
  static String withHeapWithin(int memoryMegabytes, String javaOptions) {
    long allowedMegabytes = (long) Math.floor(memoryMegabytes * HEAP_SHARE);
    String heapOption = null;
    long heapBytes = 0;
    for (String option : JavaProcess.options(javaOptions)) {
      if (option.startsWith("-Xmx") || option.startsWith("-XX:MaxHeapSize=")) {
        Matcher size = HEAP_OPTION.matcher(option);
        if (!size.matches()) {
          throw invalid(JAVA_OPTS, "gives a heap that is not a size (as -Xmx768m)", option);
        }
        heapOption = option;
        heapBytes = Long.parseLong(size.group(1)) << shift(size.group(2));
      }
    }
    if (heapOption == null) {
      // A heap sized from the memory the JVM sees (-XX:MaxRAMPercentage and the like) is the
      // user's own way, which YARN's cgroups make the container's: -Xmx would override it.
      boolean sizedFromMemory = JavaProcess.options(javaOptions).stream()
          .anyMatch(option -> option.startsWith("-XX:MaxRAM"));
      return sizedFromMemory ? javaOptions
          : ("-Xmx" + allowedMegabytes + "m " + javaOptions).trim();
    }
    long heapMegabytes = (heapBytes + (1 << 20) - 1) >> 20;
    if (heapMegabytes > allowedMegabytes) {
      long needed = (long) Math.ceil(heapMegabytes / HEAP_SHARE);
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, JAVA_OPTS + " gives each relay a"
          + " heap of " + heapMegabytes + " MiB (" + heapOption + "), more than "
          + Math.round(HEAP_SHARE * 100) + "% of its container's " + memoryMegabytes + " MiB ("
          + MEMORY_MB + "), and YARN stops a container that outgrows its memory; set "
          + MEMORY_MB + " to " + needed + " or more, or give a smaller -Xmx, in"
          + " relaycp-site.xml or by -D");
    }
    return javaOptions;
  }

  private static int shift(String unit) {
    return switch (unit.toLowerCase(Locale.ROOT)) {
      case "k" -> 10;
      case "m" -> 20;
      case "g" -> 30;
      case "t" -> 40;
      default -> 0;
    };
  }

  private static int positive(Configuration configuration, String key, int fallback) {
    int value;
    try {
      value = configuration.getInt(key, fallback);
    } catch (NumberFormatException e) {
      throw invalid(key, "must be a whole number", configuration.get(key));
    }
    if (value < 1) {
      throw invalid(key, "must be 1 or more", value);
    }
    return value;
  }

  private static RelayCpException invalid(String key, String rule, Object value) {
    return new RelayCpException(ErrorCode.INVALID_ARGUMENT,
        key + " " + rule + ", got " + value + "; fix it in relaycp-site.xml or -D");
  }

  /**
   * How long a copy that lost routes waits for relays in their place: YARN's report of the
   * loss, then the replacement's start.
   */
  public Duration replacementWait() {
    return LOSS_REPORT.plusSeconds(startTimeoutSeconds);
  }
}
