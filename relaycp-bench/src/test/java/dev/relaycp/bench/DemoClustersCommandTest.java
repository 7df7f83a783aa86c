package dev.relaycp.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.relaycp.cli.RelayCpCommand;
import dev.relaycp.cli.RelayCpTool;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** demo-clusters: up with the dataset once it prints its line, down once its input ends. */
class DemoClustersCommandTest {
  @Test
  void theClustersServeTheDatasetUntilStandardInputCloses() throws Exception {
    PipedOutputStream stdin = new PipedOutputStream();
    PipedInputStream commandInput = new PipedInputStream(stdin);
    PipedInputStream stdout = new PipedInputStream();
    PrintWriter commandOutput = new PrintWriter(
        new java.io.OutputStreamWriter(new PipedOutputStream(stdout), StandardCharsets.UTF_8),
        true);
    StringWriter err = new StringWriter();
    CommandLine commandLine = RelayCpTool.commandLine(new RelayCpCommand(new Configuration()),
        commandOutput, new PrintWriter(err, true), line -> { });
    commandLine.addSubcommand(new DemoClustersCommand(commandInput));
    commandLine.setOut(commandOutput);
    CompletableFuture<Integer> run = CompletableFuture.supplyAsync(
        () -> commandLine.execute("demo-clusters", "--small-files", "3", "--blocks", "2"));

    String ready = new BufferedReader(new InputStreamReader(stdout, StandardCharsets.UTF_8))
        .readLine();
    JsonNode clusters = new ObjectMapper().readTree(ready);
    URI source = URI.create(clusters.get("source").asText());
    Configuration configuration = new Configuration();
    configuration.setInt("ipc.client.connect.max.retries", 0);
    FileSystem fileSystem = FileSystem.newInstance(source, configuration);
    assertThat(fileSystem.getContentSummary(new Path(clusters.get("dataset").asText()))
        .getFileCount()).isEqualTo(clusters.get("files").asLong()).isEqualTo(7);
    assertThat(clusters.get("destination").asText()).startsWith("hdfs://")
        .isNotEqualTo(clusters.get("source").asText());

    stdin.close();

    assertThat(run.get(60, TimeUnit.SECONDS)).as(err.toString()).isZero();
    assertThatThrownBy(() -> fileSystem.getFileStatus(new Path("/demo")))
        .isInstanceOf(java.io.IOException.class);
    fileSystem.close();
  }
}
