package dev.relaycp.provision;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.fs.ReplacedFile;
import dev.relaycp.relay.RelayAddress;
import dev.relaycp.relay.TransferSecret;
import dev.relaycp.transfer.Route;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.hadoop.security.AccessControlException;

/**
 * YARN relays kept running for a series of copies ({@code relaycp relay-pool}), as its pool
 * file describes them to the copies that use it ({@code relaycp copy --relay-pool FILE}): the
 * routes of its live relays, the transfer secret they share, the hash of the relay jar they run
 * (a copy whose own relay jar has it knows they run its build), and both sites' applications
 * and staging folders (what {@link RelayPoolStop} ends and removes where the pool did not).
 *
 * <p>The file holds the secret, so it is readable by its owner only from the moment it exists,
 * and it is replaced whole (a new file moved over the old one), so a copy never reads half of
 * it. The pool writes it again at least every {@link #REFRESH}: a file older than {@link
 * #STALE} belongs to a pool that no longer runs (killed, or its machine gone), whose relays
 * stop themselves once its heartbeat is still.
 */
public final class RelayPool {
  /** How often a running pool writes its file again, changed or not. */
  public static final Duration REFRESH = Duration.ofSeconds(10);
  /** How old a pool file may be before its pool counts as gone. */
  public static final Duration STALE = Duration.ofSeconds(45);
  private static final int FORMAT = 1;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final List<Route> routes;
  private final TransferSecret secret;
  private final String relayJarHash;
  private final Map<String, String> applications;
  private final Map<String, String> stagingFolders;
  private final Instant until;

  private RelayPool(List<Route> routes, TransferSecret secret, String relayJarHash,
      Map<String, String> applications, Map<String, String> stagingFolders, Instant until) {
    this.routes = List.copyOf(routes);
    this.secret = secret;
    this.relayJarHash = relayJarHash;
    this.applications = Map.copyOf(applications);
    this.stagingFolders = Map.copyOf(stagingFolders);
    this.until = until;
  }

  /**
   * A pool of {@code routes} (at least one), whose relays share {@code secret}, run the relay
   * jar of {@code relayJarHash} in {@code applications}, staged in {@code stagingFolders} (both
   * by site: "src", "dst"), and stop at {@code until}.
   */
  public static RelayPool of(List<Route> routes, TransferSecret secret, String relayJarHash,
      Map<String, String> applications, Map<String, String> stagingFolders, Instant until) {
    requireNonNull(routes, "routes is null");
    requireNonNull(secret, "secret is null");
    requireNonNull(relayJarHash, "relayJarHash is null");
    requireNonNull(applications, "applications is null");
    requireNonNull(stagingFolders, "stagingFolders is null");
    requireNonNull(until, "until is null");
    if (routes.isEmpty()) {
      throw new IllegalArgumentException("a relay pool has at least one route");
    }
    return new RelayPool(routes, secret, relayJarHash, applications, stagingFolders, until);
  }

  public List<Route> routes() {
    return routes;
  }

  public TransferSecret secret() {
    return secret;
  }

  /** The first 16 hex digits of the SHA-256 of the relay jar the pool's relays run. */
  public String relayJarHash() {
    return relayJarHash;
  }

  /** The pool's YARN applications by site ("src", "dst"). */
  public Map<String, String> applications() {
    return applications;
  }

  /** The URIs of the folders the pool's relays were staged in, by site ("src", "dst"). */
  public Map<String, String> stagingFolders() {
    return stagingFolders;
  }

  /** When the pool stops on its own. */
  public Instant until() {
    return until;
  }

  /**
   * Writes the pool to {@code file}, replacing what is there in one move; the new file is
   * readable and writable by its owner only from the moment it exists.
   */
  public void writeTo(ReplacedFile file) throws IOException {
    requireNonNull(file, "file is null");
    file.replace(JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(json()));
  }

  private ObjectNode json() throws IOException {
    ObjectNode root = JSON.createObjectNode();
    root.put("relaycpRelayPool", FORMAT);
    root.put("relayJar", relayJarHash);
    root.put("until", until.toString());
    ObjectNode sites = root.putObject("applications");
    new TreeMap<>(applications).forEach(sites::put);
    ObjectNode staging = root.putObject("staging");
    new TreeMap<>(stagingFolders).forEach(staging::put);
    ArrayNode list = root.putArray("routes");
    for (Route route : routes) {
      list.addObject().put("reader", route.reader().toString())
          .put("writer", route.writer().toString());
    }
    ByteArrayOutputStream hex = new ByteArrayOutputStream();
    secret.writeTo(hex);
    root.put("secret", hex.toString(StandardCharsets.UTF_8).strip());
    return root;
  }

  /**
   * The pool {@code file} describes, if it runs: INVALID_ARGUMENT with the fix where there is
   * no such file, it is not a pool file, or its pool stopped (past its end, or the file not
   * written for {@link #STALE}).
   */
  public static RelayPool read(ReplacedFile file, Instant now) {
    requireNonNull(now, "now is null");
    String start = startAdvice(file);
    Written written = readWritten(file).orElseThrow(() -> new RelayCpException(
        ErrorCode.INVALID_ARGUMENT, "relay pool file " + file + " does not exist" + start));
    RelayPool pool = written.pool();
    if (now.isAfter(pool.until)) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "the relay pool of " + file
          + " ended at " + pool.until + start);
    }
    if (Duration.between(written.at(), now).compareTo(STALE) > 0) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "the relay pool of " + file
          + " has not written its file since " + written.at() + ", so it no longer runs"
          + " (killed?)" + start);
    }
    return pool;
  }

  /** A pool as its file describes it, and when the file was last written. */
  public record Written(RelayPool pool, Instant at) {
    public Written {
      requireNonNull(pool, "pool is null");
      requireNonNull(at, "at is null");
    }
  }

  /**
   * The pool {@code file} describes, whether or not it still runs; empty where there is no
   * such file. INVALID_ARGUMENT where it is not a pool file, PERMISSION_DENIED where this user
   * may not read it, IO_ERROR (worth a retry) where its file system fails to give it.
   */
  public static Optional<Written> readWritten(ReplacedFile file) {
    requireNonNull(file, "file is null");
    String start = startAdvice(file);
    Optional<ReplacedFile.Contents> contents;
    JsonNode root;
    try {
      contents = file.read();
      if (contents.isEmpty()) {
        return Optional.empty();
      }
      root = JSON.readTree(contents.get().bytes());
    } catch (JsonProcessingException e) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT,
          file + " is not a relay pool file" + start, e);
    } catch (AccessDeniedException | AccessControlException e) {
      throw new RelayCpException(ErrorCode.PERMISSION_DENIED, "cannot read relay pool file "
          + file + " (" + e.getMessage() + "): only the user who started the pool may; run the"
          + " copy as that user", e);
    } catch (IOException e) {
      // A file system that does not answer now (a NameNode failing over, say) may later.
      throw new RelayCpException(ErrorCode.IO_ERROR, "cannot read relay pool file " + file
          + " (" + e.getMessage() + "); try again once its file system answers", e);
    }
    RelayPool pool = parse(root).orElseThrow(() -> new RelayCpException(
        ErrorCode.INVALID_ARGUMENT, file + " is not a relay pool file" + start));
    return Optional.of(new Written(pool, contents.get().written()));
  }

  private static String startAdvice(ReplacedFile file) {
    return "; start a pool with `relaycp relay-pool --pool-file " + file
        + "` and keep it running while copies use it";
  }

  /** The pool in {@code root}, or empty where it is not a pool file of this format. */
  private static Optional<RelayPool> parse(JsonNode root) {
    try {
      if (root == null || root.path("relaycpRelayPool").asInt() != FORMAT) {
        return Optional.empty();
      }
      List<Route> routes = new ArrayList<>();
      for (JsonNode route : root.path("routes")) {
        routes.add(new Route(routes.size(), RelayAddress.parse(route.path("reader").asText()),
            RelayAddress.parse(route.path("writer").asText())));
      }
      Map<String, String> applications = new LinkedHashMap<>();
      root.path("applications").fields()
          .forEachRemaining(site -> applications.put(site.getKey(), site.getValue().asText()));
      Map<String, String> staging = new LinkedHashMap<>();
      root.path("staging").fields()
          .forEachRemaining(site -> staging.put(site.getKey(), site.getValue().asText()));
      String jar = root.path("relayJar").asText("");
      if (routes.isEmpty() || jar.isEmpty()) {
        return Optional.empty();
      }
      TransferSecret secret = TransferSecret.of(HexFormat.of().parseHex(
          root.path("secret").asText("")));
      return Optional.of(new RelayPool(routes, secret, jar, applications, staging,
          Instant.parse(root.path("until").asText())));
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }
}
