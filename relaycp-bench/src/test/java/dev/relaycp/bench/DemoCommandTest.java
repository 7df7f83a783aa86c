package dev.relaycp.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.relaycp.cli.RelayCpCommand;
import dev.relaycp.cli.RelayCpTool;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The demo as bin/relaycp runs it: through the command line, with captured output. */
class DemoCommandTest {
  record Result(int exitCode, String out, String err) {}

  private static Result run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine commandLine = RelayCpTool.commandLine(new RelayCpCommand(new Configuration()),
        new PrintWriter(out, true), new PrintWriter(err, true), BenchMain::addCommands);
    return new Result(commandLine.execute(args), out.toString(), err.toString());
  }

  /**
   * Where Hadoop's local job runner keeps jobs by default: job folders below its local
   * directory and staging root that it never removes.
   */
  private static Set<String> localJobFolders() throws IOException {
    String user = System.getProperty("user.name");
    Set<String> found = new TreeSet<>();
    for (Path folder : List.of(
        Path.of("/tmp/hadoop-" + user, "mapred", "local", "localRunner", user),
        Path.of("/tmp/hadoop", "mapred", "staging"))) {
      if (Files.isDirectory(folder)) {
        try (Stream<Path> entries = Files.list(folder)) {
          entries.forEach(entry -> found.add(entry.toString()));
        }
      }
    }
    return found;
  }

  @Test
  void theDemoWithYarnRelaysVerifiesEveryFileAndReadsLocally() throws Exception {
    Set<String> jobFoldersBefore = localJobFolders();
    Result result = run("demo", "--relays", "yarn", "--json", "--small-files", "40",
        "--blocks", "12", "-D", "relaycp.yarn.jar=" + System.getProperty("relaycp.product.jar"));

    assertThat(result.exitCode()).as(result.err()).isZero();
    JsonNode json = new ObjectMapper().readTree(result.out());
    assertThat(json.get("provisioner").asText()).isEqualTo("yarn");
    assertThat(json.get("allVerified").asBoolean()).isTrue();
    JsonNode relaycp = json.get("relaycp");
    assertThat(relaycp.get("verifiedFiles").asInt()).isEqualTo(relaycp.get("files").asInt());
    assertThat(relaycp.get("relaysStarted").get("src").asInt()).isEqualTo(2);
    assertThat(relaycp.get("relaysStarted").get("dst").asInt()).isEqualTo(2);
    assertThat(relaycp.get("localReadFraction").asDouble()).isGreaterThanOrEqualTo(0.9);
    assertThat(json.get("distcp").get("verifiedFiles").asInt())
        .isEqualTo(relaycp.get("files").asInt());
    assertThat(localJobFolders()).as("DistCp's local job folders left behind")
        .isSubsetOf(jobFoldersBefore);
  }

  @Test
  void anUnknownProvisionerIsAUserError() {
    Result result = run("demo", "--relays", "ssh");

    assertThat(result.exitCode()).isEqualTo(3);
    assertThat(result.err()).contains("--relays 'ssh' is neither local nor yarn");
  }
}
