package dev.relaycp.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.relaycp.testkit.DriverCommand;
import dev.relaycp.testkit.EmbeddedClusters;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A copy interrupted for real (its driver a separate JVM, killed with SIGKILL or SIGTERM while
 * copying or while committing) and the same command run again between two real clusters: the
 * second run sends only what the first did not stage, commits the rest and says what it reused.
 */
class ResumeCopyTest {
  private static final int MIB = 1 << 20;
  private static final int SMALL_FILES = 1500;
  private static EmbeddedClusters clusters;

  @TempDir java.nio.file.Path temporary;

  @BeforeAll
  static void start() throws IOException {
    clusters = EmbeddedClusters.start(1, MIB);
    FileSystem source = clusters.source().getFileSystem();
    // Eight files of 1 MiB (a chunk each) and one of 6 MiB (six chunks, concatenated).
    for (int index = 0; index < 8; index++) {
      write(source, "/data/part-" + index + ".bin", MIB, index);
    }
    write(source, "/data/big/six.bin", 6 * MIB, 99);
    // Written by several threads: one by one, 1,500 files take minutes on a loaded machine.
    ExecutorService writers = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> written = new ArrayList<>();
      for (int index = 0; index < SMALL_FILES; index++) {
        int file = index;
        written.add(writers.submit(() -> {
          write(source, "/many/d" + file % 10 + "/f" + file, 64, 1000 + file);
          return null;
        }));
      }
      for (Future<?> each : written) {
        each.get();
      }
    } catch (InterruptedException | ExecutionException e) {
      throw new IOException("writing the small files", e);
    } finally {
      writers.shutdownNow();
    }
  }

  @AfterAll
  static void stop() {
    if (clusters != null) {
      clusters.close();
    }
  }

  private static void write(FileSystem fileSystem, String path, int bytes, long seed)
      throws IOException {
    byte[] data = new byte[bytes];
    new Random(seed).nextBytes(data);
    try (OutputStream out = fileSystem.create(new Path(path))) {
      out.write(data);
    }
  }

  record Result(int exitCode, String out, String err) {
    JsonNode summary() throws IOException {
      return new ObjectMapper().readTree(out);
    }
  }

  private static Result run(List<String> arguments) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = RelayCpTool.commandLine(new RelayCpCommand(new Configuration()),
        new PrintWriter(out, true), new PrintWriter(err, true))
        .execute(arguments.toArray(String[]::new));
    return new Result(code, out.toString(), err.toString());
  }

  /** The copy command both runs use; the heartbeat every second, so a resume waits 3 s. */
  private static List<String> copy(String source, String destination, String... more) {
    List<String> arguments = new ArrayList<>(List.of("copy",
        clusters.sourceUri(source).toString(), clusters.destinationUri(destination).toString(),
        "--local-relays", "1", "--json", "--no-progress", "--no-history",
        "-D", "relaycp.copy.staging-heartbeat-seconds=1"));
    arguments.addAll(List.of(more));
    return arguments;
  }

  private Process startDriver(List<String> arguments, String name) throws IOException {
    List<String> command = DriverCommand.of(
        Files.createDirectories(temporary.resolve("tmp-" + name)), "-Xmx512m");
    command.addAll(arguments);
    return new ProcessBuilder(command)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(temporary.resolve(name + ".err").toFile())
        .start();
  }

  private static FileSystem destination() throws IOException {
    return clusters.destination().getFileSystem();
  }

  /** The staging directories beside {@code parent} on the destination. */
  private static List<Path> stagings(String parent) throws IOException {
    List<Path> found = new ArrayList<>();
    if (!destination().exists(new Path(parent))) {
      return found;
    }
    for (FileStatus status : destination().listStatus(new Path(parent))) {
      if (status.getPath().getName().startsWith(".relaycp-staging-")) {
        found.add(status.getPath());
      }
    }
    return found;
  }

  /** Lines the journals beside {@code parent} hold (headers included). */
  private static int journalLines(String parent) throws IOException {
    int lines = 0;
    for (Path staging : stagings(parent)) {
      for (FileStatus journal : destination().listStatus(staging,
          path -> path.getName().startsWith("journal-"))) {
        try (var in = destination().open(journal.getPath())) {
          lines += (int) new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
              .lines().count();
        }
      }
    }
    return lines;
  }

  private static int filesBelow(String path) throws IOException {
    if (!destination().exists(new Path(path))) {
      return 0;
    }
    int files = 0;
    RemoteIterator<LocatedFileStatus> listing = destination().listFiles(new Path(path), true);
    while (listing.hasNext()) {
      listing.next();
      files++;
    }
    return files;
  }

  private static void await(BooleanSupplier condition, Process driver, String what)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (!condition.getAsBoolean() && driver.isAlive() && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(condition.getAsBoolean()).as(what).isTrue();
  }

  private static BooleanSupplier quietly(IoCondition condition) {
    return () -> {
      try {
        return condition.holds();
      } catch (IOException e) {
        return false;
      }
    };
  }

  private interface IoCondition {
    boolean holds() throws IOException;
  }

  /** Every file below the source has a byte-for-byte copy below the destination; how many. */
  private static int assertSameAsSource(String source, String destinationRoot)
      throws IOException {
    FileSystem from = clusters.source().getFileSystem();
    RemoteIterator<LocatedFileStatus> files = from.listFiles(new Path(source), true);
    int count = 0;
    while (files.hasNext()) {
      Path file = files.next().getPath();
      String relative = file.toUri().getPath().substring(source.length());
      Path copy = new Path(destinationRoot + relative);
      try (var original = from.open(file); var copied = destination().open(copy)) {
        assertThat(copied.readAllBytes()).as(copy.toString()).isEqualTo(original.readAllBytes());
      }
      count++;
    }
    return count;
  }

  @Test
  void aDriverKilledWhileCopyingIsResumedByTheSameCommandSendingOnlyWhatWasMissing()
      throws Exception {
    destination().mkdirs(new Path("/killed"));
    List<String> command = copy("/data", "/killed/copy",
        "-D", "relaycp.relay.bytes-per-second-limit=1m");
    Process driver = startDriver(command, "killed");
    try {
      await(quietly(() -> journalLines("/killed") >= 5), driver,
          "the first run staged some chunks");
    } finally {
      driver.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }
    assertThat(filesBelow("/killed/copy")).as("nothing committed by the killed run").isZero();

    Result resumed = run(copy("/data", "/killed/copy"));

    assertThat(resumed.exitCode()).as(resumed.err()).isZero();
    JsonNode summary = resumed.summary();
    assertThat(summary.get("resumed").asBoolean()).isTrue();
    assertThat(summary.get("run").asInt()).isEqualTo(1);
    long reused = summary.get("bytesReused").asLong();
    assertThat(reused).isGreaterThanOrEqualTo(MIB).isLessThan(14L * MIB);
    assertThat(summary.get("chunksReused").asInt()).isPositive();
    long sent = 0;
    for (JsonNode route : summary.get("routeRates")) {
      sent += route.get("bytes").asLong();
    }
    assertThat(sent).as("bytes sent again").isEqualTo(14L * MIB - reused);
    assertThat(summary.get("verified").asBoolean()).isTrue();
    assertThat(assertSameAsSource("/data", "/killed/copy")).isEqualTo(9);
    assertThat(stagings("/killed")).as("staging left after the resumed run").isEmpty();
  }

  @Test
  void aDriverKilledWhileCommittingIsResumedAndTheFilesItCommittedCountAsDone()
      throws Exception {
    destination().mkdirs(new Path("/commit"));
    // One committer thread, so the commit of 1,500 files lasts long enough to be cut.
    List<String> command = copy("/many", "/commit/copy",
        "-D", "relaycp.copy.verification-threads=1");
    Process driver = startDriver(command, "commit");
    try {
      await(quietly(() -> filesBelow("/commit/copy") > 0), driver, "the commit began");
    } finally {
      driver.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }
    int committedBefore = filesBelow("/commit/copy");
    assertThat(committedBefore).as("the kill cut the commit short").isLessThan(SMALL_FILES);

    Result resumed = run(copy("/many", "/commit/copy"));

    assertThat(resumed.exitCode()).as(resumed.err()).isZero();
    JsonNode summary = resumed.summary();
    assertThat(summary.get("resumed").asBoolean()).isTrue();
    int committedEarlier = summary.get("filesCommittedEarlier").asInt();
    assertThat(committedEarlier).isGreaterThanOrEqualTo(committedBefore);
    assertThat(summary.get("files").asInt()).isEqualTo(SMALL_FILES - committedEarlier);
    assertThat(summary.get("bytesReused").asLong()).as("nothing sent again")
        .isEqualTo(64L * SMALL_FILES);
    assertThat(summary.get("chunksResent").asInt()).isZero();
    for (JsonNode route : summary.get("routeRates")) {
      assertThat(route.get("bytes").asLong()).isZero();
    }
    assertThat(assertSameAsSource("/many", "/commit/copy")).isEqualTo(SMALL_FILES);
    assertThat(stagings("/commit")).isEmpty();
  }

  @Test
  void sigtermKeepsTheStagingForTheNextRunWhichTakesItUpAtOnce() throws Exception {
    destination().mkdirs(new Path("/term"));
    List<String> command = copy("/data", "/term/copy",
        "-D", "relaycp.relay.bytes-per-second-limit=1m");
    Process driver = startDriver(command, "term");
    try {
      await(quietly(() -> journalLines("/term") >= 3), driver, "the first run staged a chunk");
      driver.destroy();
      assertThat(driver.waitFor(60, TimeUnit.SECONDS)).as("the driver ended").isTrue();
    } finally {
      driver.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }
    String err = Files.readString(temporary.resolve("term.err"));
    assertThat(err).contains("run the same command again to resume");
    List<Path> kept = stagings("/term");
    assertThat(kept).hasSize(1);
    assertThat(destination().exists(new Path(kept.get(0), "stopped"))).isTrue();
    try (var left = Files.list(temporary.resolve("tmp-term"))) {
      assertThat(left.map(file -> file.getFileName().toString()))
          .as("secret files left").noneMatch(name -> name.startsWith("relaycp-secret-"));
    }

    // A heartbeat that would make a resume wait a minute: stopped, it is taken up at once.
    long before = System.nanoTime();
    Result resumed = run(copy("/data", "/term/copy",
        "-D", "relaycp.copy.staging-heartbeat-seconds=20"));

    assertThat(resumed.exitCode()).as(resumed.err()).isZero();
    assertThat(resumed.summary().get("bytesReused").asLong()).isPositive();
    assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - before)).isLessThan(60);
    assertThat(assertSameAsSource("/data", "/term/copy")).isEqualTo(9);
    assertThat(stagings("/term")).isEmpty();
  }

  @Test
  void theSameCopyWhileAnotherDriverStillRunsItFailsWithExitFourAndTouchesNothing()
      throws Exception {
    destination().mkdirs(new Path("/busy"));
    // One chunk at a time: under the relay's rate limit, chunks sent together all finish late.
    Process driver = startDriver(copy("/data", "/busy/copy",
        "-D", "relaycp.relay.bytes-per-second-limit=256k",
        "-D", "relaycp.copy.chunks-in-flight-per-route=1"), "busy");
    try {
      await(quietly(() -> journalLines("/busy") >= 2), driver, "the first run staged a chunk");

      Result second = run(copy("/data", "/busy/copy"));

      assertThat(second.exitCode()).isEqualTo(ExitCodes.EXTERNAL);
      assertThat(second.err()).contains("another relaycp copy of the same source to the same"
          + " destination is running");
      assertThat(driver.isAlive()).isTrue();
      assertThat(stagings("/busy")).hasSize(1);
    } finally {
      driver.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }
  }
}
