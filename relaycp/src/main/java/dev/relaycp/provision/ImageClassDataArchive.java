package dev.relaycp.provision;

import static java.util.Objects.requireNonNull;

import dev.relaycp.error.ErrorCode;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.relay.TransferSecret;
import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A class-data archive (AppCDS) of a relay's classes for the image of spawned relay hosts. A
 * spawned host boots and starts one relay, on a JVM that has loaded nothing yet, for one copy:
 * the archive it maps instead of reading, parsing and verifying some 5,000 classes from the
 * jars is made once, where the image is built, not on the host (YARN relays make theirs on each
 * node: {@link ClassDataArchive}). On this project's two-core machine a relay started from one
 * listened after 0.65-0.75 CPU-s against 0.92-1.15 without
 * ({@code bench/results/2026-12-03-spawned-class-data/}).
 *
 * <p>{@link #make} runs a training relay in a JVM of its own, on the relay's class path, with
 * {@code -XX:ArchiveClassesAtExit}: it loads the HDFS client, sends a warm-up through a private
 * relay of its own, listens on loopback and ends; the JVM archives what it loaded as it exits.
 * Beside the archive it writes a java argument file ({@link #JAVA_OPTIONS}) with the archive,
 * the relay's JVM options, the class path and the main class, so that {@code java
 * @FOLDER/relay.java-options} is the command that runs relaycp from it.
 *
 * <p>The JVM maps the archive only for the JVM build that made it and a class path that begins
 * with the same jars, unchanged; otherwise ({@code -Xshare:auto}) it starts without it, as
 * before. Only jars are archived, and they lead the class path: the JVM refuses to archive with
 * a folder that holds files on it, so configuration folders go after the jars.
 */
public final class ImageClassDataArchive {
  /** The archive's file name in its folder. */
  public static final String ARCHIVE = "relay.jsa";
  /** The java argument file's name in the archive's folder. */
  public static final String JAVA_OPTIONS = "relay.java-options";
  private static final String WARM_UP = "16MiB";
  private static final String RUN_FROM_THE_JAR = "run it from the jar, as the relays will run:"
      + " HADOOP_CLIENT_SKIP_UNJAR=true hadoop jar relaycp-<version>.jar relay-class-data FOLDER";

  /**
   * What {@link #make} made.
   *
   * @param archive the archive
   * @param javaOptions the java argument file that starts relaycp from it
   * @param archiveBytes the archive's size
   * @param jars the jars it covers, in class path order
   * @param took how long making it took
   */
  public record Made(Path archive, Path javaOptions, long archiveBytes, List<Path> jars,
      Duration took) {
    public Made {
      requireNonNull(archive, "archive is null");
      requireNonNull(javaOptions, "javaOptions is null");
      jars = List.copyOf(requireNonNull(jars, "jars is null"));
      requireNonNull(took, "took is null");
    }
  }

  /**
   * A class path split as the archive needs it: its jars, to archive and lead, then its
   * folders (configuration), which follow.
   */
  public record ClassPath(List<Path> jars, List<Path> folders) {
    public ClassPath {
      jars = List.copyOf(requireNonNull(jars, "jars is null"));
      folders = List.copyOf(requireNonNull(folders, "folders is null"));
    }

    /**
     * {@code productJar} first, then the jars of {@code javaClassPath} (a {@code
     * java.class.path} value) in their order, each once; then its folders. Entries that do not
     * exist are left out.
     */
    public static ClassPath of(Path productJar, String javaClassPath) {
      requireNonNull(productJar, "productJar is null");
      requireNonNull(javaClassPath, "javaClassPath is null");
      Set<Path> jars = new LinkedHashSet<>();
      Set<Path> folders = new LinkedHashSet<>();
      jars.add(productJar.toAbsolutePath().normalize());
      for (String entry : javaClassPath.split(File.pathSeparator)) {
        if (entry.isBlank()) {
          continue;
        }
        Path path = Path.of(entry).toAbsolutePath().normalize();
        if (Files.isRegularFile(path)) {
          jars.add(path);
        } else if (Files.isDirectory(path)) {
          folders.add(path);
        }
      }
      return new ClassPath(new ArrayList<>(jars), new ArrayList<>(folders));
    }

    /** The jars and then the folders, as a class path. */
    String all() {
      List<Path> entries = new ArrayList<>(jars);
      entries.addAll(folders);
      return joined(entries);
    }

    /** The jars alone, as a class path: what the archive covers. */
    String jarsOnly() {
      return joined(jars);
    }

    private static String joined(List<Path> entries) {
      return String.join(File.pathSeparator, entries.stream().map(Path::toString).toList());
    }
  }

  private ImageClassDataArchive() {}

  /**
   * The jar relaycp's classes run from here. Under {@code hadoop jar} that is the product jar
   * only where RunJar runs it in place ({@code HADOOP_CLIENT_SKIP_UNJAR=true}); otherwise it
   * runs the classes from a temporary folder it deletes at exit, which no archive can name.
   */
  public static Path runningJar() {
    Path location;
    try {
      location = Path.of(ImageClassDataArchive.class.getProtectionDomain().getCodeSource()
          .getLocation().toURI());
    } catch (URISyntaxException | RuntimeException e) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT,
          "cannot tell which jar relaycp runs from (" + e + "); " + RUN_FROM_THE_JAR, e);
    }
    if (!Files.isRegularFile(location)) {
      throw new RelayCpException(ErrorCode.INVALID_ARGUMENT, "relaycp runs from " + location
          + ", not from its jar; " + RUN_FROM_THE_JAR);
    }
    return location;
  }

  /**
   * Makes the archive and its java argument file in {@code folder} (made if missing; an
   * archive already there is replaced). The training relay runs {@code trainingMainClass} with
   * relaycp's {@code relay} arguments, in a JVM with {@code javaOptions} on the jars of {@code
   * classPath}; the argument file names {@code mainClass}, the class that runs relaycp.
   */
  public static Made make(Path folder, ClassPath classPath, List<String> javaOptions,
      String trainingMainClass, String mainClass) throws IOException, InterruptedException {
    requireNonNull(folder, "folder is null");
    requireNonNull(classPath, "classPath is null");
    requireNonNull(javaOptions, "javaOptions is null");
    requireNonNull(trainingMainClass, "trainingMainClass is null");
    requireNonNull(mainClass, "mainClass is null");
    long started = System.nanoTime();
    Path home = folder.toAbsolutePath().normalize();
    Files.createDirectories(home);
    Path archive = home.resolve(ARCHIVE);
    String suffix = ".part-" + ProcessHandle.current().pid();
    Path part = home.resolve(ARCHIVE + suffix);
    Path secretFile = Files.createTempFile("relaycp-training-secret-", "");
    try {
      TransferSecret.generate().writeTo(secretFile);
      List<String> command = new ArrayList<>();
      command.add(JavaProcess.launcher());
      command.add("-XX:ArchiveClassesAtExit=" + part);
      command.addAll(javaOptions);
      command.addAll(List.of("-cp", classPath.jarsOnly(), trainingMainClass,
          "relay", "--bind", "127.0.0.1", "--port", "0", "--secret-file", secretFile.toString(),
          "--warm-up", WARM_UP, "--stop-on-stdin-eof"));
      String output = ClassDataArchive.run(command);
      if (!Files.isRegularFile(part)) {
        throw new IOException("the training relay's JVM made no archive: " + output);
      }
      ClassDataArchive.move(part, archive);
    } finally {
      Files.deleteIfExists(secretFile);
      Files.deleteIfExists(part);
    }
    Path options = home.resolve(JAVA_OPTIONS);
    Path optionsPart = home.resolve(JAVA_OPTIONS + suffix);
    List<String> lines = new ArrayList<>();
    lines.add(quoted("-XX:SharedArchiveFile=" + archive));
    lines.add("-Xshare:auto");
    javaOptions.forEach(option -> lines.add(quoted(option)));
    lines.add("-cp");
    lines.add(quoted(classPath.all()));
    lines.add(mainClass);
    Files.write(optionsPart, lines, StandardCharsets.UTF_8);
    ClassDataArchive.move(optionsPart, options);
    return new Made(archive, options, Files.size(archive), classPath.jars(),
        Duration.ofNanos(System.nanoTime() - started));
  }

  /**
   * {@code value} as one argument of a java argument file: in double quotes, with the
   * backslashes and double quotes it holds escaped, as the launcher reads them there.
   */
  static String quoted(String value) {
    return '"' + value.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
  }
}
