package dev.relaycp.testkit;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * The demo's dataset, written under a root on a FileSystem: a file of many blocks (with a
 * partial last block), a file of exactly one block, an empty file, many small files, and
 * nested directories with spaces and non-ASCII names. Content is pseudo-random from a seed,
 * so two datasets written with the same seed are byte-identical.
 */
public final class DemoDataset {
  /** The relative paths of the cases the demo names; small files follow under "small/". */
  public static final String MULTI_BLOCK = "big/multi-block.bin";
  public static final String ONE_BLOCK = "big/one-block.bin";
  public static final String EMPTY = "empty.bin";
  public static final String NESTED = "nested dir/ünïcødé 目录/deep file.txt";

  private DemoDataset() {}

  /** Writes the dataset; returns the relative paths of every file written. */
  public static List<String> write(FileSystem fileSystem, Path root, long blockSize,
      int smallFiles, int blocksInMultiBlockFile, long seed) throws IOException {
    requireNonNull(fileSystem, "fileSystem is null");
    requireNonNull(root, "root is null");
    Random random = new Random(seed);
    List<String> written = new ArrayList<>();
    write(fileSystem, root, MULTI_BLOCK, blocksInMultiBlockFile * blockSize + 12_345,
        blockSize, random, written);
    write(fileSystem, root, ONE_BLOCK, blockSize, blockSize, random, written);
    write(fileSystem, root, EMPTY, 0, blockSize, random, written);
    write(fileSystem, root, NESTED, 5_000, blockSize, random, written);
    for (int index = 0; index < smallFiles; index++) {
      write(fileSystem, root, String.format("small/part-%05d", index),
          1 + random.nextInt(8_192), blockSize, random, written);
    }
    fileSystem.mkdirs(new Path(root, "empty dir"));
    fileSystem.setPermission(new Path(root, NESTED), new FsPermission((short) 0640));
    return written;
  }

  private static void write(FileSystem fileSystem, Path root, String relative, long length,
      long blockSize, Random random, List<String> written) throws IOException {
    byte[] buffer = new byte[64 * 1024];
    try (FSDataOutputStream out = fileSystem.createFile(new Path(root, relative))
        .overwrite(true).recursive().blockSize(blockSize).build()) {
      long left = length;
      while (left > 0) {
        random.nextBytes(buffer);
        int count = (int) Math.min(buffer.length, left);
        out.write(buffer, 0, count);
        left -= count;
      }
    }
    written.add(relative);
  }
}
