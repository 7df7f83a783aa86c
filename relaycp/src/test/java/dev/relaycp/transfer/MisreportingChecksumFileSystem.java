package dev.relaycp.transfer;

import java.io.IOException;
import org.apache.hadoop.fs.CompositeCrcFileChecksum;
import org.apache.hadoop.fs.FileChecksum;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.util.CrcUtil;
import org.apache.hadoop.util.DataChecksum;

/**
 * HDFS's own client, giving a wrong COMPOSITE-CRC32C checksum (its bits flipped) for every
 * staged file and the true one elsewhere: a writer relay using it reports staged files that do
 * not match what was read, while the files themselves are intact. Set it as
 * {@code fs.hdfs.impl} for relays only.
 */
public class MisreportingChecksumFileSystem extends DistributedFileSystem {
  @Override
  public FileChecksum getFileChecksum(Path file) throws IOException {
    FileChecksum checksum = super.getFileChecksum(file);
    if (checksum == null || !file.toUri().getPath().contains("/" + StagingArea.PREFIX)
        || !ChecksumVerifier.COMPOSITE_CRC32C.equals(checksum.getAlgorithmName())) {
      return checksum;
    }
    return new CompositeCrcFileChecksum(~CrcUtil.readInt(checksum.getBytes(), 0),
        DataChecksum.Type.CRC32C, checksum.getChecksumOpt().getBytesPerChecksum());
  }
}
