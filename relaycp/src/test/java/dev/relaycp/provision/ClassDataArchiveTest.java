package dev.relaycp.provision;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** The relays' class-data archive, made and used by real JVMs. */
class ClassDataArchiveTest {
  @TempDir Path temporary;

  /** A small jar of the test's class path: SLF4J's API. */
  private static Path slf4jJar() throws URISyntaxException {
    return Path.of(LoggerFactory.class.getProtectionDomain().getCodeSource().getLocation().toURI());
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
    Path jar = Files.createSymbolicLink(temporary.resolve("first-container.jar"), slf4jJar());
    Path nextContainersLink =
        Files.createSymbolicLink(temporary.resolve("next-container.jar"), slf4jJar());
    Path list = temporary.resolve("classes.lst");
    // The last line is one the relay's JVM had not finished writing: it is left out.
    Files.writeString(list, "org/slf4j/LoggerFactory\norg/slf4j/Logger\norg/slf4j/ILogg",
        StandardCharsets.UTF_8);
    Path archive = temporary.resolve("node/relaycp-class-data/relay-test.jsa");
    ClassDataArchive made = ClassDataArchive.of(archive, list,
        List.of(jar, temporary, temporary.resolve("missing.jar")));

    assertThat(made.refresh()).isTrue();

    assertThat(archive).isRegularFile();
    assertThat(Files.readString(temporary.resolve("node/relaycp-class-data/relay-test.key")))
        .isEqualTo(ClassDataArchive.fingerprint(List.of(jar)));
    assertThat(Files.list(archive.getParent()).map(path -> path.getFileName().toString()))
        .containsExactlyInAnyOrder("relay-test.jsa", "relay-test.key");
    Files.delete(jar);
    // -Xshare:on fails the JVM when it cannot use the archive; the class then comes from it.
    Process process = new ProcessBuilder(java(), "-Xshare:on",
        "-XX:SharedArchiveFile=" + archive, "-Xlog:class+load=info",
        "-cp", nextContainersLink.toString(),
        "org.slf4j.LoggerFactory").redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(output).contains("org.slf4j.LoggerFactory source: shared objects file");
  }

  @Test
  void aJarReplacedInPlaceChangesTheFingerprint() throws Exception {
    Path jar = Files.copy(slf4jJar(), temporary.resolve("api.jar"));
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

    assertThat(none.refresh()).isFalse();
    assertThat(archive.getParent()).doesNotExist();
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
}
