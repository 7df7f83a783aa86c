package dev.relaycp.cli;

import dev.relaycp.fs.FileSystemOpener;
import dev.relaycp.transfer.CopyDriver;
import dev.relaycp.transfer.LeftoverStaging.Leftover;
import dev.relaycp.transfer.LeftoverStaging;
import java.io.PrintWriter;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code relaycp clean DST}: removes staging directories that ended copies left beside DST. */
@Command(
    name = "clean",
    mixinStandardHelpOptions = true,
    description = {
        "Removes the staging directories (.relaycp-staging-*) that copies to DST left behind",
        "when their driver was killed outright: those beside DST whose heartbeat has been",
        "still for --older-than. A copy that still runs moves its heartbeat every 10 s."
    })
public final class CleanCommand implements Callable<Integer> {
  @ParentCommand RelayCpCommand parent;
  @Spec CommandSpec spec;
  @Mixin HadoopOptions hadoop;

  @Parameters(index = "0", paramLabel = "DST", description = "The destination URI of the copies.")
  String destination;

  @Option(names = "--older-than", paramLabel = "DURATION",
      description = "Only staging whose heartbeat is older than this (e.g. 30m; default: the"
          + " age after which copies report staging as left behind, 10 minutes).")
  String olderThan;

  @Option(names = "--dry-run", description = "List what would be removed; remove nothing.")
  boolean dryRun;

  @Option(names = "--json", description = "Print what was found (and removed) as JSON.")
  boolean json;

  @Override
  public Integer call() throws Exception {
    Duration age = olderThan == null ? CopyDriver.LEFTOVER_AFTER
        : SpawnOptions.duration(olderThan, "--older-than");
    URI target = CopyCommand.uri(destination, "DST");
    Configuration configuration = hadoop.apply(parent.configuration());
    FileSystem fileSystem = FileSystemOpener.of(configuration).open(target);
    List<Leftover> found = LeftoverStaging.find(fileSystem, new Path(target),
        Instant.now().minus(age));
    List<Leftover> removed = dryRun ? List.of() : LeftoverStaging.remove(fileSystem, found);
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      List<Map<String, Object>> entries = new ArrayList<>();
      for (Leftover leftover : found) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("path", leftover.path().toString());
        entry.put("lastBeat", leftover.lastBeat().toString());
        entry.put("bytes", leftover.bytes());
        entry.put("removed", removed.contains(leftover));
        entries.add(entry);
      }
      out.println(CopySummary.jsonMapper().writeValueAsString(Map.of("staging", entries)));
    } else if (found.isEmpty()) {
      out.println("no staging older than " + age + " beside " + target);
    } else {
      for (Leftover leftover : found) {
        out.println((dryRun ? "would remove " : removed.contains(leftover) ? "removed "
            : "could not remove ") + leftover.path() + " (" + leftover.bytes()
            + " bytes, last heartbeat " + leftover.lastBeat() + ")");
      }
    }
    out.flush();
    return removed.size() == found.size() || dryRun ? ExitCodes.OK : ExitCodes.EXTERNAL;
  }
}
