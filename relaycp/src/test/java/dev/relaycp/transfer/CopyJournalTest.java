package dev.relaycp.transfer;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The journal on the local file system: what a later run may take over, and what not. */
class CopyJournalTest {
  private static final Path SOURCE = new Path("hdfs://a:8020/data");
  private static final Path DESTINATION = new Path("hdfs://b:8020/copy");

  @TempDir java.nio.file.Path temporary;
  private FileSystem fileSystem;
  private Path root;

  @BeforeEach
  void localFileSystem() throws IOException {
    fileSystem = FileSystem.getLocal(new Configuration()).getRaw();
    root = new Path(temporary.resolve(".relaycp-staging-x").toUri());
    fileSystem.mkdirs(root);
  }

  private static SourceFile file(String name, long length, long modified) {
    return new SourceFile(name, URI.create("hdfs://a:8020/data/" + name), length, 1 << 20,
        (short) 3, new FileAttributes(FsPermission.getFileDefault(), "u", "g", modified, 0),
        List.of());
  }

  /** A staged file of {@code bytes} bytes. */
  private URI staged(String name, int bytes) throws IOException {
    Path path = new Path(root, name);
    try (var out = fileSystem.create(path)) {
      out.write(new byte[bytes]);
    }
    return fileSystem.makeQualified(path).toUri();
  }

  @Test
  void aLaterRunFindsWhatEarlierRunsStagedByTheSourceBytesTheyHold() throws IOException {
    SourceFile whole = file("a.bin", 100, 7);
    SourceFile parted = file("d/b.bin", 300, 8);
    Chunk wholeChunk = new Chunk(0, 0, 0, 1, 0, 100);
    Chunk second = new Chunk(2, 1, 1, 3, 100, 100);
    URI wholeStaged = staged("f0.0.0", 100);
    URI secondStaged = staged("p1/part-18.0", 100);
    try (CopyJournal journal = CopyJournal.start(fileSystem, root,
        CopyJournal.Header.of(SOURCE, DESTINATION, 0))) {
      journal.chunkStaged(whole, wholeChunk, wholeStaged);
      journal.chunkStaged(parted, second, secondStaged);
      assertThat(journal.entries()).isEqualTo(2);
    }

    CopyJournal.Recovered recovered = CopyJournal.read(fileSystem, root);

    assertThat(recovered.runs()).isEqualTo(1);
    // The same bytes under other chunk ids and file indexes (another listing order) match.
    assertThat(recovered.find(CopyJournal.Key.of(whole, new Chunk(5, 3, 0, 1, 0, 100))))
        .contains(wholeStaged);
    assertThat(recovered.find(CopyJournal.Key.of(parted, new Chunk(9, 4, 1, 3, 100, 100))))
        .contains(secondStaged);
    // A source file changed since (another modification time or length) matches nothing.
    assertThat(recovered.find(CopyJournal.Key.of(file("a.bin", 100, 9), wholeChunk))).isEmpty();
    assertThat(recovered.find(CopyJournal.Key.of(parted, new Chunk(1, 1, 0, 3, 0, 100))))
        .isEmpty();
    assertThat(CopyJournal.header(fileSystem, root)).hasValueSatisfying(header -> {
      assertThat(header.sameCopy(SOURCE, DESTINATION)).isTrue();
      assertThat(header.sameCopy(SOURCE, new Path("hdfs://b:8020/elsewhere"))).isFalse();
    });
  }

  @Test
  void anEntryWhoseStagedFileIsGoneOrShortIsNotTakenOver() throws IOException {
    SourceFile one = file("one", 100, 1);
    SourceFile two = file("two", 100, 1);
    URI gone = staged("f0.0.0", 100);
    URI shorter = staged("f1.0.0", 100);
    try (CopyJournal journal = CopyJournal.start(fileSystem, root,
        CopyJournal.Header.of(SOURCE, DESTINATION, 0))) {
      journal.chunkStaged(one, new Chunk(0, 0, 0, 1, 0, 100), gone);
      journal.chunkStaged(two, new Chunk(1, 1, 0, 1, 0, 100), shorter);
    }
    fileSystem.delete(new Path(gone), false);
    staged("f1.0.0", 60);

    assertThat(CopyJournal.read(fileSystem, root).staged()).isEmpty();
  }

  @Test
  void aLineCutShortByAKilledDriverIsSkippedAndLaterRunsAddTheirOwnJournals()
      throws IOException {
    SourceFile first = file("first", 10, 1);
    SourceFile second = file("second", 10, 1);
    URI firstStaged = staged("f0.0.0", 10);
    URI secondStaged = staged("f1.1.0", 10);
    try (CopyJournal journal = CopyJournal.start(fileSystem, root,
        CopyJournal.Header.of(SOURCE, DESTINATION, 0))) {
      journal.chunkStaged(first, new Chunk(0, 0, 0, 1, 0, 10), firstStaged);
    }
    Files.writeString(temporary.resolve(".relaycp-staging-x/journal-0"),
        "{\"path\":\"second\",\"length\":10,\"modi", UTF_8, StandardOpenOption.APPEND);
    try (CopyJournal journal = CopyJournal.start(fileSystem, root,
        CopyJournal.Header.of(SOURCE, DESTINATION, 1))) {
      journal.chunkStaged(second, new Chunk(1, 1, 0, 1, 0, 10), secondStaged);
    }

    CopyJournal.Recovered recovered = CopyJournal.read(fileSystem, root);

    assertThat(recovered.runs()).isEqualTo(2);
    assertThat(recovered.staged()).hasSize(2).containsValues(firstStaged, secondStaged);
  }

  @Test
  void aFileCompletedFromItsChunksIsFoundWholeOnceItsPartsAreGone() throws IOException {
    SourceFile parted = file("big", 200, 3);
    URI first = staged("p0/part-1.0", 100);
    URI secondPart = staged("p0/part-17.0", 100);
    try (CopyJournal journal = CopyJournal.start(fileSystem, root,
        CopyJournal.Header.of(SOURCE, DESTINATION, 0))) {
      journal.chunkStaged(parted, new Chunk(0, 0, 0, 2, 0, 100), first);
      journal.chunkStaged(parted, new Chunk(1, 0, 1, 2, 100, 100), secondPart);
      // Concatenated: the first part holds the file, the second is gone.
      fileSystem.delete(new Path(secondPart), false);
      staged("p0/part-1.0", 200);
      journal.fileCompleted(parted, 2, first);
    }

    CopyJournal.Recovered recovered = CopyJournal.read(fileSystem, root);

    assertThat(recovered.find(CopyJournal.Key.completed(parted, 2))).contains(first);
    assertThat(recovered.find(CopyJournal.Key.of(parted, new Chunk(0, 0, 0, 2, 0, 100))))
        .isEmpty();
  }

  @Test
  void aStagingWithoutAJournalHasNoHeader() {
    assertThat(CopyJournal.header(fileSystem, root)).isEmpty();
    assertThat(CopyJournal.read(fileSystem, new Path(root, "missing")).runs()).isZero();
  }
}
