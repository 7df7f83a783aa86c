package dev.relaycp.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.relaycp.error.ErrorCategory;
import dev.relaycp.error.RelayCpException;
import dev.relaycp.plan.CopyOverheads;
import dev.relaycp.plan.DataRate;
import dev.relaycp.plan.MachineType;
import dev.relaycp.plan.RelayCatalog;
import dev.relaycp.plan.ThroughputHistory;
import dev.relaycp.plan.ThroughputHistoryFile;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class PlanCommandTest {
  @TempDir Path temporary;

  /** Output and exit code of one run; user errors exit 3 as the real exception mapper does. */
  private record Run(int exitCode, String output) {}

  private Run run(String... arguments) {
    StringWriter text = new StringWriter();
    PrintWriter writer = new PrintWriter(text);
    CommandLine commandLine =
        new CommandLine(new PlanCommand())
            .setOut(writer)
            .setErr(writer)
            .setExecutionExceptionHandler(
                (exception, command, parseResult) -> {
                  if (exception instanceof RelayCpException relayCp
                      && relayCp.code().category() == ErrorCategory.USER) {
                    command.getErr().println("relaycp: " + exception.getMessage());
                    return 3;
                  }
                  throw exception;
                });
    List<String> withHistory = new ArrayList<>(List.of(arguments));
    withHistory.add("--history=" + temporary.resolve("history.json"));
    int exitCode = commandLine.execute(withHistory.toArray(String[]::new));
    writer.flush();
    return new Run(exitCode, text.toString());
  }

  private static JsonNode json(Run run) throws Exception {
    return new ObjectMapper().readTree(run.output());
  }

  @Test
  void thesisWhatIfPrintsEquation34AgainstTheSequentialCopy() throws Exception {
    Run run =
        run("--what-if", "--model", "thesis", "--size", "8GiB", "--boot-seconds", "90",
            "--internal", "90MiB/s", "--external", "15MiB/s", "--pairs", "0-8", "--json");
    assertThat(run.exitCode()).as(run.output()).isZero();
    JsonNode plan = json(run);
    assertThat(plan.get("model").asText()).isEqualTo("thesis");
    JsonNode rows = plan.get("rows");
    assertThat(rows).hasSize(9);
    assertThat(rows.get(0).get("pairs").asInt()).isZero();
    assertThat(rows.get(0).get("seconds").asDouble()).isEqualTo(546.1);
    assertThat(rows.get(0).get("dollars").asDouble()).isEqualTo(0.16);
    assertThat(rows.get(0).get("speedupVsSequential").asDouble()).isEqualTo(1.0);
    assertThat(rows.get(4).get("pairs").asInt()).isEqualTo(4);
    assertThat(rows.get(4).get("seconds").asDouble()).isEqualTo(408.6);
    assertThat(rows.get(4).get("speedupVsSequential").asDouble()).isEqualTo(1.337);
    assertThat(rows.get(4).get("dollars").asDouble()).isEqualTo(0.2021);
    assertThat(rows.get(1).get("seconds").asDouble()).isEqualTo(818.2);
    assertThat(rows.get(8).get("seconds").asDouble()).isEqualTo(340.3);
    assertThat(rows.get(4).get("speedupVsDistcp").asDouble())
        .isCloseTo(plan.get("distcpSeconds").asDouble() / 408.578, within(0.002));
    assertThat(plan.get("sequentialSeconds").asDouble()).isEqualTo(546.1);
    assertThat(plan.get("chosen").get("pairs").asInt()).isEqualTo(5);
    assertThat(plan.get("chosen").get("reason").asText()).startsWith("balanced: p = 5");
    assertThat(plan.get("pretest").get("pays").asBoolean()).isFalse();
  }

  @Test
  void decimalAndBinaryUnitsDiffer() throws Exception {
    // 8 GB = 8e9 bytes = 7629.4 MiB; at 15 MB/s (15e6 B/s) that is 533.3 s.
    Run run =
        run("--what-if", "--model", "thesis", "--size", "8GB", "--external", "15MB/s", "--pairs", "0", "--json");
    assertThat(run.exitCode()).as(run.output()).isZero();
    assertThat(json(run).get("rows").get(0).get("seconds").asDouble()).isEqualTo(533.3);
  }

  @Test
  void tableMarksTheChosenRowAndSaysWhy() {
    Run run =
        run("--what-if", "--model", "thesis", "--size", "8GiB", "--pairs", "0-8", "--objective",
            "fastest", "--budget", "0.20");
    assertThat(run.exitCode()).as(run.output()).isZero();
    assertThat(run.output())
        .contains("pairs  VM type")
        .containsPattern("\\*\\s+3  what-if\\s+6\\s+454\\.1\\s+0\\.1951")
        .contains("chosen: p = 3 (fastest within $0.2000: p = 3 takes 454.1 s for $0.1951)")
        .contains("pre-testing does not pay");
  }

  @Test
  void relaycpModelIsTheDefaultAndUsesTheCatalogType() throws Exception {
    Run run =
        run("--what-if", "--size", "8GiB", "--files", "64", "--source-nodes", "2",
            "--destination-nodes", "2", "--vm-type", "t2.micro", "--json");
    assertThat(run.exitCode()).as(run.output()).isZero();
    JsonNode plan = json(run);
    assertThat(plan.get("model").asText()).isEqualTo("relaycp");
    assertThat(plan.get("machine").get("vmType").asText()).isEqualTo("t2.micro");
    assertThat(plan.get("rows").get(2).get("vmType").asText()).isEqualTo("t2.micro");
    // Two datanodes at 15 MiB/s move 8 GiB in 273 s plus overheads; relays only help.
    double none = plan.get("rows").get(0).get("seconds").asDouble();
    assertThat(none).isBetween(273.0, 280.0);
    assertThat(plan.get("rows").get(4).get("seconds").asDouble()).isLessThan(none);
    assertThat(plan.get("notes").get(0).asText()).contains("from the catalog").contains("Table 5.4");
  }

  @Test
  void measuredHistoryReplacesCatalogFigures() throws Exception {
    RelayCatalog catalog = RelayCatalog.load(Path.of("..", "conf", RelayCatalog.FILE_NAME));
    MachineType micro = catalog.find("aws/t2.micro");
    ThroughputHistoryFile.record(
        temporary.resolve("history.json"),
        ThroughputHistory.machineKey(micro, ThroughputHistory.Direction.EXTERNAL),
        DataRate.ofMebibytesPerSecond(20),
        Instant.parse("2024-01-01T00:00:00Z"));
    Run run = run("--what-if", "--size", "8GiB", "--vm-type", "aws/t2.micro", "--json");
    assertThat(run.exitCode()).as(run.output()).isZero();
    JsonNode plan = json(run);
    assertThat(plan.get("machine").get("externalMebibytesPerSecond").asDouble()).isEqualTo(20.0);
    assertThat(plan.get("notes").get(0).asText()).contains("measured").contains("WAN 20.00 MiB/s");
  }

  @Test
  void noHistoryPlansFromTheCatalogAlone() throws Exception {
    RelayCatalog catalog = RelayCatalog.load(Path.of("..", "conf", RelayCatalog.FILE_NAME));
    MachineType micro = catalog.find("aws/t2.micro");
    ThroughputHistoryFile.record(
        temporary.resolve("history.json"),
        ThroughputHistory.machineKey(micro, ThroughputHistory.Direction.EXTERNAL),
        DataRate.ofMebibytesPerSecond(20),
        Instant.parse("2024-01-01T00:00:00Z"));

    JsonNode plan = json(run("--what-if", "--size", "8GiB", "--vm-type", "aws/t2.micro",
        "--no-history", "--json"));

    assertThat(plan.get("machine").get("externalMebibytesPerSecond").asDouble())
        .isEqualTo(Math.round(micro.external().mebibytesPerSecond() * 1000) / 1000.0);
    assertThat(plan.get("notes").get(0).asText()).startsWith("figures of aws/t2.micro from the catalog");
  }

  @Test
  void histogramOfFewHugeAndManySmallFiles() throws Exception {
    Run run =
        run("--what-if", "--model", "distcp", "--file-sizes", "2x4GiB,1000x1MiB", "--pairs", "0-2", "--json");
    assertThat(run.exitCode()).as(run.output()).isZero();
    assertThat(json(run).get("rows")).hasSize(3);
  }

  @Test
  void helpNamesDecimalAndBinaryUnits() {
    Run run = run("--help");
    assertThat(run.exitCode()).isZero();
    assertThat(run.output()).contains("powers of 1000").contains("powers of 1024").contains("--what-if");
  }

  @Test
  void bytesOnOneDatanodeHoldSpawnedRelaysToThatDatanodesLink() throws Exception {
    String[] copy = {"--what-if", "--json", "--size", "8GiB", "--files", "64", "--pairs", "0-4",
        "--source-nodes", "3", "--destination-nodes", "3", "--external", "5MB/s",
        "--internal", "20MB/s"};
    JsonNode even = json(run(copy));
    List<String> oneNode = new ArrayList<>(Arrays.asList(copy));
    oneNode.addAll(List.of("--placement", "one"));
    JsonNode one = json(run(oneNode.toArray(String[]::new)));

    // Without spawned relays the other datanodes' relays fetch from the one in-site, within
    // its 20 MB/s link: no slower than spread. Four spawned pairs join after their 90 s boot;
    // from then on even bytes move at 7 x 5 MB/s, bytes on one node at its link's 20 MB/s:
    // 90 + (8.59 GB - 90 x 15 MB/s) / 35 against / 20, 1.5 times as long before the overheads
    // both pay. One more pair stops paying after the first, and the planner sees it.
    double evenNone = even.get("rows").get(0).get("seconds").asDouble();
    assertThat(one.get("rows").get(0).get("seconds").asDouble()).isCloseTo(evenNone, within(1.0));
    double evenFour = even.get("rows").get(4).get("seconds").asDouble();
    double oneFour = one.get("rows").get(4).get("seconds").asDouble();
    assertThat(oneFour / evenFour).isBetween(1.4, 1.6);
    assertThat(even.get("chosen").get("pairs").asInt()).isEqualTo(4);
    assertThat(one.get("chosen").get("pairs").asInt()).isEqualTo(1);
  }

  @Test
  void placementIsAWhatIfOptionAndMustFitTheSource() {
    Run live = run("hdfs://a/x", "hdfs://b/y", "--placement", "one");
    assertThat(live.exitCode()).isEqualTo(3);
    assertThat(live.output()).contains("--placement describes a --what-if copy");
    Run wrongCount = run("--what-if", "--size", "8GiB", "--source-nodes", "3", "--placement",
        "1GiB,1GiB");
    assertThat(wrongCount.exitCode()).isEqualTo(3);
    assertThat(wrongCount.output())
        .contains("--placement names 2 datanode(s) but the source has 3");
  }

  @Test
  void zeroOrNegativeThroughputIsAUserError() {
    Run zero = run("--what-if", "--size", "8GiB", "--external", "0MiB/s");
    assertThat(zero.exitCode()).isEqualTo(3);
    assertThat(zero.output()).contains("throughput '0MiB/s' is not positive; give a rate above 0");
    Run negative = run("--what-if", "--size", "8GiB", "--internal", "-90MiB/s");
    assertThat(negative.exitCode()).isEqualTo(3);
    assertThat(negative.output()).contains("throughput '-90MiB/s' is not positive");
  }

  @Test
  void measuredOverheadsChangeTheModelsTheyBelongTo() throws Exception {
    String[] smallFiles = {"--what-if", "--json", "--file-sizes", "5000x64KiB", "--pairs", "0",
        "--source-nodes", "3", "--destination-nodes", "3", "--external", "5MB/s"};
    double relaycp = seconds(run(smallFiles));
    double slowerCommit = seconds(run(concat(smallFiles, "--relaycp-commit-seconds", "0.011")));
    // 5000 files, 10 ms more each: 50 s more, after the data.
    assertThat(slowerCommit - relaycp).isCloseTo(50, within(1e-6));
    // Each of them is one chunk, verified while the copy runs: nothing after the data.
    assertThat(seconds(run(concat(smallFiles, "--relaycp-verify-seconds", "0.011"))))
        .isCloseTo(relaycp, within(1e-6));
    String[] distcp = concat(smallFiles, "--model", "distcp", "--distcp-maps", "6",
        "--distcp-slots-per-node", "2", "--distcp-file-seconds", "0.3");
    assertThat(seconds(run(concat(distcp, "--distcp-concurrent-files", "3"))))
        .isGreaterThan(seconds(run(distcp)) + 200);
    Run bad = run(concat(distcp, "--distcp-concurrent-files", "0.5"));
    assertThat(bad.exitCode()).isEqualTo(3);
    assertThat(bad.output()).contains("concurrent files 0.5 must be 1 or more, or 0 for no limit");
    // On 2 shared cores at 0.2 CPU-s a file the maps need 500 s for the 5000 files, after the
    // default job (20 s) and task (4 s) start-ups; without shared cores the figure is not used.
    String[] cpu = concat(distcp, "--distcp-cpu-seconds-per-file", "0.2");
    assertThat(seconds(run(concat(cpu, "--shared-cores", "2")))).isCloseTo(524, within(1e-6));
    assertThat(seconds(run(cpu))).isCloseTo(seconds(run(distcp)), within(1e-6));
    Run negative = run(concat(distcp, "--distcp-cpu-seconds-per-file", "-1"));
    assertThat(negative.exitCode()).isEqualTo(3);
    assertThat(negative.output()).contains("DistCp's CPU seconds a file -1.0 must be");
    // Half a core kept busy by the job itself leaves the files 1.5: 5000 x 0.2 / 1.5 s (the
    // JSON gives tenths of a second).
    assertThat(seconds(run(concat(cpu, "--shared-cores", "2", "--distcp-background-cores",
        "0.5")))).isCloseTo(24 + 1000 / 1.5, within(0.05));
    Run allCores = run(concat(cpu, "--shared-cores", "2", "--distcp-background-cores", "2"));
    assertThat(allCores.exitCode()).isEqualTo(3);
    assertThat(allCores.output()).contains("give --distcp-background-cores below --shared-cores");
  }

  @Test
  void relaysYarnStartsLaterByTheContainersStartUnlessTheStartIsGiven() throws Exception {
    String[] copy = {"--what-if", "--json", "--size", "8GiB", "--files", "64", "--pairs", "0",
        "--source-nodes", "3", "--destination-nodes", "3", "--external", "5MB/s"};
    double running = seconds(run(copy));
    assertThat(seconds(run(concat(copy, "--relays", "running")))).isEqualTo(running);
    assertThat(seconds(run(concat(copy, "--relays", "yarn"))) - running)
        .isCloseTo(CopyOverheads.YARN_RELAYS_START_SECONDS, within(1e-6));
    // A start measured with YARN's relays (the lab's probes) already holds their containers'.
    assertThat(seconds(run(concat(copy, "--relays", "yarn", "--relaycp-start-seconds", "9"))))
        .isCloseTo(running - CopyOverheads.DEFAULT_START_SECONDS + 9, within(1e-6));
    Run bad = run(concat(copy, "--relays", "hand"));
    assertThat(bad.exitCode()).isEqualTo(3);
    assertThat(bad.output())
        .contains("plan --relays 'hand' is not a way relays start; give running or yarn");
  }

  @Test
  void theRouteWindowIsTheCopysAsConfigured() throws Exception {
    String[] smallFiles = {"--what-if", "--json", "--file-sizes", "5000x64KiB", "--pairs", "0",
        "--source-nodes", "3", "--destination-nodes", "3", "--external", "50MB/s",
        "--relaycp-file-seconds", "0.05"};
    double defaultWindow = seconds(run(smallFiles));
    // One file at a time a route: each pays its file cost alone, 5000 x 0.05 s over 3 routes.
    double oneChunk = seconds(run(concat(
        new String[] {"-D", "relaycp.copy.chunks-in-flight-per-route=1"}, smallFiles)));
    assertThat(oneChunk).isGreaterThan(defaultWindow + 40);
    // A byte window of one 64 KiB file holds a route to one file at a time as well.
    assertThat(seconds(run(concat(
        new String[] {"-D", "relaycp.copy.bytes-in-flight-per-route=64KiB"}, smallFiles))))
        .isCloseTo(oneChunk, within(1e-6));
  }

  @Test
  void spawnedRelaysThatPayMorePerFileCopySmallFilesSlower() throws Exception {
    String[] smallFiles = {"--what-if", "--json", "--file-sizes", "5000x64KiB", "--pairs", "2",
        "--source-nodes", "3", "--destination-nodes", "3", "--external", "5MB/s",
        "--boot-seconds", "0", "--relaycp-file-seconds", "0.2", "--relaycp-concurrent-files", "8"};
    assertThat(seconds(run(concat(smallFiles, "--relaycp-spawned-file-factor", "3"))))
        .isGreaterThan(seconds(run(smallFiles)) + 10);
    Run bad = run(concat(smallFiles, "--relaycp-spawned-file-factor", "0"));
    assertThat(bad.exitCode()).isEqualTo(3);
    assertThat(bad.output()).contains("spawned relays' file cost factor 0.0 must be a finite number above 0");
  }

  @Test
  void onSharedCoresSpawnedRelaysCostTheCopyTheirCpu() throws Exception {
    String[] smallFiles = {"--what-if", "--json", "--file-sizes", "5000x64KiB", "--pairs", "2",
        "--source-nodes", "3", "--destination-nodes", "3", "--external", "5MB/s",
        "--boot-seconds", "0", "--relaycp-file-seconds", "0.2", "--relaycp-concurrent-files", "8"};
    // Eight lanes on two cores; four spawned relays of 10 CPU-s take 40 CPU-s, 20 s of both.
    double shared = seconds(run(concat(smallFiles, "--shared-cores", "2",
        "--relaycp-spawned-cpu-seconds", "10", "--relaycp-spawned-start-cpu-seconds", "2")));
    assertThat(shared - seconds(run(smallFiles))).isGreaterThan(15);
    Run bad = run(concat(smallFiles, "--shared-cores", "-1"));
    assertThat(bad.exitCode()).isEqualTo(3);
    assertThat(bad.output()).contains("shared cores -1.0 must be a finite number of 0 or more");
  }

  /** The WAN lab's S (5,000 files of 64 KiB) as its report priced it. */
  private static final String[] LAB_SMALL_FILES = {"--what-if", "--json", "--source-nodes", "3",
      "--destination-nodes", "3", "--internal", "42.627MB/s", "--external", "4.732MB/s",
      "--block-size", "33554432", "--chunk-size", "33554432", "--relaycp-commit-seconds", "0.0009",
      "--relaycp-verify-seconds", "0.0017", "--relaycp-concurrent-files", "27.2",
      "--relaycp-start-seconds", "15.6", "--relaycp-file-seconds", "0.301", "--model", "relaycp",
      "--boot-seconds", "20", "--file-sizes", "5000x65536"};

  /** The lab's two cores and what a spawned relay cost them in its start-up probe. */
  private static final String[] LAB_SHARED_CORES = {"--shared-cores", "2",
      "--relaycp-spawned-cpu-seconds", "11.95"};

  @Test
  @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void aSpawnedStartEndingWithinRoundingOfItsGateDoesNotStallThePlanner() throws Exception {
    // With a 3.5 CPU-s start at k = 1 the start's end fell a few 1e-14 lane-seconds short of
    // the gate, too little to change the 230 lane-s left, and the simulation once stepped by
    // that remainder for ever.
    assertThat(seconds(run(concat(concat(LAB_SMALL_FILES, LAB_SHARED_CORES),
        "--relaycp-spawned-start-cpu-seconds", "3.5", "--pairs", "1")))).isBetween(80.0, 100.0);
  }

  @Test
  @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void onSharedCoresThePlanSaysTheSpawnedRelaysCpuIsWhatTheyCannotPayBack() throws Exception {
    Run run = run(concat(concat(LAB_SMALL_FILES, LAB_SHARED_CORES),
        "--relaycp-spawned-start-cpu-seconds", "3.5", "--pairs", "0-3", "--objective", "fastest"));
    assertThat(run.exitCode()).as(run.output()).isZero();
    JsonNode chosen = json(run).get("chosen");
    assertThat(chosen.get("pairs").asInt()).isZero();
    assertThat(chosen.get("reason").asText()).endsWith("no p above 0 is faster: relays cannot pay"
        + " back their boot time, up to 12.0 CPU-s each spawned relay takes from the copy's work on"
        + " the 2 cores all hosts share, and the internal transfers on this copy");
    Run ownCores = run(concat(LAB_SMALL_FILES, "--pairs", "0-3", "--objective", "fastest"));
    assertThat(ownCores.exitCode()).as(ownCores.output()).isZero();
    assertThat(json(ownCores).get("chosen").get("reason").asText()).doesNotContain("cores");
  }

  private static double seconds(Run run) throws Exception {
    assertThat(run.exitCode()).as(run.output()).isZero();
    return json(run).get("rows").get(0).get("seconds").asDouble();
  }

  private static String[] concat(String[] first, String... more) {
    String[] all = Arrays.copyOf(first, first.length + more.length);
    System.arraycopy(more, 0, all, first.length, more.length);
    return all;
  }

  @Test
  void unknownVmTypeIsAUserError() {
    Run run = run("--what-if", "--size", "8GiB", "--vm-type", "m9.huge");
    assertThat(run.exitCode()).isEqualTo(3);
    assertThat(run.output()).contains("unknown VM type 'm9.huge'; use one of aws/t2.micro");
  }

  @Test
  void impossibleDeadlineIsAUserError() {
    Run run =
        run("--what-if", "--model", "thesis", "--size", "8GiB", "--objective", "cheapest",
            "--deadline", "300");
    assertThat(run.exitCode()).isEqualTo(3);
    assertThat(run.output())
        .contains("--deadline 300.0 s is impossible: the fastest row, p = 8, takes 340.3 s");
  }

  @Test
  void budgetBelowEgressIsAUserError() {
    Run run = run("--what-if", "--size", "8GiB", "--objective", "fastest", "--budget", "0.05");
    assertThat(run.exitCode()).isEqualTo(3);
    assertThat(run.output())
        .contains("--budget $0.0500 is below the egress cost $0.1600 of moving 8.00 GiB; raise --budget");
  }

  @Test
  void missingSizeAndLiveModeAreUserErrors() {
    assertThat(run("--what-if").output()).contains("--what-if needs --size");
    Run onlySource = run("hdfs://a/x");
    assertThat(onlySource.exitCode()).isEqualTo(3);
    assertThat(onlySource.output()).contains("give SRC and DST to plan a copy between live clusters");
  }
  /** The JSON a user's scripts read: every field's name, in order, at every level. */
  @Test
  void jsonFieldNamesAreStable() throws Exception {
    JsonNode plan = json(run("--what-if", "--size", "8GiB", "--pairs", "0-1", "--json"));

    assertThat(fieldNames(plan)).containsExactly("model", "bytes", "files", "machine",
        "distcpSeconds", "sequentialSeconds", "rows", "chosen", "pretest", "notes");
    assertThat(fieldNames(plan.get("machine"))).containsExactly("provider", "vmType",
        "dollarsPerHour", "externalMebibytesPerSecond", "internalMebibytesPerSecond",
        "bootSeconds", "source");
    assertThat(fieldNames(plan.get("rows").get(1))).containsExactly("pairs", "vmType",
        "relaysStarted", "seconds", "dollars", "speedupVsDistcp", "speedupVsSequential");
    assertThat(fieldNames(plan.get("chosen"))).containsExactly("pairs", "vmType",
        "relaysStarted", "seconds", "dollars", "speedupVsDistcp", "speedupVsSequential",
        "reason");
    assertThat(fieldNames(plan.get("pretest"))).containsExactly("pays", "pairs",
        "pretestSeconds", "secondsWithout", "dollarsWithout", "secondsWith", "dollarsWith",
        "reason");
    assertThat(plan.get("rows").get(1).get("seconds").isDouble()).isTrue();
    assertThat(plan.get("notes").isArray()).isTrue();
  }

  private static List<String> fieldNames(JsonNode node) {
    List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }
}
