package dev.relaycp.testkit;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * A source site "src" and a destination site "dst" ({@link EmbeddedSite}), started side by
 * side: each is a JVM of its own, and one after the other they took about 100 s of a test's
 * set-up on two cores. Closing closes both.
 */
public record EmbeddedSites(EmbeddedSite source, EmbeddedSite destination)
    implements AutoCloseable {
  public EmbeddedSites {
    requireNonNull(source, "source is null");
    requireNonNull(destination, "destination is null");
  }

  /**
   * Starts both sites, each with {@code nodes} datanodes and NodeManagers, {@code blockSize}
   * and {@code containerClassPath} as {@link EmbeddedSite#start} has them; if either fails,
   * the other is closed once it has started and the failure is thrown.
   */
  public static EmbeddedSites start(int nodes, long blockSize, List<String> containerClassPath)
      throws IOException {
    CompletableFuture<EmbeddedSite> destination = CompletableFuture.supplyAsync(() -> {
      try {
        return EmbeddedSite.start("dst", nodes, blockSize, containerClassPath);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
    EmbeddedSite source;
    try {
      source = EmbeddedSite.start("src", nodes, blockSize, containerClassPath);
    } catch (IOException | RuntimeException e) {
      destination.thenAccept(EmbeddedSite::close);
      throw e;
    }
    try {
      return new EmbeddedSites(source, destination.join());
    } catch (CompletionException e) {
      source.close();
      if (e.getCause() instanceof UncheckedIOException io) {
        throw io.getCause();
      }
      throw e;
    }
  }

  /** Stops both sites side by side: each takes seconds to stop its NodeManagers. */
  @Override
  public void close() {
    destination.beginClose();
    source.beginClose();
    try {
      destination.close();
    } finally {
      source.close();
    }
  }
}
