package dev.relaycp.transfer;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.relaycp.fs.HadoopFailures;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.BufferedReader;
import java.io.Closeable;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.StreamCapabilities;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a copy has staged, kept in its staging directory so that the same command, run again
 * after any interruption, sends only what is missing.
 *
 * <pre>
 * .relaycp-staging-&lt;id&gt;/
 *     journal-&lt;run&gt;   one per run of the command (the first is 0); JSON, a line each:
 *       {"journal":1,"source":"hdfs://a/data","destination":"hdfs://b/data","run":0}
 *                       the header; then one line per chunk whose bytes are staged and closed:
 *       {"path":"d/f.bin","length":L,"modified":M,"chunk":1,"chunks":3,"offset":O,"bytes":B,
 *        "staged":"hdfs://b/.relaycp-staging-&lt;id&gt;/p3/part-17.0"}
 *                       and one per file completed from its chunks ("chunk":-1, "bytes" = L)
 * </pre>
 *
 * An entry counts in a later run only if the source file still has the length and
 * modification time it names, and its staged file still has its bytes. Lines reach the file
 * system (hflush) once a second rather than one by one, since across a WAN a flush per chunk
 * would cost a round trip each: a driver killed outright loses at most the last second's
 * lines, whose chunks the next run sends again, and a line it cut short is skipped.
 */
final class CopyJournal implements Closeable {
  static final String PREFIX = "journal-";
  static final int VERSION = 1;
  /** The chunk number of an entry for a whole file completed from its chunks. */
  static final int COMPLETED_FILE = -1;
  private static final Logger LOG = LoggerFactory.getLogger(CopyJournal.class);
  private static final ObjectMapper JSON = new ObjectMapper()
      .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
  private static final long FLUSH_MILLIS = 1000;

  /** The first line of every journal file: which copy it belongs to and which run wrote it. */
  record Header(int journal, String source, String destination, int run) {
    Header {
      requireNonNull(source, "source is null");
      requireNonNull(destination, "destination is null");
    }

    static Header of(Path source, Path destination, int run) {
      return new Header(VERSION, source.toString(), destination.toString(), run);
    }

    boolean sameCopy(Path sourceRoot, Path destinationRoot) {
      return journal == VERSION && source.equals(sourceRoot.toString())
          && destination.equals(destinationRoot.toString());
    }
  }

  /** One staged chunk, or ({@link #COMPLETED_FILE}) one file completed from its chunks. */
  record Entry(String path, long length, long modified, int chunk, int chunks, long offset,
      long bytes, String staged) {
    Entry {
      requireNonNull(path, "path is null");
      requireNonNull(staged, "staged is null");
    }

    static Entry of(Key key, URI staged) {
      return new Entry(key.path(), key.length(), key.modified(), key.chunk(), key.chunks(),
          key.offset(), key.bytes(), staged.toString());
    }

    /** What identifies the bytes the entry holds, whatever file index a run gives them. */
    Key key() {
      return new Key(path, length, modified, chunk, chunks, offset, bytes);
    }
  }

  /** An entry's identity: the same source bytes, cut the same way. */
  record Key(String path, long length, long modified, int chunk, int chunks, long offset,
      long bytes) {
    static Key of(SourceFile file, Chunk chunk) {
      return new Key(file.relativePath(), file.length(), file.attributes().modificationTime(),
          chunk.indexInFile(), chunk.chunksInFile(), chunk.offset(), chunk.length());
    }

    static Key completed(SourceFile file, int chunks) {
      return new Key(file.relativePath(), file.length(), file.attributes().modificationTime(),
          COMPLETED_FILE, chunks, 0, file.length());
    }
  }

  /**
   * What earlier runs staged that is still there: each entry whose staged file exists with its
   * bytes, by key.
   */
  record Recovered(int runs, Map<Key, URI> staged) {
    static final Recovered NONE = new Recovered(0, Map.of());

    Recovered {
      staged = Map.copyOf(requireNonNull(staged, "staged is null"));
    }

    Optional<URI> find(Key key) {
      return Optional.ofNullable(staged.get(key));
    }
  }

  private final Path path;
  private final FSDataOutputStream out;
  private final boolean flushes;
  private final ScheduledExecutorService flusher;
  private int entries;
  private boolean dirty;
  private boolean closed;

  private CopyJournal(FileSystem fileSystem, Path path, FSDataOutputStream out) {
    this.path = path;
    this.out = out;
    this.flushes = out.hasCapability(StreamCapabilities.HFLUSH);
    if (!flushes) {
      LOG.info("{} cannot flush a file it is writing: this copy's journal is kept only if it"
          + " ends, so a driver killed outright leaves nothing to resume", fileSystem.getUri());
    }
    this.flusher = Executors.newSingleThreadScheduledExecutor(
        new DefaultThreadFactory("journal-flush", true));
    flusher.scheduleWithFixedDelay(this::flushQuietly, FLUSH_MILLIS, FLUSH_MILLIS,
        TimeUnit.MILLISECONDS);
  }

  /** Starts run {@code header.run()}'s journal file in {@code stagingRoot}, header written. */
  static CopyJournal start(FileSystem fileSystem, Path stagingRoot, Header header) {
    requireNonNull(fileSystem, "fileSystem is null");
    requireNonNull(header, "header is null");
    Path path = new Path(stagingRoot, PREFIX + header.run());
    try {
      FSDataOutputStream out = fileSystem.create(path, false);
      CopyJournal journal = new CopyJournal(fileSystem, path, out);
      journal.write(header);
      journal.flush();
      return journal;
    } catch (IOException e) {
      throw HadoopFailures.translate(e, "starting the copy's journal " + path);
    }
  }

  Path path() {
    return path;
  }

  /** Notes that {@code chunk} of {@code file} is staged, closed, at {@code staged}. */
  void chunkStaged(SourceFile file, Chunk chunk, URI staged) {
    add(Entry.of(Key.of(file, chunk), staged));
  }

  /** Notes that {@code file}, sent as {@code chunks} chunks, is complete at {@code staged}. */
  void fileCompleted(SourceFile file, int chunks, URI staged) {
    add(Entry.of(Key.completed(file, chunks), staged));
  }

  private synchronized void add(Entry entry) {
    if (closed) {
      return;
    }
    try {
      write(entry);
      entries++;
    } catch (IOException e) {
      // The copy itself is fine; only a later resume would send this chunk again.
      LOG.warn("Cannot write to the copy's journal {}: {}", path, e.getMessage());
    }
  }

  /** Entries written by this run. */
  synchronized int entries() {
    return entries;
  }

  private void write(Object line) throws IOException {
    out.write((JSON.writeValueAsString(line) + "\n").getBytes(UTF_8));
    dirty = true;
  }

  /** Makes every line written so far readable by a later run. */
  synchronized void flush() throws IOException {
    if (closed || !dirty) {
      return;
    }
    if (flushes) {
      out.hflush();
    }
    dirty = false;
  }

  /** As {@link #flush}, logging a failure: a journal that falls short costs a resume time only. */
  void flushQuietly() {
    try {
      flush();
    } catch (IOException e) {
      LOG.debug("Cannot flush the copy's journal {}: {}", path, e.getMessage());
    }
  }

  @Override
  public void close() {
    flusher.shutdownNow();
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      try {
        out.close();
      } catch (IOException e) {
        LOG.warn("Cannot close the copy's journal {}: {}", path, e.getMessage());
      }
    }
  }

  /** The header of the first run's journal in {@code stagingRoot}, if it has a readable one. */
  static Optional<Header> header(FileSystem fileSystem, Path stagingRoot) {
    Path first = new Path(stagingRoot, PREFIX + 0);
    try (BufferedReader reader = new BufferedReader(
        new InputStreamReader(fileSystem.open(first), UTF_8))) {
      String line = reader.readLine();
      return line == null ? Optional.empty() : Optional.of(JSON.readValue(line, Header.class));
    } catch (FileNotFoundException e) {
      return Optional.empty();
    } catch (IOException e) {
      LOG.debug("Cannot read {}: {}", first, e.getMessage());
      return Optional.empty();
    }
  }

  /**
   * What the runs that wrote journals in {@code stagingRoot} staged and is still there; a line
   * that does not parse (the last, cut short when a driver was killed) is skipped.
   */
  static Recovered read(FileSystem fileSystem, Path stagingRoot) {
    requireNonNull(fileSystem, "fileSystem is null");
    try {
      Map<String, Long> lengths = new HashMap<>();
      RemoteIterator<LocatedFileStatus> files = fileSystem.listFiles(stagingRoot, true);
      while (files.hasNext()) {
        LocatedFileStatus file = files.next();
        lengths.put(file.getPath().toUri().getPath(), file.getLen());
      }
      List<Path> journals = new ArrayList<>();
      for (FileStatus status : fileSystem.listStatus(stagingRoot,
          candidate -> candidate.getName().startsWith(PREFIX))) {
        journals.add(status.getPath());
      }
      Map<Key, URI> staged = new HashMap<>();
      for (Path journal : journals) {
        readInto(fileSystem, journal, lengths, staged);
      }
      return new Recovered(journals.size(), staged);
    } catch (FileNotFoundException e) {
      return Recovered.NONE;
    } catch (IOException e) {
      throw HadoopFailures.translate(e, "reading the journal in " + stagingRoot);
    }
  }

  private static void readInto(FileSystem fileSystem, Path journal, Map<String, Long> lengths,
      Map<Key, URI> staged) throws IOException {
    try (BufferedReader reader = new BufferedReader(
        new InputStreamReader(fileSystem.open(journal), UTF_8))) {
      String line = reader.readLine();
      if (line == null) {
        return;
      }
      while ((line = reader.readLine()) != null) {
        Entry entry;
        try {
          entry = JSON.readValue(line, Entry.class);
        } catch (JsonProcessingException e) {
          LOG.debug("Skipping a line of {} that does not parse: {}", journal, e.getMessage());
          continue;
        }
        URI uri = URI.create(entry.staged());
        Long length = lengths.get(uri.getPath());
        if (length != null && length == entry.bytes()) {
          staged.put(entry.key(), uri);
        }
      }
    }
  }
}
