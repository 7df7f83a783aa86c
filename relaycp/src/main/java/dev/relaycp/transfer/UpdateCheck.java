package dev.relaycp.transfer;

import static java.util.Objects.requireNonNull;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.fs.HadoopFailures;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.fs.FileChecksum;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * {@code --update}'s test, DistCp's {@code -update}: a file is skipped when its target exists
 * with the same length, the same block size (only when block size is kept) and the same
 * COMPOSITE_CRC checksum. A target with no checksum is never taken as equal. Each target
 * directory is listed once; checksums are compared several at a time.
 */
final class UpdateCheck {
  private final FileSystem source;
  private final FileSystem destination;
  private final boolean compareBlockSize;
  private final int threads;

  UpdateCheck(FileSystem source, FileSystem destination, boolean compareBlockSize,
      int threads) {
    this.source = requireNonNull(source, "source is null");
    this.destination = requireNonNull(destination, "destination is null");
    this.compareBlockSize = compareBlockSize;
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be 1 or more, got " + threads);
    }
    this.threads = threads;
  }

  /**
   * The files to copy and those to skip.
   *
   * @param toCopy the listing less the skipped files (directories all kept)
   * @param skipped files whose target is equal
   */
  record Result(SourceTree toCopy, List<SourceFile> skipped) {
    Result {
      requireNonNull(toCopy, "toCopy is null");
      skipped = List.copyOf(requireNonNull(skipped, "skipped is null"));
    }

    static Result copyAll(SourceTree tree) {
      return new Result(tree, List.of());
    }
  }

  Result split(SourceTree tree, Path destinationRoot) {
    Map<Path, Map<String, FileStatus>> listed = new HashMap<>();
    Map<Integer, FileStatus> candidates = new HashMap<>();
    for (int index = 0; index < tree.files().size(); index++) {
      SourceFile file = tree.files().get(index);
      Path target = Committer.finalPath(destinationRoot, file.relativePath());
      FileStatus existing = listed.computeIfAbsent(target.getParent(), this::statusesIn)
          .get(target.getName());
      if (existing != null && existing.isFile() && existing.getLen() == file.length()
          && (!compareBlockSize || existing.getBlockSize() == file.blockSize())) {
        candidates.put(index, existing);
      }
    }
    Map<Integer, Boolean> equal = new ConcurrentHashMap<>();
    ExecutorService pool = Executors.newFixedThreadPool(Math.min(threads,
        Math.max(1, candidates.size())));
    try {
      List<Future<?>> comparisons = new ArrayList<>();
      candidates.forEach((index, target) -> comparisons.add(pool.submit(() -> equal.put(index,
          sameChecksum(tree.files().get(index), target.getPath())))));
      for (Future<?> comparison : comparisons) {
        comparison.get();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RelayCpException(ErrorCode.INTERRUPTED, "interrupted comparing checksums", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RelayCpException relay) {
        throw relay;
      }
      throw new RelayCpException(ErrorCode.INTERNAL_ERROR,
          "comparing checksums failed: " + e.getCause(), e.getCause());
    } finally {
      pool.shutdownNow();
    }
    List<SourceFile> copy = new ArrayList<>();
    List<SourceFile> skipped = new ArrayList<>();
    for (int index = 0; index < tree.files().size(); index++) {
      (equal.getOrDefault(index, false) ? skipped : copy).add(tree.files().get(index));
    }
    return new Result(new SourceTree(tree.directories(), copy, tree.singleFile()), skipped);
  }

  private boolean sameChecksum(SourceFile file, Path target) {
    try {
      FileChecksum expected = source.getFileChecksum(new Path(file.uri()));
      FileChecksum actual = destination.getFileChecksum(target);
      return expected != null && expected.equals(actual);
    } catch (IOException e) {
      throw HadoopFailures.translate(e, "comparing the checksums of " + file.uri() + " and "
          + target);
    }
  }

  private Map<String, FileStatus> statusesIn(Path directory) {
    Map<String, FileStatus> statuses = new HashMap<>();
    try {
      for (FileStatus status : destination.listStatus(directory)) {
        statuses.put(status.getPath().getName(), status);
      }
    } catch (FileNotFoundException e) {
      return Map.of();
    } catch (IOException e) {
      throw HadoopFailures.translate(e, "listing " + directory);
    }
    return statuses;
  }
}
