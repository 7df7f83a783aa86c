package dev.relaycp.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;
import org.junit.jupiter.api.Test;

/** The writer's failures, through a file system whose streams fail as HDFS's do. */
class HadoopChunkWriterTest {
  /** The failure every stream of {@link FailingFileSystem} throws, from write and from close. */
  static final IOException PIPELINE_FAILED = new IOException(
      "All datanodes [DatanodeInfoWithStorage[127.0.0.1:9866]] are bad. Aborting...");

  /**
   * A local file system whose output streams fail every write and then every close with the
   * same exception object, as HDFS's DFSOutputStream does once its pipeline is lost.
   */
  public static final class FailingFileSystem extends RawLocalFileSystem {
    @Override
    public URI getUri() {
      return URI.create("failing:///");
    }

    @Override
    public FSDataOutputStream create(Path path, FsPermission permission, boolean overwrite,
        int bufferSize, short replication, long blockSize, Progressable progress) {
      OutputStream failing = new OutputStream() {
        @Override
        public void write(int b) throws IOException {
          throw PIPELINE_FAILED;
        }

        @Override
        public void write(byte[] bytes, int offset, int length) throws IOException {
          throw PIPELINE_FAILED;
        }

        @Override
        public void close() throws IOException {
          throw PIPELINE_FAILED;
        }
      };
      return new FSDataOutputStream(failing, null);
    }
  }

  @Test
  void aWriteThatFailsAgainOnCloseReportsHadoopsReasonNotSelfSuppression() {
    Configuration configuration = new Configuration();
    configuration.setClass("fs.failing.impl", FailingFileSystem.class,
        org.apache.hadoop.fs.FileSystem.class);
    configuration.setBoolean("fs.failing.impl.disable.cache", true);
    HadoopChunkWriter writer = new HadoopChunkWriter(FileSystemOpener.of(configuration));

    Throwable failure = catchThrowable(() -> writer.write(
        ChunkTarget.file(URI.create("failing:///tmp/relaycp-writer-test/file"), (short) 1,
            1 << 20),
        new ByteArrayInputStream(new byte[100_000]), 100_000));

    assertThat(failure).isSameAs(PIPELINE_FAILED);
    assertThat(failure.getSuppressed()).isEmpty();
  }
}
