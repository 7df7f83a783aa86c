package dev.relaycp.relay;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.net.URI;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;

/**
 * A local file system under the scheme {@code gated:} whose first file's close waits until a
 * second file has been created, as an HDFS close waits for the datanodes' block report. A writer
 * that queued the second file behind the first close would never let it finish: that close
 * then fails after {@link #GATE_SECONDS}.
 */
public final class GatedCloseFileSystem extends RawLocalFileSystem {
  static final String SCHEME = "gated";
  static final long GATE_SECONDS = 10;

  private static volatile CountDownLatch secondCreated = new CountDownLatch(2);
  private static volatile CountDownLatch firstClosing = new CountDownLatch(1);
  private static final AtomicInteger CREATED = new AtomicInteger();

  /** Starts over: the next file created is the first again. */
  static void reset() {
    secondCreated = new CountDownLatch(2);
    firstClosing = new CountDownLatch(1);
    CREATED.set(0);
  }

  /** Waits until the first file has all its bytes and is closing. */
  static boolean awaitFirstClosing(long seconds) throws InterruptedException {
    return firstClosing.await(seconds, TimeUnit.SECONDS);
  }

  @Override
  public URI getUri() {
    return URI.create(SCHEME + ":///");
  }

  @Override
  public String getScheme() {
    return SCHEME;
  }

  @Override
  public FSDataOutputStream create(Path path, FsPermission permission, boolean overwrite,
      int bufferSize, short replication, long blockSize, Progressable progress)
      throws IOException {
    FSDataOutputStream local = super.create(
        path, permission, overwrite, bufferSize, replication, blockSize, progress);
    boolean first = CREATED.incrementAndGet() == 1;
    CountDownLatch created = secondCreated;
    CountDownLatch closing = firstClosing;
    created.countDown();
    return new FSDataOutputStream(new FilterOutputStream(local) {
      @Override
      public void write(byte[] bytes, int offset, int length) throws IOException {
        out.write(bytes, offset, length);
      }

      @Override
      public void close() throws IOException {
        try {
          if (first) {
            closing.countDown();
            if (!created.await(GATE_SECONDS, TimeUnit.SECONDS)) {
              throw new IOException("no second file was started while the first one closed");
            }
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IOException("interrupted closing " + path, e);
        } finally {
          super.close();
        }
      }
    }, null);
  }
}
