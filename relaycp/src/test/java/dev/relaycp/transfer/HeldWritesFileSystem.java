package dev.relaycp.transfer;

import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import org.apache.hadoop.fs.FileChecksum;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;

/**
 * HDFS's own client, holding the writes of staged whole files: every one after the first waits
 * until some client has asked for the checksum of a staged whole file, or for {@link
 * #HOLD_SECONDS}. Set it as {@code fs.hdfs.impl} for the driver, and {@link WithoutChecksums} for
 * the relays, whose writers then return no checksum of the files they write: a driver that
 * verified nothing itself before the last byte would hold every later file that long.
 */
public class HeldWritesFileSystem extends DistributedFileSystem {
  static final long HOLD_SECONDS = 20;
  /** A staged whole file: {@code f<file index>.<run>.<send>} in the staging directory. */
  private static final Pattern STAGED_WHOLE_FILE = Pattern.compile("f\\d+\\.\\d+\\.\\d+");

  private static volatile CountDownLatch checksummed = new CountDownLatch(1);
  private static final AtomicInteger WRITES = new AtomicInteger();
  private static final AtomicBoolean HELD_IN_VAIN = new AtomicBoolean();

  /** Starts over: the next staged write is the first again. */
  static void reset() {
    checksummed = new CountDownLatch(1);
    WRITES.set(0);
    HELD_IN_VAIN.set(false);
  }

  /** Whether a write waited {@link #HOLD_SECONDS} without a staged file's checksum asked for. */
  static boolean heldInVain() {
    return HELD_IN_VAIN.get();
  }

  private static boolean stagedWholeFile(Path path) {
    return path.toUri().getPath().contains("/" + StagingArea.PREFIX)
        && STAGED_WHOLE_FILE.matcher(path.getName()).matches();
  }

  @Override
  public HdfsDataOutputStreamBuilder createFile(Path path) {
    if (stagedWholeFile(path) && WRITES.getAndIncrement() > 0) {
      try {
        if (!checksummed.await(HOLD_SECONDS, TimeUnit.SECONDS)) {
          HELD_IN_VAIN.set(true);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    return super.createFile(path);
  }

  @Override
  public FileChecksum getFileChecksum(Path file) throws IOException {
    FileChecksum checksum = super.getFileChecksum(file);
    if (stagedWholeFile(file)) {
      checksummed.countDown();
    }
    return checksum;
  }

  /**
   * Holds writes as its outer class does, but gives no file checksums, as a file system that
   * keeps none: a writer relay using it returns none to its driver.
   */
  public static class WithoutChecksums extends HeldWritesFileSystem {
    @Override
    public FileChecksum getFileChecksum(Path file) {
      return null;
    }
  }
}
