package dev.relaycp.fs;

import static java.util.Objects.requireNonNull;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.apache.hadoop.fs.BBUploadHandle;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FSDataOutputStreamBuilder;
import org.apache.hadoop.fs.FileChecksum;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.MultipartUploader;
import org.apache.hadoop.fs.PartHandle;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem.HdfsDataOutputStreamBuilder;
import org.apache.hadoop.io.IOUtils;

/**
 * Writes one chunk on the destination through Hadoop: a whole file with {@code createFile}, or
 * one part of a multipart upload with {@link MultipartUploader#putPart}. On HDFS a whole file's
 * replicas go to the target's favored datanodes, where it names them. Bytes stream from the
 * given input to the FileSystem as they arrive; nothing is staged on local disk.
 */
public final class HadoopChunkWriter {
  private static final int COPY_BUFFER_BYTES = 64 * 1024;

  private final FileSystemOpener opener;

  public HadoopChunkWriter(FileSystemOpener opener) {
    this.opener = requireNonNull(opener, "opener is null");
  }

  /**
   * Writes exactly {@code length} bytes of {@code bytes} as {@code target}.
   *
   * @return the part handle's bytes for a part, or an empty array for a whole file
   */
  public byte[] write(ChunkTarget target, InputStream bytes, long length) throws IOException {
    requireNonNull(target, "target is null");
    requireNonNull(bytes, "bytes is null");
    Path path = new Path(target.path());
    FileSystem fileSystem = opener.open(target.path());
    return switch (target.kind()) {
      case FILE -> {
        // A re-sent chunk goes to a new staged name (see the driver), so overwrite only
        // matters for a retry on the same relay after a failure it saw itself.
        FSDataOutputStreamBuilder<FSDataOutputStream, ?> builder = fileSystem.createFile(path)
            .overwrite(true)
            .recursive()
            .replication(target.replication())
            .blockSize(target.blockSize());
        if (builder instanceof HdfsDataOutputStreamBuilder hdfs
            && !target.favoredDatanodes().isEmpty()) {
          hdfs.favoredNodes(target.favoredDatanodes().stream()
              .map(DatanodeAddress::unresolved)
              .toArray(InetSocketAddress[]::new));
        }
        FSDataOutputStream out = builder.build();
        try {
          IOUtils.copyBytes(bytes, out, COPY_BUFFER_BYTES, false);
        } catch (IOException | RuntimeException e) {
          closeAfter(out, e);
          throw e;
        }
        out.close();
        yield new byte[0];
      }
      case PART -> putPart(fileSystem, target, path, bytes, length);
    };
  }

  /**
   * The checksum the destination's file system gives for the file {@code target} names, as it
   * is stored now (asked right after writing it, this is the written file's); empty where that
   * file system keeps no checksums.
   */
  public Optional<FileChecksum> storedChecksum(ChunkTarget target) throws IOException {
    requireNonNull(target, "target is null");
    return Optional.ofNullable(
        opener.open(target.path()).getFileChecksum(new Path(target.path())));
  }

  /** Gives the file {@code target} names the times {@code target} carries, if any. */
  public void setTimes(ChunkTarget target) throws IOException {
    requireNonNull(target, "target is null");
    if (target.times().isPresent()) {
      ChunkTarget.Times times = target.times().get();
      opener.open(target.path()).setTimes(new Path(target.path()), times.modificationTime(),
          times.accessTime());
    }
  }

  /**
   * Closes {@code out} after {@code failure}, keeping a different failure of the close as
   * suppressed. HDFS's output stream throws the very exception that failed a write again from
   * close, and try-with-resources would then suppress an exception in itself, which throws
   * "Self-suppression not permitted" in place of Hadoop's reason.
   */
  static void closeAfter(FSDataOutputStream out, Throwable failure) {
    try {
      out.close();
    } catch (IOException | RuntimeException e) {
      if (e != failure) {
        failure.addSuppressed(e);
      }
    }
  }

  private static byte[] putPart(
      FileSystem fileSystem, ChunkTarget target, Path path, InputStream bytes, long length)
      throws IOException {
    // Where the uploader writes parts as files (Hadoop's file system uploader), they get the
    // target's block size; on HDFS the driver uses its own parts instead (see CopyDriver).
    try (MultipartUploader uploader = fileSystem.createMultipartUploader(path.getParent())
        .blockSize(target.blockSize())
        .replication(target.replication())
        .build()) {
      PartHandle handle = uploader.putPart(
              BBUploadHandle.from(ByteBuffer.wrap(target.uploadHandle())),
              target.partNumber(), false, path, bytes, length)
          .get();
      return handle.toByteArray();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RelayCpException(ErrorCode.INTERRUPTED, "interrupted writing part "
          + target.partNumber() + " of " + target.path(), e);
    } catch (ExecutionException | CompletionException e) {
      if (e.getCause() instanceof IOException io) {
        throw io;
      }
      if (e.getCause() instanceof RuntimeException runtime) {
        throw runtime;
      }
      throw new IOException(e.getCause());
    }
  }
}
