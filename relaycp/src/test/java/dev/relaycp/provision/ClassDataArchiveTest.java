package dev.relaycp.provision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The relays' class-data archive, made and used by real JVMs. */
class ClassDataArchiveTest {
  @TempDir Path temporary;

  /**
   * A small jar of the test's class path, of classes for Java 8: JUnit's API. A dynamic archive
   * takes no class older than Java 6 (SLF4J 1.7's are for Java 5).
   */
  private static Path apiJar() throws URISyntaxException {
    return Path.of(Test.class.getProtectionDomain().getCodeSource().getLocation().toURI());
  }

  private static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  @Test
  void aContainerJvmLooksForTheArchiveInTheNodeManagersFolderForTheUser() {
    assertThat(ClassDataArchive.javaOptions("0123abcd")).isEqualTo(
        "-XX:SharedArchiveFile=${LOCAL_USER_DIRS%%,*}/relaycp-class-data/relay-0123abcd.jsa"
            + " -Xshare:auto -XX:DumpLoadedClassList=relaycp-classes.lst");
  }

  @Test
  void theArchiveMadeFromAClassListIsOneAJvmStartsFromThroughAnotherLinkToTheJar()
      throws Exception {
    // As in a container: the class path names a link in the container's folder, which goes
    // away with the container; the next container's link leads to the same cached file.
    Path jar = Files.createSymbolicLink(temporary.resolve("first-container.jar"), apiJar());
    Path nextContainersLink =
        Files.createSymbolicLink(temporary.resolve("next-container.jar"), apiJar());
    // The relay jar leads the class path and holds the program that loads the list.
    Path relayJar = jarOf(temporary.resolve("relay.jar"), ClassListLoader.class);
    Path list = temporary.resolve("classes.lst");
    // As a JVM writes it: ids after the name, lambda lines, a class made at run time; the last
    // line is one the relay's JVM had not finished writing: it is left out.
    Files.writeString(list, "# a comment\norg/junit/jupiter/api/Assertions id: 1\n"
        + "org/junit/jupiter/api/Test id: 2\n@lambda-proxy org/junit/jupiter/api/Assertions run ()V\n"
        + "jdk/proxy1/$Proxy0 id: 3\norg/junit/jupiter/api/Assumpt", StandardCharsets.UTF_8);
    Path archive = temporary.resolve("node/relaycp-class-data/relay-test.jsa");
    ClassDataArchive made = ClassDataArchive.of(archive, list,
        List.of(relayJar, jar, temporary, temporary.resolve("missing.jar")));

    List<String> held = new ArrayList<>();

    assertThat(made.refresh(() -> {
      held.add("opened with the archive " + (Files.exists(archive) ? "made" : "to make"));
      return () -> held.add("closed");
    })).isTrue();

    assertThat(held).containsExactly("opened with the archive to make", "closed");
    assertThat(archive).isRegularFile();
    assertThat(Files.readString(temporary.resolve("node/relaycp-class-data/relay-test.key")))
        .isEqualTo(ClassDataArchive.fingerprint(List.of(relayJar, jar)));
    assertThat(Files.list(archive.getParent()).map(path -> path.getFileName().toString()))
        .containsExactlyInAnyOrder("relay-test.jsa", "relay-test.key");
    Files.delete(jar);
    // -Xshare:on fails the JVM when it cannot use the archive; the class then comes from it,
    // the dynamic archive over the JDK's own ("top").
    Process process = new ProcessBuilder(java(), "-Xshare:on",
        "-XX:SharedArchiveFile=" + archive, "-Xlog:class+load=info",
        "-cp", relayJar + File.pathSeparator + nextContainersLink,
        "org.junit.jupiter.api.Assertions").redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(output).contains("org.junit.jupiter.api.Assertions source: shared objects file (top)");
  }

  /** A jar at {@code path} holding the class files of {@code classes}. */
  private static Path jarOf(Path path, Class<?>... classes) throws IOException {
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(path))) {
      for (Class<?> type : classes) {
        String entry = type.getName().replace('.', '/') + ".class";
        out.putNextEntry(new JarEntry(entry));
        try (InputStream in = type.getClassLoader().getResourceAsStream(entry)) {
          in.transferTo(out);
        }
        out.closeEntry();
      }
    }
    return path;
  }

  @Test
  void theLoaderPassesOverLambdaLinesAndClassesThatDoNotLoad() throws Exception {
    Path list = temporary.resolve("classes.lst");
    Files.writeString(list, "org/junit/jupiter/api/Test id: 1\n@lambda-form-invoker [LF_RESOLVE]\n"
        + "com/example/Gone id: 2\n", StandardCharsets.UTF_8);

    ClassListLoader.main(new String[] {list.toString()});

    assertThatThrownBy(() -> ClassListLoader.main(new String[0]))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("the class list");
  }

  @Test
  void aJarReplacedInPlaceChangesTheFingerprint() throws Exception {
    Path jar = Files.copy(apiJar(), temporary.resolve("api.jar"));
    String before = ClassDataArchive.fingerprint(List.of(jar));

    Files.setLastModifiedTime(jar, FileTime.fromMillis(
        Files.getLastModifiedTime(jar).toMillis() - 60_000));

    assertThat(ClassDataArchive.fingerprint(List.of(jar))).isNotEqualTo(before)
        .contains(System.getProperty("java.vm.version"));
  }

  @Test
  void withNoJarAtTheHeadOfTheClassPathThereIsNothingToArchive() throws IOException,
      InterruptedException {
    Path archive = temporary.resolve("relaycp-class-data/relay-test.jsa");
    ClassDataArchive none = ClassDataArchive.of(archive, temporary.resolve("classes.lst"),
        List.of(temporary));

    List<String> held = new ArrayList<>();

    assertThat(none.refresh(() -> {
      held.add("opened");
      return () -> held.add("closed");
    })).isFalse();
    assertThat(held).as("no dump ran, so no driver is asked to wait").isEmpty();
    assertThat(archive.getParent()).doesNotExist();
  }

  @Test
  void aContainerPutsTheNodesNativeLibrariesFirstOnItsLibraryPath() {
    assertThat(ClassDataArchive.libraryPathAssignment("0123abcd")).isEqualTo(
        "LD_LIBRARY_PATH=${LOCAL_USER_DIRS%%,*}/relaycp-class-data/native-0123abcd"
            + "${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}");
  }

  @Test
  void theRelayJarsNativeLibrariesAreKeptWhereAJvmLoadsBoringSslFromTheLibraryPath()
      throws Exception {
    String library = switch (System.getProperty("os.arch")) {
      case "amd64" -> "netty_tcnative_linux_x86_64";
      case "aarch64" -> "netty_tcnative_linux_aarch_64";
      default -> null;
    };
    Assumptions.assumeTrue(library != null && "Linux".equals(System.getProperty("os.name")),
        "the product carries BoringSSL for Linux on x86-64 and ARM64 only");
    String resource = "META-INF/native/" + System.mapLibraryName(library);
    Path relayJar = temporary.resolve("relay.jar");
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(relayJar))) {
      out.putNextEntry(new JarEntry(resource));
      try (InputStream in = getClass().getClassLoader().getResourceAsStream(resource)) {
        in.transferTo(out);
      }
      out.putNextEntry(new JarEntry("META-INF/native/elsewhere/libnot-this-one.so"));
      out.putNextEntry(new JarEntry("META-INF/native/README.txt"));
      out.closeEntry();
    }
    Path folder = temporary.resolve("relaycp-class-data");
    ClassDataArchive archive = ClassDataArchive.of(folder.resolve("relay-0123abcd.jsa"),
        temporary.resolve("classes.lst"), List.of(relayJar, temporary));

    assertThat(archive.refreshNativeLibraries()).isEqualTo(1);
    assertThat(archive.refreshNativeLibraries()).as("kept already").isZero();
    Path libraries = folder.resolve("native-0123abcd");
    try (var kept = Files.list(libraries)) {
      assertThat(kept.map(path -> path.getFileName().toString()))
          .containsExactly(System.mapLibraryName(library));
    }
    try (var left = Files.list(folder)) {
      assertThat(left).containsExactly(libraries);
    }

    // What Netty tries first: the library by name from java.library.path, which the JVM takes
    // from LD_LIBRARY_PATH. BoringSSL's JNI_OnLoad finds its Java classes on the class path.
    ProcessBuilder child = new ProcessBuilder(java(), "-cp",
        System.getProperty("java.class.path"), LoadLibrary.class.getName(), library)
        .redirectErrorStream(true);
    child.environment().put("LD_LIBRARY_PATH", libraries.toString());
    Process process = child.start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(output).isZero();
    assertThat(output).contains("loaded " + library);
  }

  /** Loads the library named by its argument through java.library.path alone. */
  static final class LoadLibrary {
    public static void main(String[] arguments) {
      System.loadLibrary(arguments[0]);
      System.out.println("loaded " + arguments[0]);
    }
  }

  @Test
  void aJvmStartedWithoutTheOptionsHasNoArchiveToKeep() {
    assertThat(ClassDataArchive.ofThisJvm()).isEmpty();
  }

  @Test
  void aRelayContainersClassPathPutsTheJarsBeforeTheFolders() {
    Configuration configuration = new Configuration(false);
    configuration.set(YarnConfiguration.YARN_APPLICATION_CLASSPATH,
        "$HADOOP_CONF_DIR, /opt/hadoop/share/hadoop/common/*, /opt/extra/x.jar, /etc/extra");

    assertThat(YarnSite.classPath(configuration).split("<CPS>")).containsExactly(
        "{{PWD}}/relaycp.jar", "/opt/hadoop/share/hadoop/common/*", "/opt/extra/x.jar",
        "$HADOOP_CONF_DIR", "/etc/extra", "{{PWD}}");
  }

  /**
   * A dump that hangs is killed at its deadline; a child it leaves behind holding its output
   * does not hold the relay past the dump's own end.
   */
  @Test
  void aDumpThatDoesNotEndInTimeIsKilledAndAChildKeepingItsOutputDoesNotHoldTheRelay()
      throws Exception {
    long started = System.nanoTime();
    assertThatThrownBy(() -> ClassDataArchive.run(List.of("sh", "-c", "echo dumping; sleep 30"),
        Duration.ofSeconds(1)))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("did not end within 1 s");
    assertThat(ClassDataArchive.run(List.of("sh", "-c", "sleep 30 & echo made"),
        Duration.ofSeconds(30))).isEqualTo("made");
    assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started))
        .as("seconds both took, against the 30 s their sleeps would hold a pipe")
        .isLessThan(20);
  }
}
