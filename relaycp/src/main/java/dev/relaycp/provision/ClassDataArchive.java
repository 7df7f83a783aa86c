package dev.relaycp.provision;

import static java.util.Objects.requireNonNull;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.io.Closeable;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A class-data archive (AppCDS) for the relay JVMs that YARN starts on a node, so that a relay
 * container maps the classes it needs instead of reading, parsing and verifying them from the
 * jars. A relay loads about 5,000 classes (the HDFS client, Netty, TLS) before it announces
 * itself, and a copy starts a relay on every datanode, often on nodes that are busy; what the
 * archive saves is measured below. Beside it the node keeps the relay jar's native libraries
 * ({@link #libraryPathAssignment}).
 *
 * <p>The archive lives in the NodeManager's folder for the user ({@code $LOCAL_USER_DIRS}),
 * which outlives applications and which, where containers run as their users, only the user
 * can write; it is named after the relay jar's content. A container's JVM starts with {@link
 * #javaOptions}: use the archive if it is there and fits (the JVM checks its own build and
 * every jar on the class path against the archive, and runs without it, silently, otherwise),
 * and write down the classes it loads. Once the relay has announced itself, {@link
 * #refreshInBackground} makes the archive from that list, in a JVM of its own, unless this JVM
 * runs from an archive made for the same JVM and the same jars. The next relay on the node
 * starts from it. It is a cache: losing it costs one slower start.
 *
 * <p>The archive is a dynamic one, over the JDK's own: the JVM making it runs {@link
 * ClassListLoader} with its JIT and archives the classes it loaded as it exits. A static
 * archive ({@code -Xshare:dump}) is made by an interpreted JVM: 13.8-15.1 CPU-s against 6.3-8.2
 * this way, and on the lab's busy nodes a copy's relays were released before it ended, copy
 * after copy, its work lost each time. A relay's classes then load in 0.87-1.02 CPU-s from the
 * dynamic archive against 0.73-0.87 from the static one and 1.67-1.89 from the jars
 * ({@code bench/results/2026-11-27-class-data-dynamic/NOTES.md}).
 *
 * <p>The dump runs at the relay's own CPU priority, once a node and relay jar: at the lowest
 * ({@code nice 19}) it starved beside the copy on a busy node, and YARN killed it with the
 * container when the copy ended, copy after copy, so that no relay on the lab's nodes ever
 * started from an archive (12.6-15.1 s from the listing to the first pair of relays, against
 * 4.8-6.1 s with one; {@code bench/results/lab-2026-11-26-class-data-dump/NOTES.md}).
 */
public final class ClassDataArchive {
  private static final Logger LOG = LoggerFactory.getLogger(ClassDataArchive.class);
  /** The folder below the NodeManager's user folder. */
  static final String FOLDER = "relaycp-class-data";
  /** The container's list of the classes it loaded, in its working directory. */
  static final String CLASS_LIST = "relaycp-classes.lst";
  private static final String ARCHIVE_OPTION = "SharedArchiveFile";
  private static final String LIST_OPTION = "DumpLoadedClassList";
  private static final long DUMP_TIMEOUT_MINUTES = 5;
  /** Files of a dump under way end with this and the pid of the relay making it. */
  private static final String PART = ".part-";
  /** Every archive this class makes is named with this, then the jar's hash. */
  private static final String PREFIX = "relay-";
  /** The folder of the relay jar's native libraries is named with this, then the jar's hash. */
  private static final String NATIVE_PREFIX = "native-";
  /** Where a jar keeps the native libraries Netty loads (BoringSSL's among them). */
  private static final String NATIVE_ENTRIES = "META-INF/native/";

  private final Path archive;
  private final Path classList;
  private final List<Path> classPath;

  private ClassDataArchive(Path archive, Path classList, List<Path> classPath) {
    this.archive = archive;
    this.classList = classList;
    this.classPath = classPath;
  }

  /**
   * An archive at {@code archive}, made from the class list {@code classList}, for a JVM whose
   * class path is {@code classPath} (only its leading jars are archived: the JVM takes no
   * classes from a folder into an archive).
   */
  static ClassDataArchive of(Path archive, Path classList, List<Path> classPath) {
    return new ClassDataArchive(requireNonNull(archive, "archive is null"),
        requireNonNull(classList, "classList is null"),
        List.copyOf(requireNonNull(classPath, "classPath is null")));
  }

  /**
   * The options a relay container's JVM starts with, for the relay jar whose content hash is
   * {@code jarHash}. The NodeManager's launch script expands {@code $LOCAL_USER_DIRS} (its first
   * folder) before the JVM starts.
   */
  static String javaOptions(String jarHash) {
    requireNonNull(jarHash, "jarHash is null");
    return "-XX:" + ARCHIVE_OPTION + "=${LOCAL_USER_DIRS%%,*}/" + FOLDER + "/" + PREFIX + jarHash
        + ".jsa -Xshare:auto -XX:" + LIST_OPTION + "=" + CLASS_LIST;
  }

  /**
   * What a relay container's command starts with, before the JVM: {@code LD_LIBRARY_PATH} led
   * by the node's folder of the relay jar's native libraries ({@link #refreshNativeLibraries}).
   * The JVM puts {@code LD_LIBRARY_PATH} on {@code java.library.path}, where Netty looks for
   * BoringSSL first; only without it does Netty find each copy on the class path (the relay
   * jar's and Hadoop's own), hash them to see that they agree, and write one to a temporary
   * file: 160 of the 2,830 CPU-ms sampled in a relay's start
   * (bench/results/2026-11-27-relay-start-profile/). The assignment sits in the command, not
   * the launch context's environment, so that {@code $LOCAL_USER_DIRS} is set when it is
   * expanded.
   */
  static String libraryPathAssignment(String jarHash) {
    requireNonNull(jarHash, "jarHash is null");
    return "LD_LIBRARY_PATH=${LOCAL_USER_DIRS%%,*}/" + FOLDER + "/" + NATIVE_PREFIX + jarHash
        + "${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}";
  }

  /**
   * In a relay JVM started with {@link #javaOptions}, brings the node's archive and its folder of
   * native libraries up to date on a daemon thread; elsewhere (a relay started by hand, a JVM
   * started without the options) does nothing. {@code whileMaking} is opened as the archive's
   * dump starts and closed as it ends, and only where one runs: the relay tells its driver
   * there, which holds the container until then, within a bound (otherwise YARN stops the
   * container, and the dump with it, as the copy ends).
   */
  public static void refreshInBackground(Supplier<Closeable> whileMaking) {
    requireNonNull(whileMaking, "whileMaking is null");
    Optional<ClassDataArchive> started = ofThisJvm();
    if (started.isEmpty()) {
      return;
    }
    Thread refreshing = new Thread(() -> {
      try {
        started.get().refreshNativeLibraries();
      } catch (IOException | RuntimeException e) {
        LOG.warn("Cannot keep the relay jar's native libraries beside {} ({}); relays on this"
            + " node load them from the jar", started.get().archive, e.toString());
      }
      try {
        started.get().refresh(whileMaking);
      } catch (IOException | RuntimeException e) {
        LOG.warn("Cannot make the relays' class-data archive {} ({}); relays on this node start"
            + " without it", started.get().archive, e.toString());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "relay-class-data");
    refreshing.setDaemon(true);
    refreshing.start();
  }

  /** The archive this JVM was started with by {@link #javaOptions}, if it was. */
  static Optional<ClassDataArchive> ofThisJvm() {
    try {
      HotSpotDiagnosticMXBean vm =
          ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
      String archive = vm.getVMOption(ARCHIVE_OPTION).getValue();
      String list = vm.getVMOption(LIST_OPTION).getValue();
      if (archive.isEmpty() || list.isEmpty()
          || !Path.of(archive).getFileName().toString().startsWith(PREFIX)) {
        return Optional.empty();
      }
      List<Path> classPath = new ArrayList<>();
      for (String entry : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
        if (!entry.isEmpty()) {
          classPath.add(Path.of(entry));
        }
      }
      return Optional.of(of(Path.of(archive), Path.of(list), classPath));
    } catch (RuntimeException | LinkageError e) {
      return Optional.empty();
    }
  }

  /**
   * Makes the archive unless this JVM runs from one that fits it and its jars, with {@code
   * whileMaking} open while the JVM making it runs; returns whether it made one.
   */
  boolean refresh(Supplier<Closeable> whileMaking) throws IOException, InterruptedException {
    List<Path> jars = leadingJars();
    if (jars.isEmpty()) {
      LOG.debug("No jar leads the class path; no class-data archive");
      return false;
    }
    String fingerprint = fingerprint(jars);
    Path key = sibling(".key");
    if (inUse() && fingerprint.equals(readOrEmpty(key))) {
      LOG.info("Started from the class-data archive {}", archive);
      return false;
    }
    Path folder = archive.toAbsolutePath().getParent();
    if (!ownFolder(folder, "a class-data archive")) {
      return false;
    }
    removeAbandonedParts(folder);
    long started = System.nanoTime();
    String suffix = PART + ProcessHandle.current().pid();
    Path list = sibling(".lst" + suffix);
    Path made = sibling(".jsa" + suffix);
    try {
      copyCompleteLines(classList, list);
      List<String> command = new ArrayList<>(List.of(
          JavaProcess.launcher(),
          "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:ArchiveClassesAtExit=" + made,
          "-cp", String.join(File.pathSeparator, realPaths(jars)),
          ClassListLoader.class.getName(), list.toString()));
      String output;
      try (Closeable making = whileMaking.get()) {
        output = run(command);
      }
      if (!Files.isRegularFile(made)) {
        throw new IOException("the JVM made no archive: " + output);
      }
      move(made, archive);
      Path keyPart = sibling(".key" + suffix);
      Files.writeString(keyPart, fingerprint, StandardCharsets.UTF_8);
      move(keyPart, key);
    } finally {
      Files.deleteIfExists(list);
      Files.deleteIfExists(made);
    }
    LOG.info("Made the relays' class-data archive {} ({} bytes, from {} jars) in {} ms",
        archive, Files.size(archive), jars.size(),
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
    return true;
  }

  /**
   * Takes the native libraries ({@code META-INF/native/*.so}) out of the jar that leads the
   * class path into the folder {@link #libraryPathAssignment} names, unless it is there; each
   * file is written under a name of its own and then renamed, so a relay starting meanwhile
   * finds it whole or not at all (and then loads the library from the jar). Returns how many
   * it took out.
   */
  int refreshNativeLibraries() throws IOException {
    List<Path> jars = leadingJars();
    if (jars.isEmpty()) {
      return 0;
    }
    Path folder = archive.toAbsolutePath().getParent();
    String name = archive.getFileName().toString();
    String hash = name.substring(PREFIX.length(), name.length() - ".jsa".length());
    Path libraries = folder.resolve(NATIVE_PREFIX + hash);
    if (Files.isDirectory(libraries)) {
      return 0;
    }
    if (!ownFolder(folder, "the relay's native libraries")) {
      return 0;
    }
    String suffix = PART + ProcessHandle.current().pid();
    Path part = folder.resolve(NATIVE_PREFIX + hash + suffix);
    Files.createDirectories(part);
    int taken = 0;
    try (JarFile jar = new JarFile(jars.get(0).toFile())) {
      for (JarEntry entry : Collections.list(jar.entries())) {
        String entryName = entry.getName();
        if (entryName.startsWith(NATIVE_ENTRIES) && entryName.endsWith(".so")
            && entryName.indexOf('/', NATIVE_ENTRIES.length()) < 0) {
          try (InputStream in = jar.getInputStream(entry)) {
            Files.copy(in, part.resolve(entryName.substring(NATIVE_ENTRIES.length())));
          }
          taken++;
        }
      }
      try {
        Files.move(part, libraries, StandardCopyOption.ATOMIC_MOVE);
      } catch (IOException e) {
        if (!Files.isDirectory(libraries)) {
          throw e;
        }
        LOG.debug("Another relay kept the native libraries in {} first", libraries);
        return 0;
      }
    } finally {
      deleteTree(part);
    }
    LOG.info("Kept the relay jar's {} native libraries in {}", taken, libraries);
    return taken;
  }

  /**
   * Makes {@code folder} (0700) unless it is there, and says whether this JVM's user owns it:
   * what a JVM on the node loads from it runs as that user's code, so nothing is kept in a
   * folder someone else owns. Logs {@code what} was not kept where it does not.
   */
  private static boolean ownFolder(Path folder, String what) throws IOException {
    Files.createDirectories(folder,
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    String owner = Files.getOwner(folder).getName();
    if (!owner.equals(System.getProperty("user.name"))) {
      LOG.warn("Not keeping {} in {}: it belongs to {}, not to {}", what, folder, owner,
          System.getProperty("user.name"));
      return false;
    }
    return true;
  }

  private static void deleteTree(Path folder) throws IOException {
    if (!Files.isDirectory(folder)) {
      return;
    }
    try (var entries = Files.newDirectoryStream(folder)) {
      for (Path entry : entries) {
        Files.deleteIfExists(entry);
      }
    }
    Files.deleteIfExists(folder);
  }

  /**
   * Removes what dumps left behind when their container was killed mid-way: parts older than
   * any dump still running.
   */
  private static void removeAbandonedParts(Path folder) throws IOException {
    long abandonedBefore = System.currentTimeMillis()
        - TimeUnit.MINUTES.toMillis(2 * DUMP_TIMEOUT_MINUTES);
    try (var entries = Files.newDirectoryStream(folder, "*" + PART + "*")) {
      for (Path part : entries) {
        if (Files.getLastModifiedTime(part).toMillis() < abandonedBefore) {
          deleteTree(part);
          Files.deleteIfExists(part);
        }
      }
    }
  }

  /** The jars at the head of the class path, up to its first folder or missing entry. */
  private List<Path> leadingJars() {
    List<Path> jars = new ArrayList<>();
    for (Path entry : classPath) {
      if (!Files.isRegularFile(entry)) {
        break;
      }
      jars.add(entry);
    }
    return jars;
  }

  /**
   * The jars as the archive names them: the files themselves, not the links a container's
   * folder has to them. A JVM requires every jar the archive names to exist, and takes a
   * class path entry that leads to the same file as the same jar; the link to the relay jar
   * goes away with its container, the file it leads to stays in the NodeManager's cache.
   */
  private static List<String> realPaths(List<Path> jars) throws IOException {
    List<String> real = new ArrayList<>();
    for (Path jar : jars) {
      real.add(jar.toRealPath().toString());
    }
    return real;
  }

  /** What the archive depends on: this JVM's build and each jar's file, size and time. */
  static String fingerprint(List<Path> jars) throws IOException {
    StringBuilder text = new StringBuilder()
        .append("java.home=").append(System.getProperty("java.home")).append('\n')
        .append("java.vm.version=").append(System.getProperty("java.vm.version")).append('\n');
    for (Path jar : jars) {
      text.append(jar.toRealPath()).append('\t').append(Files.size(jar)).append('\t')
          .append(Files.getLastModifiedTime(jar).toMillis()).append('\n');
    }
    return text.toString();
  }

  /**
   * Whether this JVM mapped the archive. Where the process's mappings cannot be read, an
   * archive whose key fits is taken to be in use.
   */
  private boolean inUse() {
    if (!Files.isRegularFile(archive)) {
      return false;
    }
    try {
      String real = archive.toRealPath().toString();
      return Files.readAllLines(Path.of("/proc/self/maps")).stream()
          .anyMatch(line -> line.endsWith(real));
    } catch (IOException e) {
      return true;
    }
  }

  private Path sibling(String suffix) {
    String name = archive.getFileName().toString();
    String stem = name.endsWith(".jsa") ? name.substring(0, name.length() - 4) : name;
    return archive.resolveSibling(stem + suffix);
  }

  private static String readOrEmpty(Path file) throws IOException {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      return "";
    }
  }

  /** The list as the JVM has written it so far, without a last line it has not finished. */
  private static void copyCompleteLines(Path from, Path to) throws IOException {
    byte[] written = Files.readAllBytes(from);
    int end = written.length;
    while (end > 0 && written[end - 1] != '\n') {
      end--;
    }
    Files.write(to, Arrays.copyOf(written, end));
  }

  /** Runs the dump and returns its output's last lines; throws if it fails. */
  static String run(List<String> command) throws IOException, InterruptedException {
    return run(command, Duration.ofMinutes(DUMP_TIMEOUT_MINUTES));
  }

  /**
   * Runs {@code command}, killing it past {@code timeout}, and returns its output's last
   * lines; throws if it fails. The output goes to a file, not a pipe read to its end: a JVM
   * that hangs, or a child of it that keeps the pipe open, would hold the read past any
   * timeout, and with it the relay's busy mark.
   */
  static String run(List<String> command, Duration timeout)
      throws IOException, InterruptedException {
    Path log = Files.createTempFile("relaycp-class-data-", ".log");
    try {
      Process process = new ProcessBuilder(command).redirectErrorStream(true)
          .redirectOutput(log.toFile()).start();
      process.getOutputStream().close();
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        throw new IOException("the JVM making it did not end within " + timeout.toSeconds()
            + " s");
      }
      String text = Files.readString(log, StandardCharsets.UTF_8).strip();
      String last = text.substring(Math.max(0, text.length() - 400));
      if (process.exitValue() != 0) {
        throw new IOException("the JVM making it exited with " + process.exitValue() + ": "
            + last);
      }
      return last;
    } finally {
      Files.deleteIfExists(log);
    }
  }

  /** Replaces {@code to} with {@code from} at once where the file system can. */
  static void move(Path from, Path to) throws IOException {
    try {
      Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
    }
  }
}
