package dev.relaycp.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class CopyCommandTest {
  @TempDir Path temporary;

  record Result(int exitCode, String out, String err) {}

  static Result run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = RelayCpTool.commandLine(new RelayCpCommand(new Configuration()),
        new PrintWriter(out, true), new PrintWriter(err, true)).execute(args);
    return new Result(code, out.toString(), err.toString());
  }

  @Test
  void malformedUriIsAOneLineUserError() {
    Result result = run("copy", "hdfs://bad host:x/data", "hdfs://nn:8020/copy",
        "--local-relays", "1");

    assertThat(result.exitCode()).isEqualTo(ExitCodes.USER);
    assertThat(result.err().strip()).startsWith("relaycp: SRC 'hdfs://bad host:x/data' is not a valid URI")
        .contains("write it as hdfs://namenode:port/path")
        .doesNotContain("\n");
  }

  @Test
  void uriWithoutAuthorityIsRejected() {
    Result result = run("copy", "hdfs:/data", "hdfs://nn:8020/copy", "--local-relays", "1");

    assertThat(result.exitCode()).isEqualTo(ExitCodes.USER);
    assertThat(result.err()).contains("needs a scheme, authority and path");
  }

  @Test
  void atomicWithUpdateOrOverwriteIsRefusedBeforeAnythingStarts() {
    Result update = run("copy", "hdfs://nn:8020/a", "hdfs://nn:8020/b", "--local-relays", "1",
        "--atomic", "--update");
    Result overwrite = run("copy", "hdfs://nn:8020/a", "hdfs://nn:8020/b", "--local-relays",
        "1", "--atomic", "--overwrite");

    assertThat(update.exitCode()).isEqualTo(ExitCodes.USER);
    assertThat(update.err()).contains("--atomic").contains("drop --update");
    assertThat(overwrite.exitCode()).isEqualTo(ExitCodes.USER);
    assertThat(overwrite.err()).contains("drop --overwrite");
  }

  @Test
  void noRelaysIsAUserErrorThatSaysHowToGiveThem() {
    Result result = run("copy", "hdfs://nn:8020/a", "hdfs://nn:8020/b");

    assertThat(result.exitCode()).isEqualTo(ExitCodes.USER);
    assertThat(result.err()).contains("pass --local-relays N");
  }

  @Test
  void aRelayPoolGivesTheRelaysAndTheSecretAlone() {
    Result result = run("copy", "hdfs://nn:8020/a", "hdfs://nn:8020/b",
        "--relay-pool", temporary.resolve("pool.json").toString(), "--relays", "127.0.0.1:9");

    assertThat(result.exitCode()).isEqualTo(ExitCodes.USER);
    assertThat(result.err().strip()).isEqualTo("relaycp: --relay-pool gives the copy its relays"
        + " and their secret; drop --relays");
  }

  @Test
  void aRelayPoolFileThatDoesNotExistIsAOneLineUserErrorThatSaysHowToStartOne() {
    Path pool = temporary.resolve("pool.json");

    Result result = run("copy", "hdfs://nn:8020/a", "hdfs://nn:8020/b",
        "--relay-pool", pool.toString(), "--no-progress");

    assertThat(result.exitCode()).isEqualTo(ExitCodes.USER);
    assertThat(result.err().strip()).startsWith("relaycp: relay pool file " + pool
        + " does not exist; start a pool with `relaycp relay-pool --pool-file " + pool + "`")
        .doesNotContain("\n");
  }

  @Test
  void unreachableDestinationIsAnExternalErrorAndTouchesNothing() throws Exception {
    Path source = Files.createDirectories(temporary.resolve("source"));
    Files.writeString(source.resolve("a.txt"), "hello");
    Path secret = temporary.resolve("secret");
    writeSecret(secret);

    Result result = run("copy", "-D", "ipc.client.connect.max.retries=0",
        "-D", "ipc.client.connect.timeout=2000",
        source.toUri().toString(), "hdfs://127.0.0.1:1/copy",
        "--relays", "127.0.0.1:9", "--secret-file", secret.toString(), "--no-progress");

    assertThat(result.exitCode()).isEqualTo(ExitCodes.EXTERNAL);
    assertThat(result.err().strip()).startsWith("relaycp: ").contains("127.0.0.1:1")
        .doesNotContain("\n");
    assertThat(Files.readString(source.resolve("a.txt"))).isEqualTo("hello");
  }

  @Test
  void missingSourceIsAUserError() throws Exception {
    Path secret = temporary.resolve("secret");
    writeSecret(secret);

    Result result = run("copy", temporary.resolve("absent").toUri().toString(),
        temporary.resolve("copy").toUri().toString(),
        "--relays", "127.0.0.1:9", "--secret-file", secret.toString());

    assertThat(result.exitCode()).isEqualTo(ExitCodes.USER);
    assertThat(result.err()).contains("does not exist; check the path");
    assertThat(Files.exists(temporary.resolve("copy"))).isFalse();
  }

  private static void writeSecret(Path file) throws IOException {
    Files.writeString(file, "00112233445566778899aabbccddeeff");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
  }

  @Test
  void aSecretFileOthersCanReadIsAWarning() throws Exception {
    Path secret = temporary.resolve("open-secret");
    Files.writeString(secret, "00112233445566778899aabbccddeeff");
    Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-r--r--"));

    Result result = run("copy", temporary.resolve("absent").toUri().toString(),
        temporary.resolve("copy").toUri().toString(),
        "--relays", "127.0.0.1:9", "--secret-file", secret.toString());

    assertThat(result.err()).contains("relaycp: warning: secret file " + secret
        + " is readable by others (rw-r--r--)").contains("chmod 600");
  }

  @Test
  void aBadRelaySettingIsAUserErrorNamingItsKeyBeforeAnyRelayStarts() {
    Result result = run("copy", "-D", "relaycp.relay.bytes-per-second-limit=1MB/s",
        "hdfs://nn:8020/a", "hdfs://nn:8020/b", "--local-relays", "1");

    assertThat(result.exitCode()).isEqualTo(ExitCodes.USER);
    assertThat(result.err().strip())
        .startsWith("relaycp: relaycp.relay.bytes-per-second-limit must be a size in bytes")
        .contains("got '1MB/s'").doesNotContain("\n");
  }

  @Test
  void aReportInAFolderThatDoesNotExistIsRefusedBeforeTheCopy() {
    Path report = temporary.resolve("no-such-folder").resolve("report.json");

    Result result = run("copy", "hdfs://nn:8020/a", "hdfs://nn:8020/b", "--local-relays", "1",
        "--report", report.toString());

    assertThat(result.exitCode()).isEqualTo(ExitCodes.USER);
    assertThat(result.err()).contains("--report " + report)
        .contains("does not exist or is not writable");
  }

  @Test
  void pairsOptionsAreCheckedBeforeAnythingStarts() {
    String[][] cases = {
        {"--pairs", "0"},
        {"--pairs", "many"},
        {"--pairs", "auto", "--relays", "127.0.0.1:9", "--secret-file", "s"},
        {"--local-relays", "1", "--pairs", "2"},
        {"--local-relays", "1", "--budget", "1"},
        {"--pairs", "2", "--objective", "fastest"},
        {"--pairs", "auto", "--objective", "quickest"},
        {"--pairs", "auto", "--dst-datanodes", "0"},
    };
    String[] fixes = {
        "--pairs '0' is neither auto nor a number of 1 or more; e.g. --pairs 2",
        "--pairs 'many' is neither auto nor a number of 1 or more; e.g. --pairs 2",
        "--pairs starts relays here but --relays names running ones; use one of them",
        "--local-relays N is --pairs N; give only one of them",
        "steer --pairs auto; add --pairs auto or drop them",
        "steer --pairs auto; add --pairs auto or drop them",
        "unknown --objective 'quickest'; use fastest, cheapest or balanced",
        "--src-datanodes and --dst-datanodes must be 1 or more, got 0",
    };
    for (int index = 0; index < cases.length; index++) {
      List<String> arguments = new ArrayList<>(List.of("copy", "hdfs://nn:8020/a", "hdfs://nn:8020/b"));
      arguments.addAll(List.of(cases[index]));
      Result result = run(arguments.toArray(String[]::new));
      assertThat(result.exitCode()).as(String.join(" ", cases[index])).isEqualTo(ExitCodes.USER);
      assertThat(result.err().strip()).as(String.join(" ", cases[index]))
          .startsWith("relaycp: ").contains(fixes[index]).doesNotContain("\n");
    }
  }

  @Test
  void everyCommandHasHelp() {
    for (String command : new String[] {"copy", "relay", "plan", "probe"}) {
      Result result = run(command, "--help");
      assertThat(result.exitCode()).as(command).isZero();
      assertThat(result.out()).as(command).contains("Usage: relaycp " + command);
    }
  }

  @Test
  void anUnreachableResourceManagerIsAnExternalErrorWithinTheStartTimeout() throws Exception {
    Path source = Files.createDirectories(temporary.resolve("source"));
    // Empty: a local file with bytes is refused first, file:// having no checksums.
    Files.createFile(source.resolve("a.txt"));
    Path conf = Files.createDirectories(temporary.resolve("conf"));
    Files.writeString(conf.resolve("yarn-site.xml"), "<configuration><property>"
        + "<name>yarn.resourcemanager.address</name><value>127.0.0.1:1</value>"
        + "</property></configuration>");
    Path staging = temporary.resolve("staging");

    long started = System.nanoTime();
    Result result = run("copy", source.toUri().toString(),
        temporary.resolve("copy").toUri().toString(), "--relays", "yarn",
        "--src-conf", conf.toString(), "--dst-conf", conf.toString(),
        "-D", "relaycp.yarn.start-timeout-seconds=3",
        "-D", "relaycp.yarn.staging-dir=" + staging.toUri(),
        "-D", "relaycp.yarn.jar=" + productJarLookalike(), "--no-progress");
    Duration took = Duration.ofNanos(System.nanoTime() - started);

    assertThat(result.exitCode()).as(result.err()).isEqualTo(ExitCodes.EXTERNAL);
    // Both sites' attempts (one ResourceManager address, so one after the other) take about
    // 4 s; with YARN's own IPC retries inside each attempt they took 40 s.
    assertThat(took).as("time to give up on a closed ResourceManager port with a 3 s timeout")
        .isLessThan(Duration.ofSeconds(20));
    assertThat(result.err().strip()).startsWith("relaycp: starting relays on the src cluster")
        .contains("127.0.0.1:1").doesNotContain("\n");
    assertThat(temporary.resolve("copy")).doesNotExist();
    // The application is asked for before anything is staged: a ResourceManager that cannot be
    // reached leaves no file behind, not even the relay jar kept for later copies.
    if (Files.exists(staging)) {
      try (var left = Files.walk(staging)) {
        assertThat(left.filter(Files::isRegularFile)).as("staged files left").isEmpty();
      }
    }
  }

  @Test
  void yarnOptionsAreCheckedTogether() {
    // YARN on one site across from running relays on the other: those need their secret.
    Result mixed = run("copy", "hdfs://nn:8020/a", "hdfs://nn:8020/b", "--relays", "yarn",
        "--dst-relays", "dn1:7070");
    assertThat(mixed.exitCode()).isEqualTo(ExitCodes.USER);
    assertThat(mixed.err()).contains("need --secret-file");
    Result reversed = run("copy", "hdfs://nn:8020/a", "hdfs://nn:8020/b", "--relays",
        "dn1:7070", "--dst-relays", "yarn");
    assertThat(reversed.exitCode()).isEqualTo(ExitCodes.USER);
    assertThat(reversed.err()).contains("need --secret-file");
    Result noSource = run("copy", "hdfs://nn:8020/a", "hdfs://nn:8020/b", "--dst-relays",
        "yarn");
    assertThat(noSource.exitCode()).isEqualTo(ExitCodes.USER);
    assertThat(noSource.err()).contains("--dst-relays yarn needs --relays too");
    assertThat(run("copy", "hdfs://nn:8020/a", "hdfs://nn:8020/b", "--relays", "yarn",
        "--dst-relays", "yarn,dn1:7070", "--secret-file", "/etc/hostname").err())
        .contains("need running source relays beside --relays yarn");
    assertThat(run("copy", "hdfs://nn:8020/a", "hdfs://nn:8020/b", "--local-relays", "1",
        "--src-conf", "/etc").err()).contains("steer the relays YARN starts");
    Result missing = run("copy", "hdfs://nn:8020/a", "hdfs://nn:8020/b", "--relays", "yarn",
        "--src-conf", temporary.resolve("absent").toString());
    assertThat(missing.exitCode()).isEqualTo(ExitCodes.USER);
    assertThat(missing.err()).contains("configuration folder").contains("does not exist");
  }

  /** A client configuration folder whose default file system is {@code defaultFs}. */
  private Path confFolder(String name, String defaultFs, String nameservices) throws Exception {
    Path folder = Files.createDirectories(temporary.resolve(name));
    Files.writeString(folder.resolve("core-site.xml"), "<configuration><property>"
        + "<name>fs.defaultFS</name><value>" + defaultFs + "</value></property>"
        + "</configuration>");
    Files.writeString(folder.resolve("hdfs-site.xml"), "<configuration><property>"
        + "<name>dfs.nameservices</name><value>" + nameservices + "</value></property>"
        + "</configuration>");
    return folder;
  }

  @Test
  void configurationFoldersCrossedWithSrcAndDstAreRefusedBeforeAnythingStarts()
      throws Exception {
    Path clusterA = confFolder("conf.a", "hdfs://nn-a:8020", "");
    Path clusterB = confFolder("conf.b", "hdfs://ns-b", "ns-b,ns-b2");

    Result swapped = run("copy", "hdfs://nn-a:8020/data", "hdfs://ns-b/data", "--relays",
        "yarn", "--src-conf", clusterB.toString(), "--dst-conf", clusterA.toString(),
        "--no-progress");
    Result sourceCrossed = run("copy", "hdfs://NN-A/data", "hdfs://nn-z/data", "--relays",
        "yarn", "--dst-conf", clusterA.toString(), "--no-progress");
    Result destinationCrossed = run("copy", "hdfs://nn-c/data", "hdfs://ns-b2/data",
        "--relays", "yarn", "--src-conf", clusterB.toString(), "--dst-conf",
        clusterA.toString(), "--no-progress");

    assertThat(swapped.exitCode()).as(swapped.err()).isEqualTo(ExitCodes.USER);
    assertThat(swapped.err().strip()).isEqualTo("relaycp: --src-conf " + clusterB
        + " describes DST's cluster and --dst-conf " + clusterA + " SRC's: they are swapped;"
        + " give --src-conf SRC's cluster's configuration folder and --dst-conf DST's");
    assertThat(sourceCrossed.exitCode()).as(sourceCrossed.err()).isEqualTo(ExitCodes.USER);
    assertThat(sourceCrossed.err()).contains("SRC's cluster (nn-a:8020) is the one --dst-conf "
        + clusterA + " describes, not this process's configuration (no --src-conf)");
    assertThat(destinationCrossed.exitCode()).as(destinationCrossed.err())
        .isEqualTo(ExitCodes.USER);
    assertThat(destinationCrossed.err()).contains("DST's cluster (ns-b2:8020) is the one"
        + " --src-conf " + clusterB + " describes, not --dst-conf " + clusterA);
  }

  @Test
  void foldersThatDescribeTheirOwnClustersOrNeitherArePassed() throws Exception {
    Path clusterA = confFolder("conf.a", "hdfs://nn-a:8020", "");
    Path clusterB = confFolder("conf.b", "hdfs://ns-b", "ns-b,ns-b2");
    CopyCommand copy = new CopyCommand();
    new CommandLine(copy).parseArgs("hdfs://nn-a:8020/data", "hdfs://ns-b2/data",
        "--relays", "yarn", "--src-conf", clusterA.toString(), "--dst-conf", clusterB.toString());

    assertThatCode(() -> copy.relayOptions.checkSites(URI.create("hdfs://nn-a:8020/data"),
        URI.create("hdfs://ns-b2/data"), new Configuration())).doesNotThrowAnyException();
    assertThatCode(() -> copy.relayOptions.checkSites(URI.create("hdfs://10.0.0.5:8020/data"),
        URI.create("hdfs://ns-b/data"), new Configuration())).doesNotThrowAnyException();
  }

  /** A jar with the entry that marks the product jar; nothing runs it in these tests. */
  private Path productJarLookalike() throws Exception {
    Path jar = temporary.resolve("relaycp-lookalike.jar");
    try (var out = new JarOutputStream(Files.newOutputStream(jar))) {
      out.putNextEntry(new JarEntry("dev/relaycp/shaded/picocli/CommandLine.class"));
      out.closeEntry();
    }
    return jar;
  }
}
