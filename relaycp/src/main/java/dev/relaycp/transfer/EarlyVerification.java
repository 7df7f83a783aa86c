package dev.relaycp.transfer;

import static java.util.Objects.requireNonNull;

import dev.relaycp.relay.StoredChecksum;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.URI;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Verifies files while the copy still runs: each as soon as it is staged whole. A tree of many
 * small files then does not wait, after its last byte, for a checksum request per file (a
 * namenode call and a datanode's block checksum each), as DistCp's maps do not either: they
 * check each file right after copying it. Where the writer relay returned the staged file's
 * checksum (asked inside the destination's site) the check is a comparison; otherwise it is
 * asked here, on a few threads of its own, across the WAN where the driver runs on the other
 * site.
 *
 * <p>A result counts only for the staged file it was taken of, and only if the check itself
 * worked. The copy's verify step takes it from {@link #resultFor} and checks again, itself, any
 * file this did not check: one staged anew since, one whose check failed with an I/O error, one
 * not taken because {@link #MAXIMUM_WAITING} checks were waiting already. A staged file that
 * does not match its source goes to {@code onMismatch} at once, so the copy can end then rather
 * than after its last byte.
 */
final class EarlyVerification implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(EarlyVerification.class);
  /**
   * Checks queued at most; past that a file is left to the verify step, so a copy whose
   * checks fall behind its files does not hold a task for every file of a large tree.
   */
  static final int MAXIMUM_WAITING = 10_000;

  private final ChecksumVerifier verifier;
  private final ExecutorService threads;
  private final Consumer<FileVerification> onMismatch;
  private final Map<Integer, Check> byFile = new ConcurrentHashMap<>();
  private final AtomicInteger waiting = new AtomicInteger();

  private record Check(URI staged, Future<FileVerification> result) {}

  private EarlyVerification(ChecksumVerifier verifier, int threads,
      Consumer<FileVerification> onMismatch) {
    this.verifier = requireNonNull(verifier, "verifier is null");
    this.onMismatch = requireNonNull(onMismatch, "onMismatch is null");
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be at least 1, not " + threads);
    }
    this.threads = Executors.newFixedThreadPool(threads,
        new DefaultThreadFactory("verify-early", true));
  }

  /** Checks on {@code threads} threads until {@link #close}. */
  static EarlyVerification start(ChecksumVerifier verifier, int threads,
      Consumer<FileVerification> onMismatch) {
    return new EarlyVerification(verifier, threads, onMismatch);
  }

  /**
   * Checks, in the background, file {@code fileIndex} as staged at {@code staged} against its
   * source (as {@link ChecksumVerifier#verify(String, URI, URI, long, OptionalInt)} does);
   * does nothing once closed or with {@link #MAXIMUM_WAITING} checks waiting.
   */
  void submit(int fileIndex, String path, URI source, URI staged, long bytes,
      OptionalInt sourceCrc32c) {
    requireNonNull(path, "path is null");
    requireNonNull(source, "source is null");
    requireNonNull(staged, "staged is null");
    requireNonNull(sourceCrc32c, "sourceCrc32c is null");
    if (waiting.incrementAndGet() > MAXIMUM_WAITING) {
      waiting.decrementAndGet();
      return;
    }
    try {
      byFile.put(fileIndex, new Check(staged, threads.submit(() -> {
        waiting.decrementAndGet();
        FileVerification result = verifier.verify(path, source, staged, bytes, sourceCrc32c);
        if (!result.verified()) {
          onMismatch.accept(result);
        }
        return result;
      })));
    } catch (RejectedExecutionException closed) {
      waiting.decrementAndGet();
    }
  }

  /**
   * As {@link #submit(int, String, URI, URI, long, OptionalInt)}, with the checksum the writer
   * relay reported for the staged file, if any: a result from it is taken at once, with no call
   * to the destination, and only a file it cannot settle (no CRC of the source's bytes, or a
   * checksum of another kind) is checked in the background.
   */
  void submit(int fileIndex, String path, URI source, URI staged, long bytes,
      OptionalInt sourceCrc32c, Optional<StoredChecksum> stored) {
    requireNonNull(stored, "stored is null");
    Optional<FileVerification> reported = stored.flatMap(checksum ->
        ChecksumVerifier.compareStored(path, bytes, checksum, sourceCrc32c));
    if (reported.isEmpty()) {
      submit(fileIndex, path, source, staged, bytes, sourceCrc32c);
      return;
    }
    byFile.put(fileIndex, new Check(requireNonNull(staged, "staged is null"),
        CompletableFuture.completedFuture(reported.get())));
    if (!reported.get().verified()) {
      onMismatch.accept(reported.get());
    }
  }

  /**
   * What the check of file {@code fileIndex} found, waiting for one still running, if it was
   * checked here as staged at {@code staged} and the check worked; empty otherwise, for the
   * caller to check it.
   */
  Optional<FileVerification> resultFor(int fileIndex, URI staged) throws InterruptedException {
    Check check = byFile.get(fileIndex);
    if (check == null || !check.staged().equals(staged)) {
      return Optional.empty();
    }
    try {
      return Optional.of(check.result().get());
    } catch (ExecutionException e) {
      LOG.debug("Checking {} while the copy ran failed; checking it again", staged, e.getCause());
      return Optional.empty();
    } catch (CancellationException e) {
      return Optional.empty();
    }
  }

  /**
   * Stops checking: checks not started are cancelled (so {@link #resultFor} does not wait for
   * them), those running are interrupted.
   */
  @Override
  public void close() {
    for (Runnable notStarted : threads.shutdownNow()) {
      if (notStarted instanceof Future<?> check) {
        check.cancel(false);
      }
    }
  }
}
